import { readFileSync } from "node:fs";
import type { APIRequestContext, APIResponse, Browser, BrowserContext } from "@playwright/test";
import { expect, hubGreeted, registerUser, test } from "./fixtures";

// Pages left open while someone else changes what they show (DECISIONS.md "Sockets are cut when the account
// changes", rules.md §11): what they show follows without a reload.

type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;

const HOUR = 3_600_000;
const FLAG = "flag{live_changes}";

async function ok<T>(response: Promise<APIResponse>): Promise<T> {
  const r = await response;
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()) as T;
}

/** A running game whose joins are accepted at once, with one enabled static challenge whose flag is FLAG. */
async function runningGame(admin: APIRequestContext, stamp: string, challenge: Record<string, unknown> = {}) {
  const now = Date.now();
  const game = await ok<{ id: number }>(admin.post("/api/edit/games", { data: { title: `Live ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true } }));
  const c = await ok<{ id: number }>(admin.post(`/api/edit/games/${game.id}/challenges`, { data: { title: `Moving ${stamp}`, category: "Misc", type: "StaticAttachment" } }));
  await ok(admin.post(`/api/edit/games/${game.id}/challenges/${c.id}/flags`, { data: [{ flag: FLAG }] }));
  await ok(admin.put(`/api/edit/games/${game.id}/challenges/${c.id}`, { data: { isEnabled: true, ...challenge } }));
  return { gameId: game.id, challengeId: c.id };
}

/** A player in a context of its own: registered, captain of a new team that joined the game. */
async function player(browser: Browser, gameId: number, teamName: string): Promise<{ context: BrowserContext; teamId: number }> {
  const context = await browser.newContext();
  await registerUser(context.request);
  const team = await ok<{ id: number }>(context.request.post("/api/team", { data: { name: teamName } }));
  await ok(context.request.post(`/api/game/${gameId}`, { data: { teamId: team.id } }));
  return { context, teamId: team.id };
}

/** A new user in a context of their own, given `role` by the admin; their id for the next role change. */
async function userWithRole(browser: Browser, admin: APIRequestContext, role: string): Promise<{ context: BrowserContext; id: string }> {
  const context = await browser.newContext();
  const user = await registerUser(context.request);
  const found = await ok<{ data: { id: string; userName: string }[] }>(admin.post(`/api/admin/users/search?hint=${encodeURIComponent(user.userName)}`));
  const id = found.data.find((u) => u.userName === user.userName)!.id;
  await ok(admin.put(`/api/admin/users/${id}`, { data: { role } }));
  return { context, id };
}

test("a Monitor made a User loses the open monitor pages at once: no submission, flag or event stays, and no empty state or Load more", async ({ adminApi: admin, browser }) => {
  test.setTimeout(60_000);
  const stamp = Date.now().toString(36);
  const { gameId, challengeId } = await runningGame(admin, stamp);
  const team = await player(browser, gameId, `M${stamp}`.slice(0, 15));
  const secret = `flag{other_team_${stamp}}`;
  await ok(team.context.request.post(`/api/game/${gameId}/challenges/${challengeId}`, { data: { flag: secret } }));

  const monitor = await userWithRole(browser, admin, "Monitor");
  const submissions = await monitor.context.newPage();
  const events = await monitor.context.newPage();
  const cheats = await monitor.context.newPage();
  const greeted = [hubGreeted(submissions, `/hub/game/${gameId}/monitor`), hubGreeted(events, `/hub/game/${gameId}/monitor`), hubGreeted(cheats, `/hub/game/${gameId}/monitor`)];
  await submissions.goto(`/games/${gameId}/monitor/submissions`);
  await expect(submissions.getByTestId("monitor-submissions").locator("tbody tr").filter({ hasText: secret })).toHaveCount(1);
  await events.goto(`/games/${gameId}/monitor/events`);
  await expect(events.getByTestId("monitor-events").locator("li").filter({ hasText: secret })).toHaveCount(1);
  await cheats.goto(`/games/${gameId}/monitor/cheatinfo`);
  await expect(cheats.getByText(en.monitor.empty)).toBeVisible();
  await Promise.all(greeted);

  await ok(admin.put(`/api/admin/users/${monitor.id}`, { data: { role: "User" } }));
  for (const page of [submissions, events, cheats]) {
    // What a reload would show: the page's forbidden state, nothing of what it listed.
    await expect(page.getByRole("heading", { name: en.forbidden.title, level: 1 })).toBeVisible({ timeout: 8_000 });
    await expect(page.getByText(en.forbidden.message)).toBeVisible();
    await expect(page.getByText(secret)).toHaveCount(0);
    await expect(page.getByText(en.monitor.empty)).toHaveCount(0);
    await expect(page.getByRole("button", { name: en.monitor.loadMore })).toHaveCount(0);
    await expect(page.getByText(en.error.stack)).toHaveCount(0);
  }
  await submissions.reload();
  await expect(submissions.getByRole("heading", { name: en.forbidden.title, level: 1 })).toBeVisible();
  await monitor.context.close();
  await team.context.close();
});

test("an Admin made a User loses the open admin user list, a game's review list and its notices at their next refresh", async ({ adminApi: admin, browser }) => {
  test.setTimeout(60_000);
  const stamp = Date.now().toString(36);
  const { gameId } = await runningGame(admin, stamp);
  const team = await player(browser, gameId, `V${stamp}`.slice(0, 15));
  const posted = `Notice ${stamp}`;
  await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: posted } }));
  const other = await userWithRole(browser, admin, "Admin");
  const users = await other.context.newPage();
  await users.goto("/admin/users");
  await expect(users.locator("tbody tr").first()).toBeVisible();
  const review = await other.context.newPage();
  await review.goto(`/admin/games/${gameId}/review`);
  await expect(review.getByText(`V${stamp}`.slice(0, 15)).first()).toBeVisible();
  // A public game: the demoted admin may still follow its player feed, which the notices page listens to;
  // the socket staying open must not keep the page.
  const notices = await other.context.newPage();
  const greeted = hubGreeted(notices, `/hub/game/${gameId}`);
  await notices.goto(`/admin/games/${gameId}/notices`);
  await expect(notices.getByText(posted)).toBeVisible();
  await greeted;

  await ok(admin.put(`/api/admin/users/${other.id}`, { data: { role: "User" } }));
  // The lists are read again every 10 s (rules.md §15): their refusal ends the page.
  for (const page of [users, review, notices]) {
    await expect(page.getByRole("heading", { name: en.forbidden.title, level: 1 })).toBeVisible({ timeout: 15_000 });
    await expect(page.locator("tbody tr")).toHaveCount(0);
  }
  await expect(review.getByText(`V${stamp}`.slice(0, 15))).toHaveCount(0);
  await expect(notices.getByText(posted)).toHaveCount(0);
  await expect(notices.getByRole("button", { name: en.adminGames.postNotice })).toHaveCount(0);
  await other.context.close();
  await team.context.close();
});

test("Back after deleting a challenge, a post or a game returns to the page before the editor, not to the deleted record's address", async ({ adminPage: page }) => {
  test.setTimeout(60_000);
  const stamp = Date.now().toString(36);
  const { gameId, challengeId } = await runningGame(page.request, stamp);
  const post = await ok<{ id: string }>(page.request.post("/api/edit/posts", { data: { title: `Gone ${stamp}` } }));
  const deleteThrough = async (list: string, editor: string, button: string, confirm: string) => {
    await page.goto(list);
    await page.goto(editor);
    await page.getByRole("button", { name: button, exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: confirm, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${list}$`));
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`${list}$`));
    await expect(page.getByRole("heading", { name: en.notFound.title })).toHaveCount(0);
  };
  await deleteThrough(`/admin/games/${gameId}/challenges`, `/admin/games/${gameId}/challenges/${challengeId}`, en.adminChallenges.delete, en.adminChallenges.delete);
  await deleteThrough("/posts", `/posts/${post.id}/edit`, en.posts.delete, en.posts.delete);
  await deleteThrough("/admin/games", `/admin/games/${gameId}/info`, en.adminGames.delete, en.adminGames.delete);
});

