import { readFileSync } from "node:fs";
import { type Locator, type Page } from "@playwright/test";
import { expect, expectRefusedAt, hydrated, interpolate, registerUser, test, uniqueUserName } from "./fixtures";

// Labels come from the locale files, so rewording a string does not break the flow under test.
type Strings = typeof import("../../app/locales/en-US/common.json");
const strings = (language: string): Strings =>
  JSON.parse(readFileSync(new URL(`../../app/locales/${language}/common.json`, import.meta.url), "utf8")) as Strings;
const en = strings("en-US");
const ja = strings("ja-JP");
const zh = strings("zh-CN");
// The server's messages, in the language the browser asks for.
type Errors = typeof import("../../app/locales/en-US/errors.json");
const jaErrors = JSON.parse(readFileSync(new URL("../../app/locales/ja-JP/errors.json", import.meta.url), "utf8")) as Errors;
const zhErrors = JSON.parse(readFileSync(new URL("../../app/locales/zh-CN/errors.json", import.meta.url), "utf8")) as Errors;
const enErrors = JSON.parse(readFileSync(new URL("../../app/locales/en-US/errors.json", import.meta.url), "utf8")) as Errors;

async function logIn(page: Page, strings: typeof en, login: string, password: string) {
  await page.getByLabel(strings.login.userName, { exact: true }).fill(login);
  await page.getByLabel(strings.login.password, { exact: true }).fill(password);
  await page.getByRole("button", { name: strings.login.submit, exact: true }).click();
}

