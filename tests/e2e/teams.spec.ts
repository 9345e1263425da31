import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { adminCredentials, expect, expectRefusedAt, interpolate as fill, login, registerUser, test } from "./fixtures";

// Labels come from the locale files, so rewording a string does not break the flow under test.
type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;
const zh = JSON.parse(readFileSync(new URL("../../app/locales/zh-CN/common.json", import.meta.url), "utf8")) as Strings;
const ja = JSON.parse(readFileSync(new URL("../../app/locales/ja-JP/common.json", import.meta.url), "utf8")) as Strings;
// The server's messages, in the language the browser asks for.
type Errors = typeof import("../../app/locales/en-US/errors.json");
const zhErrors = JSON.parse(readFileSync(new URL("../../app/locales/zh-CN/errors.json", import.meta.url), "utf8")) as Errors;
const errors = JSON.parse(readFileSync(new URL("../../app/locales/en-US/errors.json", import.meta.url), "utf8")) as Errors;

// A 1×1 transparent PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

async function confirmIn(page: Page, confirmLabel: string) {
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: confirmLabel, exact: true }).click();
  await expect(dialog).toBeHidden();
}

const memberRow = (page: Page, userName: string) => page.getByRole("listitem").filter({ hasText: userName });
// The first screen of a freshly started server may take longer to compile and hydrate.
const FIRST_LOAD = { timeout: 15_000 };