test("the live indicator says offline as soon as the browser loses its network, and is live again as soon as it is back", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const { gameId } = await runningGame(admin, stamp);
  const team = await player(browser, gameId, `O${stamp}`.slice(0, 15));
  const page = await team.context.newPage();
  await page.goto(`/games/${gameId}/challenges`);
  const live = page.getByTestId("challenges-socket");
  await expect(live).toHaveAttribute("data-state", "open");

  // Far within the 35 s an unanswered ping takes.
  await team.context.setOffline(true);
  await expect(live).toHaveAttribute("data-state", "offline", { timeout: 2_000 });
  await expect(live).toHaveText(en.notices.socket.offline);
  await team.context.setOffline(false);
  await expect(live).toHaveAttribute("data-state", "open", { timeout: 3_000 });
  await expect(live).toHaveText(`● ${en.notices.socket.open}`);
  await team.context.close();
});

test("an open game overview shows the not-found state as soon as the game is deleted", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const { gameId } = await runningGame(admin, stamp);
  const team = await player(browser, gameId, `D${stamp}`.slice(0, 15));
  const page = await team.context.newPage();
  await page.goto(`/games/${gameId}`);
  // The game's tab and its "Challenges" button.
  await expect(page.getByRole("link", { name: en.challenge.pageTitle, exact: true })).toHaveCount(2);
  await expect(page.locator("[data-socket-state]")).toHaveAttribute("data-socket-state", "open");

  await ok(admin.delete(`/api/edit/games/${gameId}`));
  // Long before the overview's 30-s read: the room's end of the feed makes the page read again.
  await expect(page.getByRole("heading", { name: en.notFound.title, level: 1 })).toBeVisible({ timeout: 8_000 });
  await expect(page.getByRole("link", { name: en.challenge.pageTitle, exact: true })).toHaveCount(0);
  await expect(page.getByText(en.games.phase.Running, { exact: true })).toHaveCount(0);
  await team.context.close();
});