test("register, log out, log in, edit the profile, keep language and theme, change the password", async ({ page }) => {
  const userName = uniqueUserName();
  const email = `${userName}@example.com`;
  const password = "Start1234!";
  const newPassword = "Changed5678?";

  // Register, watching the live password hints and the retype check on the way.
  await page.goto("/account/register");
  await expect(page.getByRole("heading", { name: en.register.title, level: 1 })).toBeVisible();
  await page.getByLabel(en.register.userName, { exact: true }).fill(userName);
  await page.getByLabel(en.register.email, { exact: true }).fill(email);
  const passwordInput = page.getByLabel(en.register.password, { exact: true });
  const hints = page.getByRole("list", { name: en.password.hint.title });
  await passwordInput.fill("abc");
  await expect(hints.getByRole("listitem").filter({ hasText: en.password.hint.lowercase })).toHaveAttribute("data-met", "true");
  await expect(hints.getByRole("listitem").filter({ hasText: en.password.hint.uppercase })).toHaveAttribute("data-met", "false");
  await page.getByRole("button", { name: en.register.submit, exact: true }).click();
  await expect(page.getByText(en.password.tooShort)).toBeVisible();

  await passwordInput.fill(password);
  for (const hint of ["length", "lowercase", "uppercase", "digit", "symbol"] as const) {
    await expect(hints.getByRole("listitem").filter({ hasText: en.password.hint[hint] })).toHaveAttribute("data-met", "true");
  }
  const retype = page.getByLabel(en.password.retype, { exact: true });
  await retype.fill(`${password}x`);
  await expect(page.getByText(en.password.mismatch)).toBeVisible();
  await retype.fill(password);
  await expect(page.getByText(en.password.mismatch)).toBeHidden();
  await page.getByRole("button", { name: en.register.submit, exact: true }).click();

  // LoggedIn (the default account policy): home, signed in.
  await expect(page).toHaveURL(/\/$/);
  const nav = page.getByRole("banner");
  await expect(nav.getByRole("link", { name: userName })).toBeVisible();
  await expect(nav.getByRole("link", { name: en.nav.login, exact: true })).toHaveCount(0);

  // Log out, then log in again by email.
  await nav.getByRole("button", { name: en.nav.logout, exact: true }).click();
  await expect(nav.getByRole("link", { name: en.nav.login, exact: true })).toBeVisible();
  await nav.getByRole("link", { name: en.nav.login, exact: true }).click();
  await expect(page).toHaveURL(/\/account\/login$/);
  await logIn(page, en, email, password);
  await expect(page).toHaveURL(/\/$/);
  await expect(nav.getByRole("link", { name: userName })).toBeVisible();

  // Edit the profile; it survives a reload.
  await nav.getByRole("link", { name: userName }).click();
  await expect(page.getByRole("heading", { name: en.profile.title, level: 1 })).toBeVisible();
  await page.getByLabel(en.profile.realName, { exact: true }).fill("Ada Lovelace");
  await page.getByLabel(en.profile.bio, { exact: true }).fill("Solving pwn before breakfast.");
  await page.getByRole("button", { name: en.profile.save, exact: true }).click();
  await expect(page.getByText(en.profile.saved)).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(en.profile.realName, { exact: true })).toHaveValue("Ada Lovelace");
  await expect(page.getByLabel(en.profile.bio, { exact: true })).toHaveValue("Solving pwn before breakfast.");

  // Switch to Japanese and the light theme; both are kept across a reload.
  await page.getByLabel(en.language.label, { exact: true }).selectOption("ja-JP");
  await expect(nav.getByRole("link", { name: ja.nav.home, exact: true })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "ja-JP");
  await page.getByLabel(ja.theme.label, { exact: true }).selectOption("light");
  await expect(page.locator("html")).toHaveClass("light");

  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "ja-JP");
  await expect(page.locator("html")).toHaveClass("light");
  await expect(page.getByRole("heading", { name: ja.profile.title, level: 1 })).toBeVisible();
  await expect(page.getByLabel(ja.theme.label, { exact: true })).toHaveValue("light");
  expect(await page.evaluate(() => [localStorage.getItem("i18nextLng"), localStorage.getItem("flagstaff-theme")])).toEqual([
    "ja-JP",
    "light",
  ]);
  // The server itself renders the chosen language and theme, so there is no flash before scripts run.
  const ssr = await (await page.request.get("/account/profile")).text();
  expect(ssr).toMatch(/<html[^>]*lang="ja-JP"/);
  expect(ssr).toMatch(/<html[^>]*class="light"/);

  // Change the password: the user is sent to log in again, and only the new password works.
  await page.getByLabel(ja.profile.oldPassword, { exact: true }).fill(password);
  await page.getByLabel(ja.profile.newPassword, { exact: true }).fill(newPassword);
  await page.getByLabel(ja.password.retype, { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: ja.profile.changePassword, exact: true }).click();
  await expect(page).toHaveURL(/\/account\/login\?reason=password-changed$/);
  await expect(page.getByText(ja.login.passwordChanged)).toBeVisible();
  await expect(nav.getByRole("link", { name: ja.nav.login, exact: true })).toBeVisible();

  await logIn(page, ja, userName, password);
  await expect(page.getByRole("alert")).toBeVisible();
  await expect(page).toHaveURL(/\/account\/login/);

  await logIn(page, ja, userName, newPassword);
  await expect(page).toHaveURL(/\/$/);
  await expect(nav.getByRole("link", { name: userName })).toBeVisible();

  await nav.getByRole("button", { name: ja.nav.logout, exact: true }).click();
  await expect(nav.getByRole("link", { name: ja.nav.login, exact: true })).toBeVisible();
  await expect(nav.getByRole("link", { name: userName })).toHaveCount(0);
});

test("register: a taken user name or email is shown at its field, which takes the focus (ja-JP)", async ({ page, browser, baseURL }) => {
  const other = await browser.newContext();
  const taken = await registerUser(other.request);
  await other.close();
  await page.context().addCookies([{ name: "i18next", value: "ja-JP", url: baseURL! }]);
  await page.goto("/account/register");
  await expect(page.getByRole("heading", { name: ja.register.title, level: 1 })).toBeVisible();
  const userName = page.getByLabel(ja.register.userName, { exact: true });
  const email = page.getByLabel(ja.register.email, { exact: true });
  const submit = page.getByRole("button", { name: ja.register.submit, exact: true });
  await userName.fill(taken.userName.toUpperCase());
  await email.fill(`${uniqueUserName()}@example.com`);
  await page.getByLabel(ja.register.password, { exact: true }).fill("Start1234!");
  await page.getByLabel(ja.password.retype, { exact: true }).fill("Start1234!");
  await submit.click();
  await expectRefusedAt(userName, jaErrors.account.username_taken);
  await expect(email).not.toHaveAttribute("aria-invalid", "true");

  const fresh = uniqueUserName();
  await userName.fill(fresh);
  await email.fill(taken.email);
  await submit.click();
  await expectRefusedAt(email, jaErrors.account.email_taken);
  await expect(userName).not.toHaveAttribute("aria-invalid", "true");

  await email.fill(`${fresh}@example.com`);
  await submit.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("banner").getByRole("link", { name: fresh })).toBeVisible();
});

