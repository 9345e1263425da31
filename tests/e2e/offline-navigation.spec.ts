import { readFileSync } from "node:fs";
import type { APIRequestContext, APIResponse, Page } from "@playwright/test";
import { expect, hydrated, registerUser, test } from "./fixtures";

// Moving between pages on a connection that is slow or gone: the app's own offline screen (never the
// browser's error page), a loading bar while the next page is on its way, and the signed-in user kept in
// the header of the offline screen.

type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;

const HOUR = 3_600_000;

async function ok<T>(response: Promise<APIResponse>): Promise<T> {
  const r = await response;
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()) as T;
}

/** A running game that accepts teams at once, with one enabled static challenge. */
async function runningGame(admin: APIRequestContext, stamp: string, title: string): Promise<number> {
  const now = Date.now();
  const game = await ok<{ id: number }>(admin.post("/api/edit/games", { data: { title: `Offline ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true } }));
  const challenge = await ok<{ id: number }>(admin.post(`/api/edit/games/${game.id}/challenges`, { data: { title, category: "Misc", type: "StaticAttachment" } }));
  await ok(admin.post(`/api/edit/games/${game.id}/challenges/${challenge.id}/flags`, { data: [{ flag: "flag{offline}" }] }));
  await ok(admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { data: { isEnabled: true } }));
  return game.id;
}

/** Marks the document: the mark is gone if the browser loaded the page again. */
const markDocument = (page: Page) => page.evaluate(() => ((window as { documentMark?: boolean }).documentMark = true));
const documentMarked = (page: Page) => page.evaluate(() => (window as { documentMark?: boolean }).documentMark === true);

test("offline, a page never opened before shows the app's offline screen, not the browser's error page, and comes back online", async ({ adminApi: admin, browser }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const title = `Unplugged ${stamp}`;
  const gameId = await runningGame(admin, stamp, title);
  const context = await browser.newContext();
  const page = await context.newPage();
  await registerUser(page);
  const team = await ok<{ id: number }>(page.request.post("/api/team", { data: { name: `Off${stamp}`.slice(0, 20) } }));
  await ok(page.request.post(`/api/game/${gameId}`, { data: { teamId: team.id } }));

  await page.goto(`/games/${gameId}/challenges`);
  await hydrated(page);
  await page.getByRole("button", { name: new RegExp(title) }).click();
  await page.getByRole("region", { name: title }).getByRole("textbox", { name: en.challenge.flag }).fill("flag{typed_before}");
  // The player has been on the page a moment: whatever it fetches in the background is in.
  await page.waitForLoadState("networkidle");
  await markDocument(page);

  // The Scoreboard tab, clicked for the first time without a connection.
  await context.setOffline(true);
  await page.getByRole("navigation", { name: en.gameTabs.label }).getByRole("link", { name: en.gameTabs.scoreboard }).click();
  await expect(page.getByRole("heading", { name: en.error.offlineTitle, level: 1 })).toBeVisible();
  await expect(page.getByText(en.error.retrying)).toBeVisible();
  expect(page.url()).not.toContain("chrome-error");
  expect(await documentMarked(page), "the document was not loaded again").toBe(true);

  // Back online, the page comes back by itself.
  await context.setOffline(false);
  await expect(page.getByRole("heading", { name: en.scoreboard.title, level: 1 })).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(new RegExp(`/games/${gameId}/scoreboard$`));

  // The header's About link, likewise, from the page loaded again.
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  await markDocument(page);
  await context.setOffline(true);
  await page.getByRole("navigation", { name: en.nav.label }).getByRole("link", { name: en.nav.about }).click();
  await expect(page.getByRole("heading", { name: en.error.offlineTitle, level: 1 })).toBeVisible();
  expect(page.url()).not.toContain("chrome-error");
  expect(await documentMarked(page), "the document was not loaded again").toBe(true);
  await context.setOffline(false);
  await expect(page.getByRole("heading", { name: en.about.title, level: 1 })).toBeAttached({ timeout: 15_000 });
  await context.close();
});

test("a page that is slow to arrive shows a loading bar until it lands", async ({ page }) => {
  await page.goto("/about");
  await hydrated(page);
  await page.route(/\.data(\?|$)/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.fallback();
  });
  await page.getByRole("navigation", { name: en.nav.label }).getByRole("link", { name: en.nav.posts }).click();
  const bar = page.getByRole("progressbar", { name: en.nav.loadingPage });
  await expect(bar).toBeVisible();
  // The old page is still shown under it.
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole("heading", { name: en.posts.title, level: 1 })).toBeVisible();
  await expect(bar).toHaveCount(0);
});

test("the offline screen keeps the signed-in user in the header, and after signing out no longer shows them", async ({ page, context }) => {
  const user = await registerUser(page);
  await page.goto("/games");
  await hydrated(page);
  const nav = page.getByRole("navigation", { name: en.nav.label });
  await nav.getByRole("link", { name: en.nav.about }).click();
  await expect(page.getByRole("heading", { name: en.about.title, level: 1 })).toBeAttached();
  const header = page.getByRole("banner");
  await expect(header.getByText(user.userName, { exact: true })).toBeVisible();

  await context.setOffline(true);
  await nav.getByRole("link", { name: en.nav.games }).click();
  await expect(page.getByRole("heading", { name: en.error.offlineTitle, level: 1 })).toBeVisible();
  await expect(header.getByText(user.userName, { exact: true })).toBeVisible();
  await expect(header.getByRole("button", { name: en.nav.logout })).toBeVisible();
  await expect(header.getByRole("link", { name: en.nav.login })).toHaveCount(0);

  // Signed out: an offline screen after it shows no user.
  await context.setOffline(false);
  await expect(page.getByRole("heading", { name: en.games.title, level: 1 })).toBeVisible({ timeout: 15_000 });
  await hydrated(page);
  await header.getByRole("button", { name: en.nav.logout }).click();
  await expect(header.getByRole("link", { name: en.nav.login })).toBeVisible();
  await context.setOffline(true);
  await nav.getByRole("link", { name: en.nav.about }).click();
  await expect(page.getByRole("heading", { name: en.error.offlineTitle, level: 1 })).toBeVisible();
  await expect(header.getByRole("link", { name: en.nav.login })).toBeVisible();
  await expect(header.getByText(user.userName, { exact: true })).toHaveCount(0);
  await context.setOffline(false);
});
