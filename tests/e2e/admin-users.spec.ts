import { readFileSync } from "node:fs";
import type { Browser, Locator, Page } from "@playwright/test";
import { expect, expectRefusedAt, interpolate as fill, login, registerUser, shownNumber, test, uniqueUserName } from "./fixtures";

// Labels come from the locale files, so rewording a string does not break the flow under test.
type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;
type Errors = typeof import("../../app/locales/en-US/errors.json");
const enErrors = JSON.parse(readFileSync(new URL("../../app/locales/en-US/errors.json", import.meta.url), "utf8")) as Errors;

// A 1×1 transparent PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
// The first screen of a freshly started server may take longer to compile and hydrate.
const FIRST_LOAD = { timeout: 15_000 };

const userRow = (page: Page, userName: string) => page.getByTestId(`admin-user-${userName}`);

async function openUser(page: Page, userName: string) {
  await page.goto(`/admin/users?hint=${encodeURIComponent(userName)}`);
  await expect(userRow(page, userName)).toBeVisible(FIRST_LOAD);
}

/** A user registered in a browser context of their own, not the admin's. */
async function otherUser(browser: Browser) {
  const other = await browser.newContext();
  const user = await registerUser(other.request);
  await other.close();
  return user;
}

/** A new user, and their row on the admin's users list (opened on it). */
async function newUserRow(page: Page, browser: Browser) {
  const user = await otherUser(browser);
  await openUser(page, user.userName);
  return { user, row: userRow(page, user.userName) };
}

async function confirmIn(page: Page, confirmLabel: string) {
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: confirmLabel, exact: true }).click();
}

test("an admin bans a signed-in user: their next request and page load are refused", async ({ adminPage, browser }) => {
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  const user = await registerUser(userPage);
  await userPage.goto("/account/profile");
  await expect(userPage.getByRole("heading", { name: en.profile.title, level: 1 })).toBeVisible(FIRST_LOAD);
  expect((await userPage.request.get("/api/account/profile")).status()).toBe(200);

  await openUser(adminPage, user.userName);
  // The header's Admin tab is current on every admin page, not only under /admin/games.
  await expect(adminPage.getByRole("navigation", { name: en.nav.label }).getByRole("link", { name: en.nav.admin, exact: true })).toHaveAttribute("aria-current", "page");
  const row = userRow(adminPage, user.userName);
  await expect(row).toContainText(en.role.User);
  // Last visit time (DD/MM/YYYY HH:mm:ss) and IP are shown.
  await expect(row).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/);
  await row.getByRole("button", { name: en.adminUsers.ban, exact: true }).click();
  await expect(adminPage.getByRole("dialog")).toContainText(fill(en.adminUsers.banConfirm, { user: user.userName }));
  await confirmIn(adminPage, en.adminUsers.ban);
  await expect(row).toContainText(en.role.Banned);

  // The open session is gone at once: the API refuses it and the page sends the user to log in.
  expect((await userPage.request.get("/api/account/profile")).status()).toBe(401);
  await userPage.reload();
  await expect(userPage).toHaveURL(/\/account\/login\?from=%2Faccount%2Fprofile/);
  const denied = await userPage.request.post("/api/account/login", { data: { userName: user.userName, password: user.password } });
  expect(denied.status()).toBe(401);

  // Unbanning lets them sign in again.
  await row.getByRole("button", { name: en.adminUsers.unban, exact: true }).click();
  await confirmIn(adminPage, en.adminUsers.unban);
  await expect(row).toContainText(en.role.User);
  await login(userPage, user.userName, user.password);
  await userContext.close();
});