/** A field without an error: not invalid, described by nothing of an error, and no message in its frame. */
async function expectNoErrorAt(field: Locator, message: string): Promise<void> {
  await expect(field).not.toHaveAttribute("aria-invalid", "true");
  expect((await field.getAttribute("aria-describedby")) ?? "").not.toMatch(/-error\b/);
  await expect(field.locator("xpath=..").getByText(message, { exact: true })).toHaveCount(0);
}

test("register: a field's error goes once the user changes that field, the others' stay, and the next refusal shows it again (zh-CN)", async ({ page, browser, baseURL }) => {
  const other = await browser.newContext();
  const taken = await registerUser(other.request);
  await other.close();
  await page.context().addCookies([{ name: "i18next", value: "zh-CN", url: baseURL! }]);
  await page.goto("/account/register");
  await hydrated(page);
  const userName = page.getByLabel(zh.register.userName, { exact: true });
  const email = page.getByLabel(zh.register.email, { exact: true });
  const submit = page.getByRole("button", { name: zh.register.submit, exact: true });
  await page.getByLabel(zh.register.password, { exact: true }).fill("Start1234!");
  await page.getByLabel(zh.password.retype, { exact: true }).fill("Start1234!");

  // The form's own refusal of two fields: correcting one takes its error away, the other's stays.
  const lengthMessage = interpolate(zh.register.userNameLength, { min: 3, max: 15 });
  await userName.fill("ab");
  await submit.click();
  await expectRefusedAt(userName, lengthMessage);
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await userName.pressSequentially("c");
  await expectNoErrorAt(userName, lengthMessage);
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email.locator("xpath=..").getByText(zh.register.emailRequired, { exact: true })).toBeVisible();

  // The server's refusal of the name (X-Error-Field): changed, its error goes; sent again, it is back.
  await userName.fill(taken.userName);
  await email.fill(`${uniqueUserName()}@example.com`);
  await submit.click();
  await expectRefusedAt(userName, zhErrors.account.username_taken);
  await userName.press("End");
  await userName.press("Backspace");
  await expectNoErrorAt(userName, zhErrors.account.username_taken);
  await userName.fill(taken.userName);
  await expectNoErrorAt(userName, zhErrors.account.username_taken);
  await submit.click();
  await expectRefusedAt(userName, zhErrors.account.username_taken);
});

test("register: a malformed email is named with the form's other problems, not alone after they are mended (ja-JP)", async ({ page, baseURL }) => {
  await page.context().addCookies([{ name: "i18next", value: "ja-JP", url: baseURL! }]);
  await page.goto("/account/register");
  await hydrated(page);
  const sent: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/api/account/register")) sent.push(r.url());
  });
  const userName = page.getByLabel(ja.register.userName, { exact: true });
  const email = page.getByLabel(ja.register.email, { exact: true });
  await userName.fill("ab");
  await email.fill("not-an-email");
  await page.getByLabel(ja.register.password, { exact: true }).fill("Start1234!");
  await page.getByLabel(ja.password.retype, { exact: true }).fill("Start1234!");
  await page.getByRole("button", { name: ja.register.submit, exact: true }).click();
  await expectRefusedAt(userName, interpolate(ja.register.userNameLength, { min: 3, max: 15 }));
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email.locator("xpath=..").getByText(ja.register.emailInvalid, { exact: true })).toBeVisible();
  expect(sent).toEqual([]);
});

test("profile: an empty or taken user name and a malformed phone number are shown at their fields, which take the focus", async ({ page, browser }) => {
  const other = await browser.newContext();
  const taken = await registerUser(other.request);
  await other.close();
  await registerUser(page);
  await page.goto("/account/profile");
  const userName = page.getByLabel(en.profile.userName, { exact: true });
  const phone = page.getByLabel(en.profile.phone, { exact: true });
  const save = page.getByRole("button", { name: en.profile.save, exact: true });
  // An empty name is asked for in the API's words, not told the length rule.
  await userName.fill(" ");
  await save.click();
  await expectRefusedAt(userName, interpolate(enErrors.validation.required, { field: enErrors.fields.userName }));
  await userName.fill(taken.userName);
  await save.click();
  await expectRefusedAt(userName, enErrors.account.username_taken);
  await userName.fill(uniqueUserName());
  await phone.fill("abc");
  await save.click();
  await expect(phone).toHaveAttribute("aria-invalid", "true");
  await expect(phone).toBeFocused();
  await expect(userName).not.toHaveAttribute("aria-invalid", "true");
});