test("a challenge the organisers close and open again: the \"closed\" alert goes as the card comes back, and its panel opens again", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const { gameId, challengeId } = await runningGame(admin, stamp);
  const team = await player(browser, gameId, `R${stamp}`.slice(0, 15));
  const page = await team.context.newPage();
  const greeted = hubGreeted(page, `/hub/game/${gameId}`);
  await page.goto(`/games/${gameId}/challenges?challenge=${challengeId}`);
  const title = page.getByRole("heading", { name: `Moving ${stamp}`, level: 2 });
  await expect(title).toBeVisible();
  await greeted;

  await ok(admin.put(`/api/edit/games/${gameId}/challenges/${challengeId}`, { data: { isEnabled: false } }));
  const closed = page.getByTestId("challenge-closed");
  await expect(closed).toBeVisible();
  await expect(title).toHaveCount(0);
  await ok(admin.put(`/api/edit/games/${gameId}/challenges/${challengeId}`, { data: { isEnabled: true } }));
  const card = page.getByRole("button", { name: new RegExp(`Moving ${stamp}`) });
  await expect(card).toBeVisible();
  await expect(closed).toHaveCount(0);
  await card.click();
  await expect(title).toBeVisible();
  await team.context.close();
});

test("an open challenge follows the organisers' change of its submission limit at once: the flag box opens again and counts from the new limit", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const { gameId, challengeId } = await runningGame(admin, stamp, { submissionLimit: 2 });
  const team = await player(browser, gameId, `L${stamp}`.slice(0, 15));
  for (const n of [1, 2]) await ok(team.context.request.post(`/api/game/${gameId}/challenges/${challengeId}`, { data: { flag: `flag{wrong_${n}}` } }));
  const page = await team.context.newPage();
  const greeted = hubGreeted(page, `/hub/game/${gameId}`);
  await page.goto(`/games/${gameId}/challenges?challenge=${challengeId}`);
  const flagBox = page.getByRole("textbox", { name: en.challenge.flag });
  await expect(page.getByText(en.challenge.attempts.usedUp, { exact: true })).toBeVisible();
  await expect(flagBox).toBeDisabled();
  await greeted;

  const left = (count: number) => page.getByText(en.challenge.attempts[count === 1 ? "left_one" : "left_other"].replace("{{count}}", String(count)), { exact: true });
  // Far within the panel's 120-s read.
  await ok(admin.put(`/api/edit/games/${gameId}/challenges/${challengeId}`, { data: { submissionLimit: 5 } }));
  await expect(left(3)).toBeVisible({ timeout: 3_000 });
  await expect(flagBox).toBeEnabled();
  await ok(admin.put(`/api/edit/games/${gameId}/challenges/${challengeId}`, { data: { submissionLimit: 3 } }));
  await expect(left(1)).toBeVisible({ timeout: 3_000 });
  await team.context.close();
});