test("an admin edits a user, resets a password shown once, and deletes a user", async ({ adminPage, browser }) => {
  const { user, row } = await newUserRow(adminPage, browser);

  // Edit: real name and role.
  await row.getByRole("button", { name: en.adminUsers.edit, exact: true }).click();
  const edit = adminPage.getByRole("dialog", { name: en.adminUsers.editTitle });
  await edit.getByLabel(en.adminUsers.realName).fill("Grace Hopper");
  await edit.getByLabel(en.adminUsers.role).selectOption("Monitor");
  await edit.getByRole("button", { name: en.adminUsers.save, exact: true }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText("Grace Hopper");
  await expect(row).toContainText(en.role.Monitor);

  // Reset the password: shown once, and it works.
  await row.getByRole("button", { name: en.adminUsers.resetPassword, exact: true }).click();
  await confirmIn(adminPage, en.adminUsers.resetPassword);
  const shown = adminPage.getByTestId("new-password");
  await expect(shown).toHaveText(/^.{16}$/);
  const password = (await shown.textContent()) ?? "";
  // A refused clipboard (plain HTTP, denied permission) says to copy it by hand, and the password stays shown.
  const dialog = adminPage.getByRole("dialog", { name: en.adminUsers.newPasswordTitle });
  await adminPage.evaluate(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException("Write permission denied.", "NotAllowedError"));
  });
  await dialog.getByRole("button", { name: en.copy.copy }).click();
  await expect(dialog.getByText(en.adminUsers.copyFailed)).toBeVisible();
  await expect(dialog.getByRole("button", { name: en.copy.copy })).toBeVisible();
  await expect(shown).toHaveText(password);
  // Copying then succeeds: the refusal's message goes.
  await adminPage.evaluate(() => {
    navigator.clipboard.writeText = () => Promise.resolve();
  });
  await dialog.getByRole("button", { name: en.copy.copy }).click();
  await expect(dialog.getByRole("button", { name: en.copy.copied })).toBeVisible();
  await expect(dialog.getByText(en.adminUsers.copyFailed)).toHaveCount(0);
  await adminPage.getByRole("dialog", { name: en.adminUsers.newPasswordTitle }).getByRole("button", { name: en.adminUsers.close }).click();
  const fresh = await browser.newContext();
  const freshPage = await fresh.newPage();
  await login(freshPage, user.userName, password);
  await fresh.close();

  // Delete with confirmation.
  await row.getByRole("button", { name: en.adminUsers.delete, exact: true }).click();
  await confirmIn(adminPage, en.adminUsers.delete);
  await expect(row).toBeHidden();
  // The row and its button are gone: the focus is on the page's heading, not lost to the page.
  await expect(adminPage.getByRole("heading", { name: en.adminUsers.title, level: 1 })).toBeFocused();
  await expect(adminPage.getByText(fill(en.adminUsers.noMatch, { hint: user.userName }))).toBeVisible();
});

test("a stale edit dialog that changes only the phone keeps a ban and a deactivation made meanwhile elsewhere", async ({ adminPage, browser }) => {
  const { user, row } = await newUserRow(adminPage, browser);
  await expect(row).toContainText(en.role.User);
  const found = (await (await adminPage.request.post(`/api/admin/users/search?hint=${encodeURIComponent(user.userName)}`)).json()) as { data: { id: string; userName: string }[] };
  const id = found.data.find((u) => u.userName === user.userName)!.id;

  // Tab A opens the dialog; meanwhile another tab bans and deactivates the user.
  await row.getByRole("button", { name: en.adminUsers.edit, exact: true }).click();
  const edit = adminPage.getByRole("dialog", { name: en.adminUsers.editTitle });
  await expect(edit.getByLabel(en.adminUsers.role)).toHaveValue("User");
  expect((await adminPage.request.put(`/api/admin/users/${id}`, { data: { role: "Banned", emailConfirmed: false } })).status()).toBe(200);

  await edit.getByLabel(en.adminUsers.phone).fill("555-0100");
  const put = adminPage.waitForRequest((request) => request.method() === "PUT" && new URL(request.url()).pathname === `/api/admin/users/${id}`);
  await edit.getByRole("button", { name: en.adminUsers.save, exact: true }).click();
  expect((await put).postDataJSON()).toEqual({ phone: "555-0100" });
  await expect(edit).toBeHidden();
  await expect(row).toContainText(en.role.Banned);

  const stored = (await (await adminPage.request.post(`/api/admin/users/search?hint=${encodeURIComponent(user.userName)}`)).json()) as { data: { userName: string; role: string; emailConfirmed: boolean; phone: string }[] };
  expect(stored.data.find((u) => u.userName === user.userName)).toMatchObject({ role: "Banned", emailConfirmed: false, phone: "555-0100" });
});