test("profile: a wrong current password and a new one the API refuses are shown at their fields, not above the form (ja-JP)", async ({ page, baseURL }) => {
  const user = await registerUser(page);
  await page.context().addCookies([{ name: "i18next", value: "ja-JP", url: baseURL! }]);
  await page.goto("/account/profile");
  await hydrated(page);
  const old = page.getByLabel(ja.profile.oldPassword, { exact: true });
  const next = page.getByLabel(ja.profile.newPassword, { exact: true });
  const retype = page.getByLabel(ja.password.retype, { exact: true });
  const submit = page.getByRole("button", { name: ja.profile.changePassword, exact: true });

  // The API refuses the current password (X-Error-Field: old): at that field; changed, the message goes.
  await old.fill("Wrong1234!");
  await next.fill("Changed5678?");
  await retype.fill("Changed5678?");
  await submit.click();
  await expectRefusedAt(old, jaErrors.account.wrong_old_password);
  await expectNoErrorAt(next, jaErrors.account.wrong_old_password);
  await old.press("End");
  await old.press("Backspace");
  await expectNoErrorAt(old, jaErrors.account.wrong_old_password);

  // A new password the form lets through and the API's policy refuses (over 128 characters): at the new password.
  const tooLong = `Aa1${"x".repeat(126)}`;
  const tooLongMessage = interpolate(jaErrors.validation.too_long, { field: jaErrors.fields.new, max: 128 });
  await old.fill(user.password);
  await next.fill(tooLong);
  await retype.fill(tooLong);
  await submit.click();
  await expectRefusedAt(next, tooLongMessage);
  await expectNoErrorAt(old, jaErrors.account.wrong_old_password);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page).toHaveURL(/\/account\/profile$/);
});

test("recovery: an address the API refuses is shown at the Email field, not above the form, until it changes (zh-CN)", async ({ page, baseURL }) => {
  await page.context().addCookies([{ name: "i18next", value: "zh-CN", url: baseURL! }]);
  await page.goto("/account/recovery");
  await hydrated(page);
  const email = page.getByLabel(zh.recovery.email, { exact: true });
  await email.fill("not-an-address");
  await page.getByRole("button", { name: zh.recovery.submit, exact: true }).click();
  await expectRefusedAt(email, zhErrors.validation.invalid_email);
  await email.pressSequentially("@");
  await expectNoErrorAt(email, zhErrors.validation.invalid_email);
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("recovery without JavaScript (or before it has run): an address the API refuses is at the Email field too, not above the form (ja-JP)", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, locale: "ja-JP" });
  const page = await context.newPage();
  await page.goto("/account/recovery");
  const email = page.getByLabel(ja.recovery.email, { exact: true });
  await email.fill("not-an-address");
  await page.getByRole("button", { name: ja.recovery.submit, exact: true }).click();
  // The server action's answer, drawn by the server: the field is marked and described by the message.
  await expect(page.getByRole("heading", { name: ja.recovery.title })).toBeVisible();
  await expect(email).toHaveAttribute("aria-invalid", "true");
  const errorId = (await email.getAttribute("aria-describedby"))?.split(" ").find((id) => id.endsWith("-error"));
  expect(errorId, "the field is described by its error").toBeTruthy();
  await expect(page.locator(`[id="${errorId}"]`)).toHaveText(jaErrors.validation.invalid_email);
  await expect(page.getByRole("alert")).toHaveCount(0);
  // The page drawn again holds the address that was sent, to correct rather than type again.
  await expect(email).toHaveValue("not-an-address");
  // The field's own autofocus: the focus is where the message stands without the page's script too.
  await expect(email).toBeFocused();
  await context.close();
});