test("create a team, a second user joins by code, transfer captaincy, kick, disband", async ({ page, browser }) => {
  const first = await registerUser(page);
  const teamName = `T${Date.now().toString(36).slice(-6)}`;

  // Empty state, then create the team.
  await page.goto("/teams");
  await expect(page.getByRole("heading", { name: en.teams.emptyTitle })).toBeVisible(FIRST_LOAD);
  await page.getByRole("button", { name: en.teams.create, exact: true }).click();
  const createDialog = page.getByRole("dialog", { name: en.teams.createTitle });
  await createDialog.getByLabel(en.teams.name).fill(teamName);
  await createDialog.getByLabel(en.teams.bio).fill("e2e team");
  await createDialog.getByRole("button", { name: en.teams.create, exact: true }).click();
  await expect(page.getByRole("heading", { name: teamName, level: 2 })).toBeVisible();
  await expect(memberRow(page, first.userName)).toContainText(en.teams.captain);

  // Avatar upload.
  await page.getByLabel(en.teams.uploadAvatar).setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
  await expect(page.locator(`section img[src^="/assets/"]`).first()).toBeVisible();

  // The invite code.
  await page.getByRole("button", { name: en.teams.showInvite }).click();
  const codeInput = page.getByRole("textbox", { name: en.teams.inviteCode }).first();
  await expect(codeInput).toHaveValue(new RegExp(`^${teamName}:\\d+:[0-9a-f]{32}$`));
  const code = await codeInput.inputValue();
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: en.copy.copy }).click();
  await expect(page.getByRole("button", { name: en.copy.copied })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

  // A second user joins with the code.
  const secondContext = await browser.newContext();
  const second = await secondContext.newPage();
  const secondUser = await registerUser(second);
  await second.goto("/teams");
  await second.getByLabel(en.teams.inviteCode).fill(code);
  await second.getByRole("button", { name: en.teams.join, exact: true }).click();
  await expect(second.getByRole("heading", { name: teamName, level: 2 })).toBeVisible();
  await expect(memberRow(second, secondUser.userName)).toContainText(en.teams.member);
  await expect(second.getByRole("button", { name: en.teams.disband })).toHaveCount(0);

  // The captain hands captaincy to the second user.
  await page.reload();
  await memberRow(page, secondUser.userName).getByRole("button", { name: en.teams.makeCaptain }).click();
  await expect(page.getByRole("dialog")).toContainText(fill(en.teams.transferConfirm, { user: secondUser.userName, team: teamName }));
  await confirmIn(page, en.teams.transfer);
  await expect(memberRow(page, secondUser.userName)).toContainText(en.teams.captain);
  // The buttons that opened the dialog are gone: the team's heading has the focus, and the change is said.
  await expect(page.getByRole("heading", { name: teamName, level: 2 })).toBeFocused();
  await expect(page.getByRole("status").filter({ hasText: fill(en.teams.transferred, { user: secondUser.userName }) })).toHaveCount(1);
  await expect(page.getByRole("button", { name: en.teams.leave })).toBeVisible();

  // The new captain removes the first user.
  await second.reload();
  await memberRow(second, first.userName).getByRole("button", { name: en.teams.kick, exact: true }).click();
  await confirmIn(second, en.teams.kick);
  await expect(memberRow(second, first.userName)).toHaveCount(0);
  await expect(second.getByRole("heading", { name: teamName, level: 2 })).toBeFocused();
  await expect(second.getByRole("status").filter({ hasText: fill(en.teams.kicked, { user: first.userName }) })).toHaveCount(1);
  // The removed user's page still shows the team; leaving it is refused (no longer a member), and the page
  // reads its teams again instead of going on showing one it is not in.
  const reads: number[] = [];
  page.on("request", (request) => {
    if (request.method() === "GET" && new URL(request.url()).pathname === "/api/team") reads.push(Date.now());
  });
  const refusal = page.waitForResponse((response) => /\/api\/team\/\d+\/leave$/.test(new URL(response.url()).pathname));
  await page.getByRole("button", { name: en.teams.leave }).click();
  await page.getByRole("dialog").getByRole("button", { name: en.teams.leave, exact: true }).click();
  expect((await refusal).status()).toBe(404);
  const refusedAt = Date.now();
  // Read again at once (not at the list's next 10-s refresh).
  await expect.poll(() => reads.some((at) => at >= refusedAt - 50 && at - refusedAt < 1_000), { timeout: 3_000 }).toBe(true);
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(page.getByRole("heading", { name: en.teams.emptyTitle })).toBeVisible();

  // And disbands the team: its card goes, the page's heading takes the focus, and the disbanding is said.
  await second.getByRole("button", { name: en.teams.disband, exact: true }).click();
  await confirmIn(second, en.teams.disband);
  await expect(second.getByRole("heading", { name: en.teams.emptyTitle })).toBeVisible();
  await expect(second.getByRole("heading", { name: en.teams.title, level: 1 })).toBeFocused();
  await expect(second.getByTestId("teams-said")).toHaveText(fill(en.teams.disbanded, { team: teamName }));
  await secondContext.close();
});

test("in Japanese at 390 px the invite code's Copy button keeps its label on one line, beside the code", async ({ page, baseURL }) => {
  await page.context().addCookies([{ name: "i18next", value: "ja-JP", url: baseURL! }]);
  await page.setViewportSize({ width: 390, height: 844 });
  await registerUser(page);
  // A long name: the code the row shows is longer than the screen (the row squeezed the button to コピ / ー).
  expect((await page.request.post("/api/team", { data: { name: `Alpha アルファ ${Date.now().toString(36).slice(-5)}` } })).status()).toBe(200);
  await page.goto("/teams");
  await page.getByRole("button", { name: ja.teams.showInvite }).click();
  const copy = page.getByRole("button", { name: ja.copy.copy, exact: true });
  await expect(copy).toBeVisible(FIRST_LOAD);
  // The line boxes of its text: one line, and the button is at least as wide as the text.
  const label = await copy.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const rects = [...range.getClientRects()];
    return { lines: new Set(rects.map((r) => Math.round(r.top))).size, text: range.getBoundingClientRect().width, box: el.clientWidth };
  });
  expect(label.lines).toBe(1);
  expect(label.box).toBeGreaterThanOrEqual(label.text);
  // The code keeps room beside it.
  const code = page.locator("input[readonly]").and(page.getByLabel(ja.teams.inviteCode));
  expect((await code.boundingBox())!.width).toBeGreaterThan(150);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
});