test("the edit dialog marks the field the server refuses, and its error goes once that field changes", async ({ adminPage, browser }) => {
  const { user, row } = await newUserRow(adminPage, browser);
  await row.getByRole("button", { name: en.adminUsers.edit, exact: true }).click();
  const edit = adminPage.getByRole("dialog", { name: en.adminUsers.editTitle });
  const email = edit.getByRole("textbox", { name: en.adminUsers.email, exact: true });
  const phone = edit.getByLabel(en.adminUsers.phone);
  await email.fill("not-an-address");
  await phone.fill("555-0101");
  const answer = adminPage.waitForResponse((r) => r.request().method() === "PUT" && new URL(r.url()).pathname.startsWith("/api/admin/users/"));
  await edit.getByRole("button", { name: en.adminUsers.save, exact: true }).click();
  const refused = await answer;
  expect(refused.status()).toBe(400);
  expect(refused.headers()["x-error-field"]).toBe("email");
  const { title } = (await refused.json()) as { title: string };
  // At the field: marked invalid, described by the message beside it, focused; no banner above the form.
  await expectRefusedAt(email, title);
  await expect(edit.getByRole("alert")).toHaveCount(0);
  await expect(phone).not.toHaveAttribute("aria-invalid", "true");
  // Another field's change leaves it; a change of the e-mail takes it away.
  await phone.fill("555-0102");
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await email.fill(`${user.userName}@example.com`);
  await expect(email).not.toHaveAttribute("aria-invalid", "true");
  await expect(edit.getByText(title)).toHaveCount(0);
  // The same refusal again shows it again.
  await email.fill("still-not-an-address");
  await edit.getByRole("button", { name: en.adminUsers.save, exact: true }).click();
  await expectRefusedAt(email, title);
  await edit.getByRole("button", { name: en.adminUsers.cancel, exact: true }).click();
});

/** A fresh user's id and role as stored, and the list's search held: the page keeps showing the row it drew. */
async function staleRow(page: Page, browser: Browser) {
  const user = await otherUser(browser);
  const search = `/api/admin/users/search?hint=${encodeURIComponent(user.userName)}`;
  const found = (await (await page.request.post(search)).json()) as { data: { id: string; userName: string }[] };
  const id = found.data.find((u) => u.userName === user.userName)!.id;
  const roleNow = async () => ((await (await page.request.post(search)).json()) as { data: { userName: string; role: string }[] }).data.find((u) => u.userName === user.userName)!.role;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const hold = () =>
    page.route("**/api/admin/users/search?*", async (route) => {
      await held;
      await route.continue();
    });
  /**
   * Saves through `save` while the list's reads are held and expects its PUT (`sent`) refused with 409; then the
   * page: the dialog gone, the reason above the list, the row (read again) and the store with `role`.
   */
  const refused = async (save: () => Promise<void>, sent: Record<string, string>, dialog: Locator, row: Locator, role: "Monitor" | "Banned") => {
    const put = page.waitForResponse((response) => response.request().method() === "PUT" && new URL(response.url()).pathname === `/api/admin/users/${id}`);
    await save();
    const answer = await put;
    expect(answer.request().postDataJSON()).toEqual(sent);
    expect(answer.status()).toBe(409);
    release();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("alert").filter({ hasText: enErrors.user.role_changed })).toBeVisible();
    await expect(row).toContainText(en.role[role]);
    expect(await roleNow()).toBe(role);
  };
  return { user, id, hold, refused };
}

test("an Unban confirmed on a row another admin unbanned and promoted meanwhile is refused: the user stays a Monitor and the row shows it", async ({ adminPage, browser }) => {
  const { user, id, hold, refused } = await staleRow(adminPage, browser);
  expect((await adminPage.request.put(`/api/admin/users/${id}`, { data: { role: "Banned" } })).status()).toBe(200);
  await openUser(adminPage, user.userName);
  const row = userRow(adminPage, user.userName);
  await expect(row).toContainText(en.role.Banned);
  // The page's reads of the list are held: this tab still shows the user banned while another promotes them.
  await hold();
  expect((await adminPage.request.put(`/api/admin/users/${id}`, { data: { role: "Monitor" } })).status()).toBe(200);

  await row.getByRole("button", { name: en.adminUsers.unban, exact: true }).click();
  const dialog = adminPage.getByRole("dialog");
  await expect(dialog).toContainText(fill(en.adminUsers.unbanConfirm, { user: user.userName }));
  // Nothing changed: the dialog is gone, the page says why, and the row shows the role the user has now.
  await refused(() => confirmIn(adminPage, en.adminUsers.unban), { role: "User", expectedRole: "Banned" }, dialog, row, "Monitor");
});