test("profile: a tab left open saves only the fields it changed, so an admin's correction made meanwhile stays; a form without its originals sends every field, as before", async ({ page, adminApi }) => {
  const user = await registerUser(page);
  const search = `/api/admin/users/search?hint=${encodeURIComponent(user.userName)}`;
  const id = ((await (await adminApi.post(search)).json()) as { data: { id: string; userName: string }[] }).data.find((u) => u.userName === user.userName)!.id;
  const stored = async () => (await (await page.request.get("/api/account/profile")).json()) as Record<"userName" | "realName" | "stdNumber" | "phone" | "bio", string>;
  await page.goto("/account/profile");
  const field = (label: string) => page.getByLabel(label, { exact: true });
  await expect(field(en.profile.realName)).toHaveValue("");
  const form = page.locator("form").filter({ has: field(en.profile.bio) });
  const save = async () => {
    const put = page.waitForRequest((request) => request.method() === "PUT" && new URL(request.url()).pathname === "/api/account/update");
    await page.getByRole("button", { name: en.profile.save, exact: true }).click();
    const body = (await put).postDataJSON() as unknown;
    await expect(form.getByRole("status").filter({ hasText: en.profile.saved })).toBeVisible();
    return body;
  };

  // An admin corrects the real name and student number, and sets a bio, while this tab shows the old ones.
  expect((await adminApi.put(`/api/admin/users/${id}`, { data: { realName: "Ada Lovelace", stdNumber: "S-1815", bio: "set by an admin" } })).status()).toBe(200);
  await field(en.profile.phone).fill("555-0100");
  await field(en.profile.bio).fill("mine");
  // The phone and the bio the user changed are sent (the user's bio wins); the untouched fields are not.
  expect(await save()).toEqual({ phone: "555-0100", bio: "mine" });
  expect(await stored()).toMatchObject({ userName: user.userName, realName: "Ada Lovelace", stdNumber: "S-1815", phone: "555-0100", bio: "mine" });
  // The form is drawn again with the values as stored.
  await expect(field(en.profile.realName)).toHaveValue("Ada Lovelace");

  // A form posted without the originals (a page from before them): every field is written, as before.
  await page.evaluate(() => document.querySelectorAll('input[name^="original."]').forEach((input) => input.remove()));
  await field(en.profile.bio).fill("again");
  expect(await save()).toEqual({ userName: user.userName, realName: "Ada Lovelace", stdNumber: "S-1815", phone: "555-0100", bio: "again" });
  expect((await stored()).bio).toBe("again");
});

test("a form sent without a connection says so at the form and keeps what was typed: login, register, profile (ja-JP)", async ({ browser }) => {
  const context = await browser.newContext({ locale: "ja-JP" });
  const page = await context.newPage();
  /** Sends with the network off: no error screen, and back online the page stays as it was (nothing reloads it). */
  async function sendOffline(submit: string, said: string | null) {
    await context.setOffline(true);
    await page.getByRole("button", { name: submit, exact: true }).click();
    if (said) await expect(page.getByText(said, { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: ja.error.offlineTitle })).toHaveCount(0);
    await context.setOffline(false);
    await page.waitForTimeout(3_000);
  }

  await page.goto("/account/login");
  await page.getByLabel(ja.login.userName, { exact: true }).fill("someone");
  await page.getByLabel(ja.login.password, { exact: true }).fill("Secret123");
  await sendOffline(ja.login.submit, ja.error.network);
  await expect(page.getByLabel(ja.login.userName, { exact: true })).toHaveValue("someone");
  await expect(page.getByLabel(ja.login.password, { exact: true })).toHaveValue("Secret123");

  // The form's own checks refuse this one (no password) before anything is sent.
  await page.goto("/account/register");
  const name = uniqueUserName();
  await page.getByLabel(ja.register.userName, { exact: true }).fill(name);
  await page.getByLabel(ja.register.email, { exact: true }).fill(`${name}@example.com`);
  await sendOffline(ja.register.submit, null);
  await expect(page.getByLabel(ja.register.userName, { exact: true })).toHaveValue(name);
  await expect(page.getByLabel(ja.register.email, { exact: true })).toHaveValue(`${name}@example.com`);

  await registerUser(page);
  await page.goto("/account/profile");
  const bio = page.getByLabel(ja.profile.bio, { exact: true });
  await bio.fill("typed while offline");
  await sendOffline(ja.profile.save, ja.error.network);
  await expect(bio).toHaveValue("typed while offline");
  await context.close();
});