test("a wrong invite code is shown at the code field, which takes the focus, and changes nothing (zh-CN)", async ({ page, browser, baseURL }) => {
  await page.context().addCookies([{ name: "i18next", value: "zh-CN", url: baseURL! }]);
  // Another user's team, for a code of the right shape whose token is stale.
  const other = await browser.newContext();
  await registerUser(other.request);
  const team = (await (await other.request.post("/api/team", { data: { name: `Z${Date.now().toString(36).slice(-6)}` } })).json()) as { id: number };
  await other.close();

  await registerUser(page);
  await page.goto("/teams");
  await expect(page.getByRole("heading", { name: zh.teams.emptyTitle })).toBeVisible(FIRST_LOAD);
  const code = page.getByLabel(zh.teams.inviteCode);
  const join = page.getByRole("button", { name: zh.teams.join, exact: true });
  await code.fill("not-a-code");
  await join.click();
  await expectRefusedAt(code, zhErrors.team.invite_malformed);
  await expect(page.getByRole("heading", { name: zh.teams.emptyTitle })).toBeVisible();

  await code.fill(`x:${team.id}:${"a".repeat(32)}`);
  await join.click();
  await expectRefusedAt(code, zhErrors.team.invite_incorrect);
  // An empty code is refused at the field too, before any request.
  await code.fill("");
  await join.click();
  await expectRefusedAt(code, zh.teams.codeRequired);

  // Creating a team next: the join form's old error goes.
  const teamName = `W${Date.now().toString(36).slice(-6)}`;
  await page.getByRole("button", { name: zh.teams.create, exact: true }).click();
  const createDialog = page.getByRole("dialog", { name: zh.teams.createTitle });
  await createDialog.getByLabel(zh.teams.name).fill(teamName);
  await createDialog.getByRole("button", { name: zh.teams.create, exact: true }).click();
  await expect(page.getByRole("heading", { name: teamName, level: 2 })).toBeVisible();
  await expect(code).not.toHaveAttribute("aria-invalid", "true");
});

test("admins page, search, lock and delete teams", async ({ adminPage: page, browser }) => {
  const ctx = await browser.newContext();
  const owner = await ctx.newPage();
  const member = await registerUser(owner);
  const teamName = `A${Date.now().toString(36).slice(-6)}`;
  const created = await owner.request.post("/api/team", { data: { name: teamName } });
  expect(created.status()).toBe(200);
  await ctx.close();

  await page.goto(`/admin/teams`);
  await expect(page.getByRole("heading", { name: en.adminTeams.title, level: 1 })).toBeVisible(FIRST_LOAD);
  const search = page.getByRole("searchbox", { name: en.adminTeams.search });
  await search.fill(teamName);
  // The hint stays in sight while typing and describes the box.
  await expect(page.getByRole("search").getByText(en.adminTeams.searchHint, { exact: true })).toBeVisible();
  await expect(search).toHaveAccessibleDescription(en.adminTeams.searchHint);
  await page.getByRole("button", { name: en.adminTeams.search, exact: true }).click();
  const row = page.getByRole("row").filter({ hasText: teamName });
  await expect(row).toContainText(en.adminTeams.unlocked);
  // The row lists who is in the team, and each of its buttons names the team it acts on.
  await expect(row.getByRole("cell").nth(2)).toHaveText(`1${member.userName}`);
  await row.getByRole("button", { name: fill(en.adminTeams.lockNamed, { team: teamName }), exact: true }).click();
  await confirmIn(page, en.adminTeams.lock);
  await expect(row).toContainText(en.adminTeams.locked);
  await expect(row.getByRole("button", { name: fill(en.adminTeams.unlockNamed, { team: teamName }), exact: true })).toBeVisible();
  await row.getByRole("button", { name: fill(en.adminTeams.deleteNamed, { team: teamName }), exact: true }).click();
  await confirmIn(page, en.adminTeams.delete);
  await expect(page.getByText(fill(en.adminTeams.noMatch, { hint: teamName }))).toBeVisible();
});

