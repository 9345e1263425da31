import { readFileSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { expect, registerUser, test, uniqueUserName } from "./fixtures";

/**
 * Spec §8 "There seems to be no change": an edit form saved as it was loaded sends nothing and says so; a
 * changed field is saved, and what was saved is then what the form compares with.
 */

type Strings = typeof import("../../app/locales/en-US/common.json");
const load = (lang: string) => JSON.parse(readFileSync(new URL(`../../app/locales/${lang}/common.json`, import.meta.url), "utf8")) as Strings;
const en = load("en-US");
const ja = load("ja-JP");
const HOUR = 3_600_000;
// The first screen of a freshly started server may take longer to compile and hydrate.
const FIRST_LOAD = { timeout: 15_000 };

/** The page's writes to the API (every method but GET), as "METHOD /path"; `skip` leaves reads sent by POST out. */
function apiWrites(page: Page, skip: (path: string) => boolean = () => false): string[] {
  const writes: string[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith("/api/") && request.method() !== "GET" && !skip(path)) writes.push(`${request.method()} ${path}`);
  });
  return writes;
}

/** Save pressed on `scope`'s form: the no-change message is said there (politely) and nothing was sent. */
async function expectNoChange(scope: Locator, save: Locator, writes: string[], sentBefore: string[], message = en.common.noChange) {
  await save.click();
  await expect(scope.getByRole("status").filter({ hasText: message })).toBeVisible();
  expect(writes).toEqual(sentBefore);
}

async function ok<T>(response: Awaited<ReturnType<Page["request"]["get"]>>): Promise<T> {
  expect(response.status(), await response.text()).toBe(200);
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

async function createGame(page: Page): Promise<number> {
  const now = Date.now();
  return (await ok<{ id: number }>(await page.request.post("/api/edit/games", { data: { title: `Same ${now.toString(36)}`, start: now - HOUR, end: now + 2 * HOUR } }))).id;
}

test("profile: Save without an edit sends nothing and says so; an edit is saved, and then is no change", async ({ page }) => {
  await registerUser(page);
  await page.goto("/account/profile");
  const form = page.locator("form").filter({ has: page.getByLabel(en.profile.bio, { exact: true }) });
  const save = page.getByRole("button", { name: en.profile.save, exact: true });
  await expect(save).toBeVisible(FIRST_LOAD);
  const writes = apiWrites(page);

  await expectNoChange(form, save, writes, []);
  // Spaces the form trims change nothing either.
  await page.getByLabel(en.profile.realName, { exact: true }).fill("  ");
  await expectNoChange(form, save, writes, []);

  await page.getByLabel(en.profile.bio, { exact: true }).fill("Reversing since breakfast.");
  await save.click();
  await expect(form.getByRole("status").filter({ hasText: en.profile.saved })).toBeVisible();
  expect(writes).toEqual(["PUT /api/account/update"]);
  await expect(form.getByText(en.common.noChange)).toHaveCount(0);

  await expectNoChange(form, save, writes, ["PUT /api/account/update"]);
  await expect(form.getByText(en.profile.saved)).toHaveCount(0);
  await expect(page.getByLabel(en.profile.bio, { exact: true })).toHaveValue("Reversing since breakfast.");
});

test("team edit: Save in the edit dialog without an edit sends nothing; an edit is saved, and then is no change", async ({ page }) => {
  await registerUser(page);
  const name = `N${Date.now().toString(36).slice(-6)}`;
  await ok(await page.request.post("/api/team", { data: { name, bio: "before" } }));
  await page.goto("/teams");
  const card = page.locator("section").filter({ has: page.getByRole("heading", { name, level: 2 }) });
  await expect(card.getByRole("button", { name: en.teams.edit, exact: true })).toBeVisible(FIRST_LOAD);
  const writes = apiWrites(page);
  const dialog = page.getByRole("dialog", { name: en.teams.editTitle });
  const save = dialog.getByRole("button", { name: en.teams.save, exact: true });

  await card.getByRole("button", { name: en.teams.edit, exact: true }).click();
  await expectNoChange(dialog, save, writes, []);
  await expect(dialog).toBeVisible();

  await dialog.getByLabel(en.teams.bio).fill("after");
  await save.click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText("after", { exact: true })).toBeVisible();
  expect(writes).toEqual([expect.stringMatching(/^PUT \/api\/team\/\d+$/)]);

  await card.getByRole("button", { name: en.teams.edit, exact: true }).click();
  await expect(dialog.getByLabel(en.teams.bio)).toHaveValue("after");
  await expectNoChange(dialog, save, writes, [...writes]);
});