test("without JavaScript (or before it has run) Log in and Register work, with the server's messages in the page's language (ja-JP)", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, locale: "ja-JP" });
  const user = await registerUser(context.request);
  await context.clearCookies();
  const page = await context.newPage();
  await page.goto("/account/login?from=/games");
  await logIn(page, ja, user.userName, "Wrong-pass1!");
  await expect(page.getByRole("alert")).toHaveText(jaErrors.account.wrong_credentials);
  await logIn(page, ja, user.userName, user.password);
  await expect(page).toHaveURL(/\/games$/);
  await expect(page.getByRole("banner").getByRole("link", { name: user.userName })).toBeVisible();

  await context.clearCookies();
  await page.goto("/account/register");
  const fresh = uniqueUserName();
  await page.getByLabel(ja.register.userName, { exact: true }).fill(fresh);
  await page.getByLabel(ja.register.email, { exact: true }).fill(`${fresh}@example.com`);
  await page.getByLabel(ja.register.password, { exact: true }).fill("Start1234!");
  await page.getByLabel(ja.password.retype, { exact: true }).fill("Start1234!");
  await page.getByRole("button", { name: ja.register.submit, exact: true }).click();
  await expect(page).toHaveURL(new URL("/", baseURL).href);
  await expect(page.getByRole("banner").getByRole("link", { name: fresh })).toBeVisible();
  await context.close();
});

test("without JavaScript (or before it has run) a refused login or registration keeps the user name and email that were sent, never a password (zh-CN)", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, locale: "zh-CN" });
  const taken = await registerUser(context.request);
  await context.clearCookies();
  const page = await context.newPage();

  // The API refuses the password: the page the server draws again holds the name, not the password.
  await page.goto("/account/login");
  await logIn(page, zh, taken.userName, "Wrong-pass1!");
  await expect(page.getByRole("alert")).toHaveText(zhErrors.account.wrong_credentials);
  await expect(page.getByLabel(zh.login.userName, { exact: true })).toHaveValue(taken.userName);
  await expect(page.getByLabel(zh.login.password, { exact: true })).toHaveValue("");
  expect(await page.content()).not.toContain("Wrong-pass1!");

  await page.goto("/account/register");
  const userName = page.getByLabel(zh.register.userName, { exact: true });
  const email = page.getByLabel(zh.register.email, { exact: true });
  const password = page.getByLabel(zh.register.password, { exact: true });
  const retype = page.getByLabel(zh.password.retype, { exact: true });
  const submit = page.getByRole("button", { name: zh.register.submit, exact: true });
  // The API refuses the taken name.
  const address = `${uniqueUserName()}@example.com`;
  await userName.fill(taken.userName);
  await email.fill(address);
  await password.fill("Start1234!");
  await retype.fill("Start1234!");
  await submit.click();
  await expect(userName).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(zhErrors.account.username_taken, { exact: true })).toBeVisible();
  await expect(userName).toHaveValue(taken.userName);
  await expect(email).toHaveValue(address);
  await expect(password).toHaveValue("");
  await expect(retype).toHaveValue("");
  expect(await page.content()).not.toContain("Start1234!");

  // The form's own check refuses the password (no capital): the name just typed is kept, not the one before.
  const fresh = uniqueUserName();
  await userName.fill(fresh);
  await password.fill("start1234!");
  await retype.fill("start1234!");
  await submit.click();
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(zh.password.needsUppercase, { exact: true })).toBeVisible();
  expect(await page.content()).not.toContain("start1234!");
  await expect(userName).toHaveValue(fresh);
  await expect(email).toHaveValue(address);
  await expect(password).toHaveValue("");
  await expect(retype).toHaveValue("");

  // Only the passwords typed again: the kept name and address are sent with them.
  await password.fill("Start1234!");
  await retype.fill("Start1234!");
  await submit.click();
  await expect(page.getByRole("banner").getByRole("link", { name: fresh })).toBeVisible();
  await context.close();
});

test("a refused login, recovery or reset moves the focus to the field its message stands at", async ({ page }) => {
  await page.goto("/account/login");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByRole("button", { name: en.login.submit, exact: true }).click();
  const userName = page.getByLabel(en.login.userName, { exact: true });
  await expect(userName).toHaveAttribute("aria-invalid", "true");
  await expect(userName).toBeFocused();

  await page.goto("/account/recovery");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByRole("button", { name: en.recovery.submit, exact: true }).click();
  const email = page.getByLabel(en.recovery.email, { exact: true });
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email).toBeFocused();

  await page.goto("/account/reset?token=abc&email=eA==");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByLabel(en.reset.password, { exact: true }).fill("Start1234!");
  await page.getByLabel(en.password.retype, { exact: true }).fill("Start1234?");
  await page.getByRole("button", { name: en.reset.submit, exact: true }).click();
  await expect(page.locator("form [aria-invalid=true]").first()).toBeFocused();
});