test("an admin removes a member from a team after confirming; a refusal shows in the dialog; never offered for the captain", async ({ adminPage: page, browser }) => {
  const teamName = `K${Date.now().toString(36).slice(-6)}`;
  const captainCtx = await browser.newContext();
  const captain = await registerUser(captainCtx.request);
  const created = await captainCtx.request.post("/api/team", { data: { name: teamName } });
  expect(created.status()).toBe(200);
  const teamId = ((await created.json()) as { id: number }).id;
  const code = (await (await captainCtx.request.get(`/api/team/${teamId}/invite`)).json()) as string;
  const joined: { userName: string; id: string }[] = [];
  for (let i = 0; i < 2; i++) {
    const ctx = await browser.newContext();
    const user = await registerUser(ctx.request);
    expect((await ctx.request.post("/api/team/accept", { data: JSON.stringify(code), headers: { "content-type": "application/json" } })).status()).toBe(200);
    const id = ((await (await ctx.request.get("/api/account/profile")).json()) as { userId: string }).userId;
    joined.push({ userName: user.userName, id });
    await ctx.close();
  }
  const [first, second] = joined as [(typeof joined)[0], (typeof joined)[0]];

  await page.goto(`/admin/teams?hint=${encodeURIComponent(teamName)}`);
  const row = page.getByRole("row").filter({ hasText: teamName });
  const removeButton = (userName: string) => row.getByRole("button", { name: fill(en.adminTeams.removeMemberNamed, { user: userName, team: teamName }), exact: true });
  await expect(removeButton(first.userName)).toBeVisible(FIRST_LOAD);
  await expect(removeButton(captain.userName)).toHaveCount(0);

  // Confirmed: the dialog names the user and the team, and the member leaves the list and the team.
  await removeButton(first.userName).click();
  const dialog = page.getByRole("dialog", { name: en.adminTeams.removeMemberTitle });
  await expect(dialog).toContainText(fill(en.adminTeams.removeMemberConfirm, { user: first.userName, team: teamName }));
  await confirmIn(page, en.adminTeams.removeMember);
  await expect(row.getByRole("cell").nth(2)).toHaveText(`2${captain.userName}${second.userName}${en.adminTeams.removeMember}`);
  const team = (await (await page.request.get(`/api/team/${teamId}`)).json()) as { members: { id: string }[] };
  expect(team.members.map((m) => m.id)).not.toContain(first.id);
  expect(team.members).toHaveLength(2);

  // The captain removes the second member meanwhile: the admin's confirmation is refused in the dialog.
  await removeButton(second.userName).click();
  expect((await captainCtx.request.post(`/api/team/${teamId}/kick/${second.id}`)).status()).toBe(200);
  await dialog.getByRole("button", { name: en.adminTeams.removeMember, exact: true }).click();
  await expect(dialog.getByRole("alert")).toHaveText(errors.team.user_not_member);
  await captainCtx.close();
});

test("the admin's team dialog marks the name the server refuses, and its error goes once the name changes", async ({ adminPage: page, browser }) => {
  const ctx = await browser.newContext();
  await registerUser(ctx.request);
  const teamName = `F${Date.now().toString(36).slice(-6)}`;
  expect((await ctx.request.post("/api/team", { data: { name: teamName } })).status()).toBe(200);
  await ctx.close();

  await page.goto(`/admin/teams?hint=${encodeURIComponent(teamName)}`);
  const row = page.getByRole("row").filter({ hasText: teamName });
  await row.getByRole("button", { name: fill(en.adminTeams.editNamed, { team: teamName }), exact: true }).click(FIRST_LOAD);
  const edit = page.getByRole("dialog", { name: en.adminTeams.editTitle });
  const name = edit.getByLabel(en.teams.name);
  // A name that turns text around passes the form's own length check; the server refuses it by its field.
  await name.fill(`${teamName}\u202e`);
  const answer = page.waitForResponse((r) => r.request().method() === "PUT" && new URL(r.url()).pathname.startsWith("/api/admin/teams/"));
  await edit.getByRole("button", { name: en.teams.save, exact: true }).click();
  const refused = await answer;
  expect(refused.status()).toBe(400);
  expect(refused.headers()["x-error-field"]).toBe("name");
  const { title } = (await refused.json()) as { title: string };
  await expectRefusedAt(name, title);
  await expect(edit.getByRole("alert")).toHaveCount(0);
  await name.fill(`${teamName}G`);
  await expect(name).not.toHaveAttribute("aria-invalid", "true");
  await expect(edit.getByText(title)).toHaveCount(0);
  await edit.getByRole("button", { name: en.teams.save, exact: true }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole("row").filter({ hasText: `${teamName}G` })).toBeVisible();
});