test("a stale edit dialog's role change is refused when the role changed meanwhile: the ban stays and the row shows it", async ({ adminPage, browser }) => {
  const { user, id, hold, refused } = await staleRow(adminPage, browser);
  await openUser(adminPage, user.userName);
  const row = userRow(adminPage, user.userName);
  await expect(row).toContainText(en.role.User);
  await hold();
  await row.getByRole("button", { name: en.adminUsers.edit, exact: true }).click();
  const edit = adminPage.getByRole("dialog", { name: en.adminUsers.editTitle });
  await expect(edit.getByLabel(en.adminUsers.role)).toHaveValue("User");
  expect((await adminPage.request.put(`/api/admin/users/${id}`, { data: { role: "Banned" } })).status()).toBe(200);

  await edit.getByLabel(en.adminUsers.role).selectOption("Monitor");
  await refused(() => edit.getByRole("button", { name: en.adminUsers.save, exact: true }).click(), { role: "Monitor", expectedRole: "User" }, edit, row, "Banned");
});

test("an admin's own edit dialog offers neither their role nor deactivation, and still saves", async ({ adminPage, adminCredentials }) => {
  await openUser(adminPage, adminCredentials.userName);
  await userRow(adminPage, adminCredentials.userName).getByRole("button", { name: en.adminUsers.edit, exact: true }).click();
  const edit = adminPage.getByRole("dialog", { name: en.adminUsers.editTitle });
  await expect(edit.getByLabel(en.adminUsers.role)).toBeDisabled();
  await expect(edit.getByRole("checkbox", { name: en.adminUsers.activeToggle })).toBeDisabled();
  await expect(edit.getByRole("checkbox", { name: en.adminUsers.activeToggle })).toBeChecked();
  await expect(edit.getByText(en.adminUsers.ownActive)).toBeVisible();
  // An edit, so that the save is sent (a save of the dialog unchanged is "no change").
  await edit.getByLabel(en.adminUsers.realName).fill(`Admin ${Date.now().toString(36)}`);
  await edit.getByRole("button", { name: en.adminUsers.save, exact: true }).click();
  await expect(edit).toBeHidden();
  expect((await adminPage.request.get("/api/account/profile")).status()).toBe(200);
});

test("a list page past the end says so, with no pager pointing further", async ({ adminPage, browser }) => {
  // At least two pages of 20 users.
  const total = async () => ((await (await adminPage.request.get("/api/admin/users?count=1")).json()) as { total: number }).total;
  const missing = 21 - (await total());
  if (missing > 0) {
    const other = await browser.newContext();
    for (let i = 0; i < missing; i++) await registerUser(other.request);
    await other.close();
  }
  const before = await total();
  const beyond = Math.ceil(before / 20) + 5;
  await adminPage.goto(`/admin/users?page=${beyond}`);
  // Other tests register users meanwhile: the page counts the users there were when it read them.
  const pages = await shownNumber(adminPage.getByRole("main"), en.pager.pastEnd, { page: beyond }, "pages");
  expect(pages).toBeGreaterThanOrEqual(Math.ceil(before / 20));
  expect(pages).toBeLessThanOrEqual(Math.ceil((await total()) / 20));
  await expect(adminPage.getByRole("navigation", { name: en.adminUsers.pagination })).toHaveCount(0);
  await adminPage.getByRole("link", { name: fill(en.pager.lastPage, { pages }) }).click();
  const pager = adminPage.getByRole("navigation", { name: en.adminUsers.pagination });
  const now = await shownNumber(pager, en.pager.pageOf, { page: pages }, "pages");
  expect(now).toBeGreaterThanOrEqual(pages);
  await expect(pager.getByRole("link", { name: en.pager.previous })).toHaveAttribute("href", new RegExp(`page=${pages - 1}$`));
  await expect(pager.getByRole("link", { name: en.pager.next })).toHaveCount(now > pages ? 1 : 0);
});

test("batch creation reports each row", async ({ adminPage }) => {
  const [a, b] = [uniqueUserName("ba"), uniqueUserName("bb")];
  await adminPage.goto("/admin/users");
  await adminPage.getByRole("button", { name: en.adminUsers.batchOpen }).click(FIRST_LOAD);
  const dialog = adminPage.getByRole("dialog", { name: en.adminUsers.batchTitle });
  await dialog
    .getByLabel(en.adminUsers.batchLabel)
    .fill(`${a},Passw0rd!,${a}@example.com,Ada,1001\n${b},short,${b}@example.com`);
  await dialog.getByRole("button", { name: en.adminUsers.batchSubmit }).click();
  const results = dialog.getByTestId("batch-result");
  await expect(results).toHaveCount(2);
  await expect(results.nth(0)).toContainText(en.adminUsers.batchCreated);
  await expect(results.nth(1)).toContainText("Password must be at least 6 characters");
  await dialog.getByRole("button", { name: en.adminUsers.close }).click();
  await openUser(adminPage, a);
  await expect(userRow(adminPage, a)).toContainText("Ada");
});