test("a double click on Log in or Register sends the form once", async ({ page }) => {
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && /\/api\/account\/(login|register)$/.test(r.url())) posts.push(new URL(r.url()).pathname);
  });
  // A slow server: the second click of the pair lands while the first is on its way.
  await page.route(/\/api\/account\/(login|register)$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  await page.goto("/account/login");
  await page.getByLabel(en.login.userName, { exact: true }).fill("nobody_here");
  await page.getByLabel(en.login.password, { exact: true }).fill("Secret123");
  await page.getByRole("button", { name: en.login.submit, exact: true }).dblclick();
  await expect(page.getByText(enErrors.account.wrong_credentials, { exact: true })).toBeVisible();
  expect(posts).toEqual(["/api/account/login"]);

  await page.goto("/account/register");
  const name = uniqueUserName();
  await page.getByLabel(en.register.userName, { exact: true }).fill(name);
  await page.getByLabel(en.register.email, { exact: true }).fill(`${name}@example.com`);
  for (const field of await page.locator("input[type=password]").all()) await field.fill("Secret123");
  await page.getByRole("button", { name: en.register.submit, exact: true }).dblclick();
  await expect(page).not.toHaveURL(/\/account\/register/);
  expect(posts).toEqual(["/api/account/login", "/api/account/register"]);
});

test("paths are case-insensitive, unknown paths show the 404 page, and the profile needs a session", async ({ page }) => {
  await page.goto("/ACCOUNT/Login");
  await expect(page.getByRole("heading", { name: en.login.title, level: 1 })).toBeVisible();

  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: en.notFound.title })).toBeVisible();
  await page.getByRole("link", { name: en.notFound.home }).click();
  await expect(page).toHaveURL(/\/$/);
  // So is the scoreboard of a game that does not exist (it once answered 200 and reconnected forever).
  expect((await page.goto("/games/999999999/scoreboard"))?.status()).toBe(404);

  await page.goto("/account/profile");
  await expect(page).toHaveURL(/\/account\/login\?from=%2Faccount%2Fprofile$/);
});

test("signed out in another tab, a click on a page that needs a session returns there after logging in", async ({ page }) => {
  const { userName, password } = await registerUser(page);
  await page.goto("/");
  await expect(page.getByRole("link", { name: en.nav.teams })).toBeVisible();
  // The session ends elsewhere (another tab logs out); this page still shows the signed-in header.
  expect((await page.request.post("/api/account/logout")).status()).toBe(200);
  await page.getByRole("link", { name: en.nav.teams }).click();
  // The way back names the page, not the address its data was asked for (/teams.data?_routes=…).
  await expect(page).toHaveURL(/\/account\/login\?from=%2Fteams$/);
  await page.getByLabel(en.login.userName).fill(userName);
  await page.getByLabel(en.login.password, { exact: true }).fill(password);
  await page.getByRole("button", { name: en.login.submit }).click();
  await expect(page).toHaveURL(/\/teams$/);
  await expect(page.getByRole("heading", { name: en.teams.title, level: 1 })).toBeVisible();

  // Signed in, the login page sends on to its way back: never to another site, however it is spelt
  // (a browser drops the tab of `/<TAB>/evil.example`), and a line break in it is no server error.
  for (const from of ["/%09/evil.example", "/%09%5Cevil.example", "/.//evil.example", "/%0a/evil.example", "/%0d/evil.example"]) {
    const response = await page.request.get(`/account/login?from=${from}`, { maxRedirects: 0 });
    expect(response.status(), from).toBe(302);
    expect(response.headers().location, from).toBe("/");
  }
});

test("the Admin tab is shown to admins only", async ({ adminPage, browser }) => {
  await adminPage.goto("/");
  const adminNav = adminPage.getByRole("navigation", { name: en.nav.label });
  await expect(adminNav.getByRole("link", { name: en.nav.admin, exact: true })).toHaveAttribute("href", "/admin/games");

  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto("/");
  const visitorNav = visitor.getByRole("navigation", { name: en.nav.label });
  await expect(visitorNav.getByRole("link", { name: en.nav.home, exact: true })).toBeVisible();
  await expect(visitorNav.getByRole("link", { name: en.nav.admin, exact: true })).toHaveCount(0);
  await context.close();
});