test("an admin's stale team dialog that changes only the bio keeps the name the captain gave meanwhile", async ({ adminPage: page, browser }) => {
  const ctx = await browser.newContext();
  const owner = await ctx.newPage();
  await registerUser(owner);
  const teamName = `S${Date.now().toString(36).slice(-6)}`;
  const created = await owner.request.post("/api/team", { data: { name: teamName, bio: "before" } });
  expect(created.status()).toBe(200);
  const teamId = ((await created.json()) as { id: number }).id;

  await page.goto(`/admin/teams?hint=${encodeURIComponent(teamName)}`);
  const row = page.getByRole("row").filter({ hasText: teamName });
  await row.getByRole("button", { name: fill(en.adminTeams.editNamed, { team: teamName }), exact: true }).click(FIRST_LOAD);
  const edit = page.getByRole("dialog", { name: en.adminTeams.editTitle });
  await expect(edit.getByLabel(en.teams.name)).toHaveValue(teamName);
  // The captain renames the team while the admin's dialog is open.
  const renamed = `${teamName}R`;
  expect((await owner.request.put(`/api/team/${teamId}`, { data: { name: renamed } })).status()).toBe(200);
  await ctx.close();

  await edit.getByLabel(en.teams.bio).fill("after");
  const put = page.waitForRequest((request) => request.method() === "PUT" && new URL(request.url()).pathname === `/api/admin/teams/${teamId}`);
  await edit.getByRole("button", { name: en.teams.save, exact: true }).click();
  expect((await put).postDataJSON()).toEqual({ bio: "after" });
  await expect(edit).toBeHidden();
  const stored = (await (await page.request.post(`/api/admin/teams/search?hint=${encodeURIComponent(renamed)}`)).json()) as { data: { id: number; name: string; bio: string }[] };
  expect(stored.data.find((t) => t.id === teamId)).toMatchObject({ name: renamed, bio: "after" });
});

test("on a narrow screen a team's name wraps between words, a long bio wraps, and a member's name keeps its room", async ({ page, browser }) => {
  await registerUser(page);
  const teamName = `Red Maple Hackers ${Date.now().toString(36).slice(-2)}`;
  // The longest bio, one unbroken word: it wraps inside the card instead of widening the page.
  const created = await page.request.post("/api/team", { data: { name: teamName, bio: "b".repeat(72) } });
  expect(created.status()).toBe(200);
  const teamId = ((await created.json()) as { id: number }).id;
  const code = (await (await page.request.get(`/api/team/${teamId}/invite`)).json()) as string;
  const other = await browser.newContext();
  const member = await registerUser(other.request, { userName: `n${Date.now().toString(36)}`.padEnd(15, "x").slice(0, 15) });
  expect((await other.request.post("/api/team/accept", { data: JSON.stringify(code), headers: { "content-type": "application/json" } })).status()).toBe(200);
  await other.close();
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/teams");
  const heading = page.getByRole("heading", { name: teamName, level: 2 });
  await expect(heading).toBeVisible(FIRST_LOAD);
  // Each word of the name sits on one line: a word split across lines has two boxes.
  const split = await heading.evaluate((h) => {
    const text = h.querySelector("span")!.firstChild!;
    const words: string[] = [];
    const value = text.textContent ?? "";
    for (const match of value.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(text, match.index);
      range.setEnd(text, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) words.push(match[0]);
    }
    return words;
  });
  expect(split).toEqual([]);
  // The member's row, with Make captain and Remove beside it: the whole 15-character user name is shown.
  const name = memberRow(page, member.userName).locator("span.truncate");
  expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
});