test("a long batch goes to the server 50 rows at a time, with progress, and a team spans the requests", async ({ adminPage }) => {
  test.setTimeout(120_000);
  const stamp = uniqueUserName("bl");
  const team = `Team ${stamp.slice(-10)}`;
  const names = Array.from({ length: 55 }, (_, i) => `${stamp}${i}`);
  const lines = names.map((name, i) => `${name},Passw0rd!,${name}@example.com${i === 0 || i === 54 ? `,,,,${team}` : ""}`);
  const posts: number[] = [];
  adminPage.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/admin/users") posts.push((request.postDataJSON() as unknown[]).length);
  });
  await adminPage.goto("/admin/users");
  await adminPage.getByRole("button", { name: en.adminUsers.batchOpen }).click(FIRST_LOAD);
  const dialog = adminPage.getByRole("dialog", { name: en.adminUsers.batchTitle });
  await dialog.getByLabel(en.adminUsers.batchLabel).fill(lines.join("\n"));
  await dialog.getByRole("button", { name: en.adminUsers.batchSubmit }).click();
  await expect(dialog.getByRole("button", { name: fill(en.adminUsers.workingProgress, { done: "0", total: "55" }) })).toBeVisible();
  // Escape does not close the dialog while rows are sent (its results would be lost).
  await adminPage.keyboard.press("Escape");
  await expect(dialog).toBeVisible();
  const results = dialog.getByTestId("batch-result");
  await expect(results).toHaveCount(55, { timeout: 90_000 });
  await expect(dialog.getByRole("button", { name: en.adminUsers.batchSubmit })).toBeEnabled();
  expect(posts).toEqual([50, 5]);
  await expect(results.filter({ hasText: en.adminUsers.batchCreated })).toHaveCount(55);
  // The team made by the first request's row took in the second request's member.
  const teams = await adminPage.request.post(`/api/admin/teams/search?hint=${encodeURIComponent(team)}`);
  expect(teams.status()).toBe(200);
  const found = ((await teams.json()) as { data: { name: string; members: { userName: string }[] }[] }).data.filter((t) => t.name === team);
  expect(found).toHaveLength(1);
  expect(found[0]!.members.map((m) => m.userName).sort()).toEqual([names[0], names[54]].sort());
});