test("a teammate's open challenge panel shows the container the other member starts, and drops it when it is destroyed", async ({ adminApi: admin, browser }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const { gameId } = await runningGame(admin, stamp);
  const c = await ok<{ id: number }>(admin.post(`/api/edit/games/${gameId}/challenges`, { data: { title: `Box ${stamp}`, category: "Web", type: "DynamicContainer" } }));
  await ok(admin.put(`/api/edit/games/${gameId}/challenges/${c.id}`, { data: { containerImage: "flagstaff-test/busybox:latest", exposePort: 80, memoryLimit: 32, flagTemplate: "flag{[TEAM_HASH]}", isEnabled: true } }));
  // One team of two: Bob joins Alice's team before it plays (an accepted team is locked), then both join the game.
  const alice = { context: await browser.newContext() };
  const bob = await browser.newContext();
  await registerUser(alice.context.request);
  await registerUser(bob.request);
  const team = await ok<{ id: number }>(alice.context.request.post("/api/team", { data: { name: `A${stamp}`.slice(0, 15) } }));
  const code = await ok<string>(alice.context.request.get(`/api/team/${team.id}/invite`));
  await ok(bob.request.post("/api/team/accept", { data: JSON.stringify(code), headers: { "content-type": "application/json" } }));
  for (const member of [alice.context, bob]) await ok(member.request.post(`/api/game/${gameId}`, { data: { teamId: team.id } }));

  const open = async (context: BrowserContext) => {
    const page = await context.newPage();
    const greeted = hubGreeted(page, `/hub/game/${gameId}`);
    await page.goto(`/games/${gameId}/challenges?challenge=${c.id}`);
    const panel = page.getByRole("region", { name: en.container.heading });
    await expect(panel.getByText(en.container.none)).toBeVisible();
    await greeted;
    return panel;
  };
  const [alicePanel, bobPanel] = [await open(alice.context), await open(bob)];

  // Bob starts it: Alice's panel shows it without a reload (its own read would come after 120 s).
  await bobPanel.getByRole("button", { name: en.container.start }).click();
  const entry = bobPanel.getByTestId("container-entry");
  await expect(entry).toHaveText(/^[\w.-]+:\d+$/, { timeout: 30_000 });
  await expect(alicePanel.getByTestId("container-entry")).toHaveText((await entry.textContent())!, { timeout: 3_000 });

  const started = Date.now();

  // Alice destroys it, once the start's 10-s cooldown (rules.md §8) is over: Bob's panel no longer shows
  // the entry or a countdown for a container that is gone.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 10_500 - Date.now())));
  await alicePanel.getByRole("button", { name: en.container.destroy }).click();
  await alicePanel.page().getByRole("dialog", { name: en.container.destroyTitle }).getByRole("button", { name: en.container.destroy }).click();
  await expect(alicePanel.getByText(en.container.none)).toBeVisible();
  await expect(bobPanel.getByText(en.container.none)).toBeVisible({ timeout: 3_000 });
  await expect(bobPanel.getByTestId("container-entry")).toHaveCount(0);
  await expect(bobPanel.getByRole("timer")).toHaveCount(0);
  await alice.context.close();
  await bob.close();
});