test("by keyboard: a new team takes the focus, its invite code takes it when shown, and a page change is announced", async ({ page }) => {
  await registerUser(page);
  const teamName = `K${Date.now().toString(36).slice(-6)}`;
  await page.goto("/teams");
  await expect(page.getByRole("heading", { name: en.teams.emptyTitle })).toBeVisible(FIRST_LOAD);
  await page.getByRole("button", { name: en.teams.create, exact: true }).focus();
  await page.keyboard.press("Enter");
  const createDialog = page.getByRole("dialog", { name: en.teams.createTitle });
  await createDialog.getByLabel(en.teams.name).fill(teamName);
  await createDialog.getByRole("button", { name: en.teams.create, exact: true }).focus();
  await page.keyboard.press("Enter");
  // The button that opened the dialog is gone (one captained team): the focus is on the new team.
  await expect(page.getByRole("heading", { name: teamName, level: 2 })).toBeFocused();

  await page.getByRole("button", { name: en.teams.showInvite }).focus();
  await page.keyboard.press("Enter");
  await expect(page.locator('[data-testid^="team-"]').getByRole("textbox", { name: en.teams.inviteCode })).toBeFocused();

  // A client-side navigation says the new page's title.
  await page.getByRole("navigation", { name: en.nav.label }).getByRole("link", { name: en.nav.games }).click();
  await expect(page).toHaveURL(/\/games$/);
  await expect(page).toHaveTitle(new RegExp(`^${en.games.title} · `));
  await expect(page.getByTestId("route-announcer")).toHaveText(await page.title());
});

test("a captain is not offered to disband a team whose results stand on a game's board, and is told why", async ({ adminApi: admin, page }) => {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const created = await admin.post("/api/edit/games", { data: { title: `Results ${stamp}`, start: now - 7_200_000, end: now + 3_600_000, acceptWithoutReview: true } });
  expect(created.status()).toBe(200);
  const game = (await created.json()) as { id: number };
  await registerUser(page);
  const made = await page.request.post("/api/team", { data: { name: `R${stamp}`.slice(0, 15) } });
  const team = (await made.json()) as { id: number };
  expect((await page.request.post(`/api/game/${game.id}`, { data: { teamId: team.id } })).status()).toBe(200);
  // The admin unlocks the team: what remains is the running game, then the results once it has ended.
  expect((await admin.put(`/api/admin/teams/${team.id}`, { data: { locked: false } })).status()).toBe(200);

  await page.goto("/teams");
  const card = page.getByTestId(`team-${team.id}`);
  await expect(card.getByText(en.teams.disbandRunningNote)).toBeVisible(FIRST_LOAD);
  await expect(card.getByRole("button", { name: en.teams.disband, exact: true })).toHaveCount(0);

  expect((await admin.put(`/api/edit/games/${game.id}`, { data: { end: Date.now() - 60_000 } })).status()).toBe(200);
  await page.reload();
  await expect(card.getByText(en.teams.disbandResultsNote)).toBeVisible();
  await expect(card.getByRole("button", { name: en.teams.disband, exact: true })).toHaveCount(0);
  await expect(card.getByRole("button", { name: en.teams.edit, exact: true })).toBeVisible();
});