test("account screens: forgot-password link, bad activation link, avatar and email change on the profile", async ({ page }) => {
  await page.goto("/account/login");
  await page.getByRole("link", { name: en.login.forgotPassword }).click(FIRST_LOAD);
  await expect(page).toHaveURL(/\/account\/recovery$/);
  await expect(page.getByRole("heading", { name: en.recovery.title })).toBeVisible();
  await page.getByLabel(en.recovery.email).fill("nobody@example.com");
  await page.getByRole("button", { name: en.recovery.submit }).click();
  // The e2e server sends mail (playwright.config.ts): an unknown address gets the same answer as a known one.
  await expect(page.getByText(en.recovery.sentTitle)).toBeVisible();

  // A reset form posts the link's token; a wrong one is refused with the server's message.
  await page.goto("/account/reset?token=bm9wZQ&email=bm9wZQ");
  await page.getByLabel(en.reset.password, { exact: true }).fill("NewPassw0rd!");
  await page.getByLabel(en.password.retype).fill("NewPassw0rd!");
  await page.getByRole("button", { name: en.reset.submit }).click();
  await expect(page.getByRole("alert")).toContainText("This password reset link is invalid");

  await page.goto("/account/verify?token=bm9wZQ&email=bm9wZQ");
  await expect(page.getByText(en.verify.failedTitle)).toBeVisible();
  await expect(page.getByText(en.verify.failed)).toBeVisible();

  await registerUser(page);
  await page.goto("/account/profile");
  await expect(page.getByRole("heading", { name: en.profile.title, level: 1 })).toBeVisible(FIRST_LOAD);
  // A file that cannot be an avatar is named for what is wrong with it, before anything is sent.
  await page.getByLabel(en.profile.uploadAvatar).setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await expect(page.getByRole("alert")).toHaveText(en.upload.imageWrongType);
  await page.getByLabel(en.profile.uploadAvatar).setInputFiles({ name: "empty.png", mimeType: "image/png", buffer: Buffer.alloc(0) });
  await expect(page.getByRole("alert")).toHaveText(en.upload.fileEmpty);
  // Named like an image, but its bytes are text: the server refuses it, and the message says why.
  await page.getByLabel(en.profile.uploadAvatar).setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("not an image at all") });
  await expect(page.getByRole("alert")).toHaveText(en.upload.imageWrongType);
  // A bio typed but not saved yet stays through the upload (the page re-reads the profile after it).
  await page.getByLabel(en.profile.bio, { exact: true }).fill("typed, not saved");
  await page.getByLabel(en.profile.uploadAvatar).setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
  await expect(page.locator(`header img[src^="/assets/"]`)).toBeVisible();
  await expect(page.getByLabel(en.profile.bio, { exact: true })).toHaveValue("typed, not saved");

  // Email confirmation is off by default: only an admin can change the email, and the page says so at
  // once instead of offering a form that cannot send anything.
  await expect(page.getByText(en.profile.emailByAdmin)).toBeVisible();
  await expect(page.getByLabel(en.profile.newEmail)).toBeHidden();
  await expect(page.getByRole("button", { name: en.profile.changeEmail })).toBeHidden();

  // A wrong email-change link.
  await page.goto("/account/confirm?token=bm9wZQ&email=bm9wZQ");
  await expect(page.getByText(en.confirmEmail.failedTitle)).toBeVisible();
});

test("the user search box shows its whole hint in every language at 1024 px", async ({ adminPage }) => {
  await adminPage.setViewportSize({ width: 1024, height: 800 });
  for (const language of ["en-US", "ja-JP", "zh-CN"]) {
    const hint = (JSON.parse(readFileSync(new URL(`../../app/locales/${language}/common.json`, import.meta.url), "utf8")) as Strings).adminUsers.searchHint;
    await adminPage.goto(`/admin/users?lng=${language}`);
    const box = adminPage.getByRole("search").getByRole("searchbox");
    await expect(box).toBeVisible(FIRST_LOAD);
    // The hint's width in the box's own font against the box's text area.
    const room = await box.evaluate((input: HTMLInputElement, text: string) => {
      const style = getComputedStyle(input);
      const context = document.createElement("canvas").getContext("2d")!;
      context.font = style.font;
      return input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - context.measureText(text).width;
    }, hint);
    expect(room, language).toBeGreaterThanOrEqual(0);
    // The hint stays in sight while typing, and screen readers hear it with the box.
    await expect(adminPage.getByRole("search").getByText(hint, { exact: true })).toBeVisible();
    await expect(box).toHaveAccessibleDescription(hint);
  }
});

test("Back and Forward after two searches show in the box the term of the rows listed", async ({ adminPage }) => {
  await adminPage.goto("/admin/users");
  const box = adminPage.getByRole("search").getByRole("searchbox");
  await expect(box).toBeVisible(FIRST_LOAD);
  for (const term of ["adm", "zzz-none"]) {
    await box.fill(term);
    await box.press("Enter");
    await expect(adminPage).toHaveURL(new RegExp(`hint=${term}`));
  }
  await expect(adminPage.getByText(fill(en.adminUsers.noMatch, { hint: "zzz-none" }))).toBeVisible();
  await adminPage.goBack();
  await expect(adminPage).toHaveURL(/hint=adm(&|$)/);
  await expect(box).toHaveValue("adm");
  await adminPage.goBack();
  await expect(adminPage).not.toHaveURL(/hint=/);
  await expect(box).toHaveValue("");
  await adminPage.goForward();
  await expect(box).toHaveValue("adm");
  // The team search is the same form.
  await adminPage.goto("/admin/teams?hint=first");
  const teamBox = adminPage.getByRole("search").getByRole("searchbox");
  await expect(teamBox).toHaveValue("first", FIRST_LOAD);
  await teamBox.fill("second");
  await teamBox.press("Enter");
  await expect(adminPage).toHaveURL(/hint=second/);
  await adminPage.goBack();
  await expect(teamBox).toHaveValue("first");
});