test("admin user and team edit: Save without an edit sends nothing; an edit is saved, and then is no change", async ({ adminPage: page, browser }) => {
  const other = await browser.newContext();
  const user = await registerUser(other.request);
  const teamName = `A${Date.now().toString(36).slice(-6)}`;
  await ok(await other.request.post("/api/team", { data: { name: teamName, bio: "" } }));
  await other.close();
  // The admin lists' searches are reads sent by POST.
  const writes = apiWrites(page, (path) => path.endsWith("/search"));

  await page.goto(`/admin/users?hint=${encodeURIComponent(user.userName)}`);
  const userRow = page.getByTestId(`admin-user-${user.userName}`);
  const userDialog = page.getByRole("dialog", { name: en.adminUsers.editTitle });
  const saveUser = userDialog.getByRole("button", { name: en.adminUsers.save, exact: true });
  await userRow.getByRole("button", { name: en.adminUsers.edit, exact: true }).click(FIRST_LOAD);
  await expectNoChange(userDialog, saveUser, writes, []);
  await userDialog.getByLabel(en.adminUsers.realName).fill("Grace Hopper");
  await saveUser.click();
  await expect(userDialog).toBeHidden();
  await expect(userRow).toContainText("Grace Hopper");
  expect(writes).toEqual([expect.stringMatching(/^PUT \/api\/admin\/users\//)]);
  await userRow.getByRole("button", { name: en.adminUsers.edit, exact: true }).click();
  await expect(userDialog.getByLabel(en.adminUsers.realName)).toHaveValue("Grace Hopper");
  await expectNoChange(userDialog, saveUser, writes, [...writes]);
  await userDialog.getByRole("button", { name: en.adminUsers.cancel, exact: true }).click();
  writes.length = 0;

  await page.goto(`/admin/teams?hint=${encodeURIComponent(teamName)}`);
  const teamRow = page.getByRole("row").filter({ hasText: teamName });
  const teamDialog = page.getByRole("dialog", { name: en.adminTeams.editTitle });
  const saveTeam = teamDialog.getByRole("button", { name: en.teams.save, exact: true });
  await teamRow.getByRole("button", { name: en.adminTeams.editNamed.replace("{{team}}", teamName), exact: true }).click(FIRST_LOAD);
  await expectNoChange(teamDialog, saveTeam, writes, []);
  await teamDialog.getByLabel(en.teams.bio).fill("edited by the admin");
  await saveTeam.click();
  await expect(teamDialog).toBeHidden();
  await expect(teamRow).toContainText("edited by the admin");
  expect(writes).toEqual([expect.stringMatching(/^PUT \/api\/admin\/teams\/\d+$/)]);
  await teamRow.getByRole("button", { name: en.adminTeams.editNamed.replace("{{team}}", teamName), exact: true }).click();
  await expectNoChange(teamDialog, saveTeam, writes, [...writes]);
});

test("game info: Save without an edit sends nothing; an edit is saved, and then is no change", async ({ adminPage: page }) => {
  const gameId = await createGame(page);
  await page.goto(`/admin/games/${gameId}/info`);
  const summary = page.getByLabel(en.adminGames.field.summary, { exact: true });
  await expect(summary).toBeVisible(FIRST_LOAD);
  const form = page.locator("form").filter({ has: summary });
  const save = page.getByRole("button", { name: en.adminGames.save, exact: true });
  const writes = apiWrites(page);

  await expectNoChange(form, save, writes, []);
  // The same number typed differently is no change either.
  const memberLimit = page.getByLabel(en.adminGames.field.memberLimit);
  await memberLimit.fill(`0${await memberLimit.inputValue()}`);
  await expectNoChange(form, save, writes, []);

  await summary.fill("A summary saved once.");
  await save.click();
  await expect(form.getByRole("status").filter({ hasText: en.adminGames.saved })).toBeVisible();
  expect(writes).toEqual([`PUT /api/edit/games/${gameId}`]);
  await expect(form.getByText(en.common.noChange)).toHaveCount(0);

  await expectNoChange(form, save, writes, [`PUT /api/edit/games/${gameId}`]);
  await expect(form.getByText(en.adminGames.saved)).toHaveCount(0);
});

test("challenge edit: Save without an edit sends nothing; an edit is saved, and then is no change", async ({ adminPage: page }) => {
  const gameId = await createGame(page);
  const title = `Same ${Date.now().toString(36)}`;
  const challenge = await ok<{ id: number }>(await page.request.post(`/api/edit/games/${gameId}/challenges`, { data: { title, category: "Misc", type: "StaticAttachment" } }));
  const url = `/api/edit/games/${gameId}/challenges/${challenge.id}`;
  await page.goto(`/admin/games/${gameId}/challenges/${challenge.id}`);
  const titleField = page.getByLabel(en.adminChallenges.titleLabel);
  await expect(titleField).toHaveValue(title, FIRST_LOAD);
  const form = page.locator("form").filter({ has: titleField });
  const save = page.getByRole("button", { name: en.adminChallenges.save, exact: true });
  const writes = apiWrites(page);

  await expectNoChange(form, save, writes, []);
  // An emptied number is the admin's change: still named, not "no change".
  const score = page.getByLabel(en.adminChallenges.originalScore, { exact: true });
  const stored = await score.inputValue();
  await score.fill("");
  await save.click();
  await expect(form.getByText(en.adminChallenges.numberRequired.replace("{{field}}", en.adminChallenges.originalScore))).toBeVisible();
  await expect(form.getByText(en.common.noChange)).toHaveCount(0);
  await score.fill(stored);
  await expectNoChange(form, save, writes, []);

  await titleField.fill(`${title} renamed`);
  await save.click();
  await expect(form.getByRole("status").filter({ hasText: en.adminChallenges.saved })).toBeVisible();
  expect(writes).toEqual([`PUT ${url}`]);

  await expectNoChange(form, save, writes, [`PUT ${url}`]);
  await expect(form.getByText(en.adminChallenges.saved, { exact: true })).toHaveCount(0);
});

test("post and notice edit: Save without an edit sends nothing; an edit is saved, and then is no change", async ({ adminPage: page }) => {
  const post = await ok<{ id: string }>(await page.request.post("/api/edit/posts", { data: { title: `Same ${Date.now().toString(36)}`, summary: "before", content: "body", tags: ["a", "b"] } }));
  const writes = apiWrites(page);
  await page.goto(`/posts/${post.id}/edit`);
  const postSummary = page.getByLabel(en.posts.fieldSummary);
  await expect(postSummary).toHaveValue("before", FIRST_LOAD);
  const postForm = page.locator("form").filter({ has: postSummary });
  const savePost = page.getByRole("button", { name: en.posts.save, exact: true });
  await expectNoChange(postForm, savePost, writes, []);
  await postSummary.fill("after");
  await savePost.click();
  await expect(page).toHaveURL(new RegExp(`/posts/${post.id}$`));
  expect(writes).toEqual([`PUT /api/edit/posts/${post.id}`]);
  await page.goto(`/posts/${post.id}/edit`);
  await expect(postSummary).toHaveValue("after", FIRST_LOAD);
  await expectNoChange(postForm, savePost, writes, [`PUT /api/edit/posts/${post.id}`]);
  writes.length = 0;

  const gameId = await createGame(page);
  await ok(await page.request.post(`/api/edit/games/${gameId}/notices`, { data: { content: "Doors open at nine." } }));
  await page.goto(`/admin/games/${gameId}/notices`);
  const dialog = page.getByRole("dialog", { name: en.adminGames.editNotice });
  const saveNotice = dialog.getByRole("button", { name: en.adminGames.save, exact: true });
  await page.getByRole("button", { name: /^Edit notice “Doors open at nine/ }).click(FIRST_LOAD);
  await expectNoChange(dialog, saveNotice, writes, []);
  await dialog.getByLabel(en.adminGames.noticeContent).fill("Doors open at ten.");
  await saveNotice.click();
  await expect(page.getByRole("status").filter({ hasText: en.adminGames.noticeSaved })).toBeAttached();
  await expect(dialog).toBeHidden();
  expect(writes).toEqual([expect.stringMatching(new RegExp(`^PUT /api/edit/games/${gameId}/notices/\\d+$`))]);
  await page.getByRole("button", { name: /^Edit notice “Doors open at ten/ }).click();
  await expectNoChange(dialog, saveNotice, writes, [...writes]);
});

test("admin settings: Save without an edit sends nothing; an edit is saved, and then is no change", async ({ adminPage: page }) => {
  const before = (await ok<{ globalConfig: { slogan: string } }>(await page.request.get("/api/admin/config"))).globalConfig.slogan;
  try {
    await page.goto("/admin/settings");
    const platform = page.getByRole("region", { name: en.settings.platform.heading });
    const slogan = platform.getByRole("textbox", { name: en.settings.platform.slogan, exact: true });
    await expect(slogan).toBeVisible(FIRST_LOAD);
    const save = platform.getByRole("button", { name: en.settings.save, exact: true });
    const writes = apiWrites(page);

    await expectNoChange(platform, save, writes, []);
    await slogan.fill(`${before} (no-change ${Date.now().toString(36)})`);
    await save.click();
    await expect(platform.getByRole("status").filter({ hasText: en.settings.saved })).toBeVisible();
    expect(writes).toEqual(["PUT /api/admin/config"]);

    await expectNoChange(platform, save, writes, ["PUT /api/admin/config"]);
    await expect(platform.getByText(en.settings.saved)).toHaveCount(0);

    // The other cards say it at their own Save.
    const account = page.getByRole("region", { name: en.settings.account.heading });
    await expectNoChange(account, account.getByRole("button", { name: en.settings.save, exact: true }), writes, ["PUT /api/admin/config"]);
  } finally {
    await ok(await page.request.put("/api/admin/config", { data: { globalConfig: { slogan: before } } }));
  }
});

test("the no-change message is in the page's language, and the same minutes typed differently are no change", async ({ adminPage: page }) => {
  await page.goto("/admin/settings?lng=ja-JP");
  const container = page.getByRole("region", { name: ja.settings.container.heading });
  const lifetime = container.getByLabel(ja.settings.container.defaultLifetime);
  await expect(lifetime).toBeVisible(FIRST_LOAD);
  const save = container.getByRole("button", { name: ja.settings.save, exact: true });
  const writes = apiWrites(page);
  await expectNoChange(container, save, writes, [], ja.common.noChange);
  await expect(container.getByText(en.common.noChange)).toHaveCount(0);
  // The same minutes typed with a leading zero: checked (they changed as text), then found to be the same.
  await lifetime.fill(`0${await lifetime.inputValue()}`);
  await expectNoChange(container, save, writes, [], ja.common.noChange);
  await expect(lifetime).not.toHaveAttribute("aria-invalid", "true");
});

test("a user name is still checked when it was changed", async ({ page }) => {
  await registerUser(page, { userName: uniqueUserName("nc") });
  await page.goto("/account/profile");
  const userName = page.getByLabel(en.profile.userName, { exact: true });
  await expect(userName).toBeVisible(FIRST_LOAD);
  const writes = apiWrites(page);
  await userName.fill("x");
  await page.getByRole("button", { name: en.profile.save, exact: true }).click();
  await expect(userName).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(en.common.noChange)).toHaveCount(0);
  expect(writes).toEqual([]);
});