test("a member who leaves the team after a game is told on its pages that they play in it no more, and its review lists them as gone", async ({ adminApi: admin, page, browser, playwright, baseURL }) => {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  // An ended game in practice mode: the team lock ended with it.
  const created = await admin.post("/api/edit/games", { data: { title: `Left ${stamp}`, start: now - 7_200_000, end: now - 3_600_000, acceptWithoutReview: true, practiceMode: true } });
  expect(created.status()).toBe(200);
  const game = (await created.json()) as { id: number };
  const captain = await playwright.request.newContext({ baseURL });
  await registerUser(captain);
  const teamName = `L${stamp}`.slice(0, 15);
  const team = (await (await captain.post("/api/team", { data: { name: teamName } })).json()) as { id: number };
  const code = (await (await captain.get(`/api/team/${team.id}/invite`)).json()) as string;
  const member = await registerUser(page);
  expect((await page.request.post("/api/team/accept", { data: JSON.stringify(code), headers: { "content-type": "application/json" } })).status()).toBe(200);
  for (const player of [captain, page.request]) expect((await player.post(`/api/game/${game.id}`, { data: { teamId: team.id } })).status()).toBe(200);
  expect((await page.request.post(`/api/team/${team.id}/leave`)).status()).toBe(200);
  await captain.dispose();

  await page.goto(`/games/${game.id}`);
  await expect(page.getByText(fill(en.games.leftTeam, { team: teamName }))).toBeVisible(FIRST_LOAD);
  // Joining with another team would be refused: the page does not offer it. Nor leaving the game: the
  // registration stays as the record of the team's play (the API answers game.left_team_record).
  await expect(page.getByRole("button", { name: en.games.join.open })).toHaveCount(0);
  await expect(page.getByRole("button", { name: en.games.leave })).toHaveCount(0);
  await page.goto(`/games/${game.id}/challenges`);
  await expect(page.getByText(en.challenge.leftTeam)).toBeVisible();

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await login(adminPage, adminCredentials.userName, adminCredentials.password);
  await adminPage.goto(`/admin/games/${game.id}/review`);
  await expect(adminPage.getByRole("listitem").filter({ hasText: member.userName })).toHaveText(`${member.userName} · ${en.adminGames.review.leftTeam}`, FIRST_LOAD);
  await adminContext.close();

  // The team's registration rejected: it records no play, so the member may leave it — and is not offered to
  // apply again for the team they left, nor shown it as theirs.
  const [registration] = (await (await admin.get(`/api/game/${game.id}/participations`)).json()) as { id: number }[];
  expect((await admin.put(`/api/admin/participation/${registration!.id}/Rejected`)).status()).toBe(200);
  await page.goto(`/games/${game.id}`);
  await expect(page.getByText(fill(en.games.leftRejectedTeam, { team: teamName }))).toBeVisible(FIRST_LOAD);
  await expect(page.getByText(fill(en.games.leftTeam, { team: teamName }))).toHaveCount(0);
  await expect(page.getByText(en.games.myTeam)).toHaveCount(0);
  await expect(page.getByRole("button", { name: en.games.reapply })).toHaveCount(0);
  await page.getByRole("button", { name: en.games.leave, exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: en.games.leave, exact: true }).click();
  // Out of the game: a team of their own is all they need to join it again.
  await expect(page.getByText(en.games.needTeam)).toBeVisible();
  await expect(page.getByText(fill(en.games.leftRejectedTeam, { team: teamName }))).toHaveCount(0);
});

test("with the rate limits turned off (FLAGSTAFF_DISABLE_RATE_LIMIT, as this server runs), concurrent team creations by one user are settled by the one-team rule alone", async ({ page }) => {
  await registerUser(page);
  const stamp = Date.now().toString(36);
  const answers = await Promise.all([1, 2, 3, 4].map((i) => page.request.post("/api/team", { data: { name: `R${i}${stamp}`.slice(0, 20) } })));
  const statuses = answers.map((r) => r.status()).sort();
  expect(statuses).toEqual([200, 400, 400, 400]);
  expect(((await (await page.request.get("/api/team")).json()) as unknown[]).length).toBe(1);
});
