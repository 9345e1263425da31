import { readFileSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { adminCredentials, expect, interpolate as fill, login, registerUser, test } from "./fixtures";

// What pages ask the API for, counted: each read a page makes that it does not need is paid on every load
// and refresh, by every visitor.
type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;
const FIRST_LOAD = { timeout: 15_000 };
const HOUR = 3_600_000;

/** The paths (lower case) of the API GETs the page sends from now on. */
function apiReads(page: Page): string[] {
  const reads: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (request.method() === "GET" && url.pathname.startsWith("/api/")) reads.push(url.pathname.toLowerCase());
  });
  return reads;
}

async function createGame(api: APIRequestContext, fields: Record<string, unknown> = {}) {
  const title = `Reads ${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  const created = await api.post("/api/edit/games", { data: { title, start: Date.now() - HOUR, end: Date.now() + HOUR, ...fields } });
  expect(created.status()).toBe(200);
  return { id: ((await created.json()) as { id: number }).id, title };
}

async function createChallenge(api: APIRequestContext, gameId: number, title: string, type = "StaticAttachment") {
  const created = await api.post(`/api/edit/games/${gameId}/challenges`, { data: { title, category: "Misc", type } });
  expect(created.status()).toBe(200);
  return ((await created.json()) as { id: number }).id;
}

test("an admin game page reads the game once a load, and the flags page counts accepted teams without the participation list", async ({ adminPage: page, playwright, baseURL }) => {
  test.setTimeout(120_000);
  const game = await createGame(page.request, { acceptWithoutReview: true });
  const challengeId = await createChallenge(page.request, game.id, "Pairs", "DynamicAttachment");
  // Two teams take part: one accepted, one sent back to pending.
  const participations: number[] = [];
  for (let i = 0; i < 2; i++) {
    const api = await playwright.request.newContext({ baseURL });
    await registerUser(api);
    const team = await api.post("/api/team", { data: { name: `Reads ${Date.now().toString(36)} ${i}` } });
    expect((await api.post(`/api/game/${game.id}`, { data: { teamId: ((await team.json()) as { id: number }).id } })).status()).toBe(200);
    await api.dispose();
  }
  for (const p of (await (await page.request.get(`/api/game/${game.id}/participations`)).json()) as { id: number }[]) participations.push(p.id);
  expect((await page.request.put(`/api/admin/participation/${participations[1]}/Pending`, { data: {} })).status()).toBe(200);

  const reads = apiReads(page);
  const gameReads = () => reads.filter((path) => path === `/api/edit/games/${game.id}`).length;
  const heading = page.getByRole("heading", { name: game.title });
  for (const tab of ["info", "review", `challenges/${challengeId}`, `challenges/${challengeId}/flags`]) {
    reads.length = 0;
    await page.goto(`/admin/games/${game.id}/${tab}`);
    await expect(heading).toBeVisible(FIRST_LOAD);
    await page.waitForLoadState("networkidle");
    // The tab bar's layout and the page both need the game: one read serves both.
    expect(gameReads(), tab).toBe(1);
  }
  // The flags page: the accepted teams (not the pending one) from the game's detail.
  await expect(page.getByText(fill(en.adminChallenges.pairAdvice_one, { count: 1, suggested: 2 }))).toBeVisible();
  expect(reads.filter((path) => path.endsWith("/participations"))).toEqual([]);

  // Another tab of the same game: only its page loads, with one read of the game.
  reads.length = 0;
  await page.getByRole("link", { name: en.adminGames.tab.info, exact: true }).click();
  await expect(page.getByRole("link", { name: en.adminGames.tab.info, exact: true })).toHaveAttribute("aria-current", "page");
  await page.waitForLoadState("networkidle");
  expect(gameReads()).toBe(1);
});

test("the review list's 10-s refresh sends the list's ETag and keeps the rows on a 304", async ({ adminPage: page, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const game = await createGame(page.request, { acceptWithoutReview: true });
  const api = await playwright.request.newContext({ baseURL });
  await registerUser(api);
  const teamName = `Etag ${Date.now().toString(36)}`;
  const team = await api.post("/api/team", { data: { name: teamName } });
  expect((await api.post(`/api/game/${game.id}`, { data: { teamId: ((await team.json()) as { id: number }).id } })).status()).toBe(200);
  await api.dispose();

  const answers: { status: number; ifNoneMatch: string | undefined; size: number }[] = [];
  page.on("response", async (response) => {
    if (new URL(response.url()).pathname !== `/api/game/${game.id}/participations`) return;
    const headers = await response.request().allHeaders();
    answers.push({ status: response.status(), ifNoneMatch: headers["if-none-match"], size: response.status() === 304 ? 0 : (await response.body()).length });
  });
  // The page's clock runs as usual; the test jumps it to the list's next refresh instead of waiting 10 s.
  await page.clock.install();
  await page.goto(`/admin/games/${game.id}/review`);
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(1, FIRST_LOAD);
  await expect(rows.first()).toContainText(teamName);
  await page.clock.fastForward(10_000);
  await expect.poll(() => answers.length).toBeGreaterThanOrEqual(2);
  expect(answers[0]!.status).toBe(200);
  expect(answers[1]).toMatchObject({ status: 304, ifNoneMatch: expect.stringMatching(/^W\//), size: 0 });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(teamName);
});

test("an anonymous visitor's game page never asks for their teams; a signed-in visitor's does", async ({ page, adminApi }) => {
  const game = await createGame(adminApi);
  const reads = apiReads(page);
  await page.goto(`/games/${game.id}`);
  await expect(page.getByRole("heading", { name: game.title })).toBeVisible(FIRST_LOAD);
  // The page's 30-s refresh, brought forward: it reads again when the tab becomes visible.
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  await expect.poll(() => reads.filter((path) => path === `/api/game/${game.id}`).length).toBeGreaterThanOrEqual(2);
  await page.waitForLoadState("networkidle");
  expect(reads.filter((path) => path === "/api/team")).toEqual([]);

  await login(page, adminCredentials.userName, adminCredentials.password);
  await page.reload();
  await expect(page.getByRole("heading", { name: game.title })).toBeVisible(FIRST_LOAD);
  await expect.poll(() => reads.filter((path) => path === "/api/team").length).toBe(1);
});

test("the admin challenge list refreshes every 10 s, keeping an open dialog and what is typed in it", async ({ adminPage: page }) => {
  test.setTimeout(60_000);
  const game = await createGame(page.request);
  await createChallenge(page.request, game.id, "First");
  await page.clock.install();
  await page.goto(`/admin/games/${game.id}/challenges`);
  await expect(page.getByRole("link", { name: "First", exact: true })).toBeVisible(FIRST_LOAD);
  await page.getByRole("button", { name: en.adminChallenges.new }).click();
  const dialog = page.getByRole("dialog", { name: en.adminChallenges.new });
  await dialog.getByLabel(en.adminChallenges.titleLabel).fill("Being typed");

  // Another admin adds one meanwhile.
  await createChallenge(page.request, game.id, "Second");
  // The list's next refresh, without waiting 10 s for it.
  await page.clock.fastForward(10_000);
  await expect(page.getByRole("link", { name: "Second", exact: true })).toBeVisible();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel(en.adminChallenges.titleLabel)).toHaveValue("Being typed");
});

test("an open challenge is read again every 120 s only while its tab is seen, and at once when it is seen again", async ({ page, adminApi }) => {
  const game = await createGame(adminApi, { acceptWithoutReview: true });
  const cid = await createChallenge(adminApi, game.id, `Seen ${Date.now().toString(36)}`);
  expect((await adminApi.post(`/api/edit/games/${game.id}/challenges/${cid}/flags`, { data: [{ flag: "flag{seen}" }] })).status()).toBe(200);
  expect((await adminApi.put(`/api/edit/games/${game.id}/challenges/${cid}`, { data: { isEnabled: true } })).status()).toBe(200);
  await registerUser(page);
  const team = (await (await page.request.post("/api/team", { data: { name: `Seen ${Date.now().toString(36)}`.slice(0, 20) } })).json()) as { id: number };
  expect((await page.request.post(`/api/game/${game.id}`, { data: { teamId: team.id } })).status()).toBe(200);
  // The tab's visibility is the test's to set.
  await page.addInitScript(() => {
    const w = window as unknown as { __hidden: boolean };
    w.__hidden = false;
    Object.defineProperty(document, "visibilityState", { get: () => (w.__hidden ? "hidden" : "visible") });
  });
  const setHidden = (hidden: boolean) =>
    page.evaluate((h) => {
      (window as unknown as { __hidden: boolean }).__hidden = h;
      document.dispatchEvent(new Event("visibilitychange"));
    }, hidden);
  await page.clock.install();
  const reads = apiReads(page);
  const detail = `/api/game/${game.id}/challenges/${cid}`;
  await page.goto(`/games/${game.id}/challenges?challenge=${cid}`);
  await expect(page.getByRole("heading", { name: new RegExp(`Seen`) }).first()).toBeVisible(FIRST_LOAD);
  await expect.poll(() => reads.filter((p) => p === detail).length).toBe(1);
  await page.clock.fastForward(121_000);
  await expect.poll(() => reads.filter((p) => p === detail).length).toBe(2);
  await setHidden(true);
  await page.clock.fastForward(250_000);
  await page.waitForTimeout(500);
  expect(reads.filter((p) => p === detail).length).toBe(2);
  await setHidden(false);
  await expect.poll(() => reads.filter((p) => p === detail).length).toBe(3);
});
