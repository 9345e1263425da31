import { readFileSync } from "node:fs";
import type { APIRequestContext, APIResponse, Page } from "@playwright/test";
import { expect, expectRefusedAt, hubGreeted, hydrated, interpolate, registerUser, smallTargets, test } from "./fixtures";

// What a player and the organisers see change while their pages stay open: notices, hints and closed
// challenges on the challenge page, the overview's times, the review's confirmations, the monitor's feed,
// a game hidden under an open scoreboard, and the game editor keeping times it was not asked to change.

type Strings = typeof import("../../app/locales/en-US/common.json");
const strings = (language: string): Strings => JSON.parse(readFileSync(new URL(`../../app/locales/${language}/common.json`, import.meta.url), "utf8")) as Strings;
const en = strings("en-US");
const enErrors = JSON.parse(readFileSync(new URL("../../app/locales/en-US/errors.json", import.meta.url), "utf8")) as typeof import("../../app/locales/en-US/errors.json");
const ja = strings("ja-JP");

const HOUR = 3_600_000;
const FLAG = "flag{live_play}";

async function ok<T>(response: Promise<APIResponse>): Promise<T> {
  const r = await response;
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()) as T;
}

/** A running game that accepts teams at once, with `titles` enabled static challenges whose flag is FLAG. */
async function runningGame(admin: APIRequestContext, stamp: string, titles: string[], fields: Record<string, unknown> = {}) {
  const now = Date.now();
  const game = await ok<{ id: number }>(admin.post("/api/edit/games", { data: { title: `Live ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true, ...fields } }));
  const ids: number[] = [];
  for (const title of titles) {
    const c = await ok<{ id: number }>(admin.post(`/api/edit/games/${game.id}/challenges`, { data: { title, category: "Misc", type: "StaticAttachment" } }));
    await ok(admin.post(`/api/edit/games/${game.id}/challenges/${c.id}/flags`, { data: [{ flag: FLAG }] }));
    await ok(admin.put(`/api/edit/games/${game.id}/challenges/${c.id}`, { data: { isEnabled: true } }));
    ids.push(c.id);
  }
  return { gameId: game.id, challengeIds: ids };
}

/**
 * A notice for all, posted just before the page is opened: the page's socket greeting then says a message
 * came after the page began reading (within its clock margin), and asks for the resync a test holds. Without
 * it that resync depended on the game's last message being recent, which a slow machine's setup outlasted.
 */
async function noticeJustBefore(admin: APIRequestContext, gameId: number, stamp: string) {
  await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Before ${stamp}` } }));
}

/**
 * Holds `tab`'s first PUT to `path` (sent after the editor's re-read and merge) until `release()`: `held`
 * resolves once it waits, so another tab's save can land between the editor's read and its write. `puts`
 * counts the tab's PUTs to `path`.
 */
async function holdFirstPut(tab: Page, path: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let markHeld!: () => void;
  const held = new Promise<void>((resolve) => (markHeld = resolve));
  const counter = { puts: 0 };
  await tab.route(`**${path}`, async (route) => {
    if (route.request().method() === "PUT" && ++counter.puts === 1) {
      markHeld();
      await released;
    }
    await route.fallback();
  });
  return { held, release, counter };
}

/** A registered player, captain of a new team that joined the game (accepted at once). */
async function player(page: Page, gameId: number, stamp: string): Promise<{ teamId: number; teamName: string }> {
  await registerUser(page);
  const team = await ok<{ id: number; name: string }>(page.request.post("/api/team", { data: { name: `P${stamp}`.slice(0, 20) } }));
  await ok(page.request.post(`/api/game/${gameId}`, { data: { teamId: team.id } }));
  return { teamId: team.id, teamName: team.name };
}

test("the overview's notice filters find a kind's notices on older pages, and say when there are none of it", async ({ adminApi: admin, browser }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const title = `Delta ${stamp}`;
  const { gameId, challengeIds } = await runningGame(admin, stamp, [title]);
  // 105 announcements: the API lists announcements first, so its first page of 100 holds nothing else.
  for (let i = 0; i < 105; i++) await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Announcement ${i} ${stamp}` } }));
  const context = await browser.newContext();
  const page = await context.newPage();
  const { teamName } = await player(page, gameId, stamp);
  const firstPage = await ok<{ type: string }[]>(page.request.get(`/api/game/${gameId}/notices?count=100`));
  expect(new Set(firstPage.map((n) => n.type))).toEqual(new Set(["Normal"]));

  const panel = page.getByRole("region", { name: en.notices.title, exact: true });
  const filters = page.getByRole("group", { name: en.notices.filter });
  const listed = panel.getByTestId("notice");
  await page.goto(`/games/${gameId}`);
  await expect(listed.first()).toBeVisible();
  // No blood yet: every page is read, then the panel says there is none of that kind (not "no notices yet").
  await filters.getByRole("button", { name: en.notices.filters.events }).click();
  await expect(panel.getByText(en.notices.emptyFiltered)).toBeVisible();
  await expect(panel.getByText(en.notices.empty)).toHaveCount(0);

  await ok(page.request.post(`/api/game/${gameId}/challenges/${challengeIds[0]}`, { data: { flag: FLAG } }));
  const blood = interpolate(en.notices.template.FirstBlood, { team: teamName, challenge: title });
  await expect(listed.filter({ hasText: blood })).toBeVisible();

  // A fresh page: the blood and the challenge's opening are behind 105 announcements; each filter finds its own.
  await page.reload();
  await expect(listed.first()).toBeVisible();
  await filters.getByRole("button", { name: en.notices.filters.events }).click();
  await expect(listed.filter({ hasText: blood })).toBeVisible();
  await expect(listed).toHaveCount(1);
  await filters.getByRole("button", { name: en.notices.filters.challenge }).click();
  await expect(listed.filter({ hasText: interpolate(en.notices.template.NewChallenge, { challenge: title }) })).toBeVisible();
  await context.close();
});

test("an open challenge's points follow its card when another team's solve lowers the value", async ({ adminApi: admin, browser }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const title = `Gamma ${stamp}`;
  const { gameId, challengeIds } = await runningGame(admin, stamp, [title]);
  const teams = await Promise.all(
    ["v", "a", "b"].map(async (tag) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await player(page, gameId, `${tag}${stamp}`);
      return page;
    }),
  );
  const [viewer, first, second] = teams as [Page, Page, Page];
  await ok(first.request.post(`/api/game/${gameId}/challenges/${challengeIds[0]}`, { data: { flag: FLAG } }));
  await viewer.goto(`/games/${gameId}/challenges`);
  const card = viewer.getByRole("button", { name: new RegExp(title) });
  await expect(card).toContainText(interpolate(en.challenge.points_other, { count: 1000 }));
  await card.click();
  const panel = viewer.getByRole("region", { name: title });
  await expect(panel).toContainText(interpolate(en.challenge.points_other, { count: 1000 }));

  // A second solve: the value falls to 864 (rules.md §3). The card shows it at the board list's next reading,
  // and the open panel with it (it used to keep 1000 until its own 120-s reading).
  await ok(second.request.post(`/api/game/${gameId}/challenges/${challengeIds[0]}`, { data: { flag: FLAG } }));
  await expect(card).toContainText(interpolate(en.challenge.points_other, { count: 864 }), { timeout: 30_000 });
  await expect(panel).toContainText(interpolate(en.challenge.points_other, { count: 864 }), { timeout: 5_000 });
  await expect(panel).not.toContainText(interpolate(en.challenge.points_other, { count: 1000 }));
  await Promise.all(teams.map((page) => page.context().close()));
});

test("the challenge page hears notices, new hints and a closed challenge without a reload; a solved one takes no more flags", async ({ adminApi: admin, browser }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const [first, second] = [`Alpha ${stamp}`, `Beta ${stamp}`];
  const { gameId, challengeIds } = await runningGame(admin, stamp, [first, second]);
  const context = await browser.newContext();
  const page = await context.newPage();
  await player(page, gameId, stamp);

  await page.goto(`/games/${gameId}/challenges`);
  await expect(page.getByTestId("challenges-socket")).toHaveAttribute("data-state", "open");
  await page.getByRole("button", { name: new RegExp(first) }).click();
  const panel = page.getByRole("region", { name: first });
  await expect(panel.getByRole("textbox", { name: en.challenge.flag })).toBeVisible();

  // An announcement arrives on this page, not only on the overview.
  await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Snacks at ${stamp}` } }));
  await expect(page.getByTestId("live-notices")).toContainText(`Snacks at ${stamp}`);

  // A hint added to the open challenge shows in its panel (the NewHint notice reads it again).
  await ok(admin.put(`/api/edit/games/${gameId}/challenges/${challengeIds[0]}`, { data: { hints: [`Look under ${stamp}`] } }));
  await expect(panel.getByRole("region", { name: en.challenge.hints })).toContainText(`Look under ${stamp}`);
  await expect(page.getByTestId("live-notices")).toContainText(en.notices.template.NewHint.replace("{{challenge}}", first));

  // Solved: the flag box gives way to a "solved" line (a flag sent after would count as an attempt).
  await panel.getByRole("textbox", { name: en.challenge.flag }).fill(FLAG);
  await panel.getByRole("button", { name: en.challenge.submit }).click();
  await expect(panel.getByTestId("verdict")).toHaveAttribute("data-status", "Accepted");
  await expect(panel.getByTestId("challenge-solved")).toHaveText(`✓ ${en.challenge.solvedByTeam}`);
  await expect(panel.getByRole("textbox", { name: en.challenge.flag })).toHaveCount(0);

  // The organisers close the other challenge while it is open: its panel goes and the page says why.
  await page.getByRole("button", { name: new RegExp(second) }).click();
  await expect(page.getByRole("region", { name: second })).toBeVisible();
  await ok(admin.put(`/api/edit/games/${gameId}/challenges/${challengeIds[1]}`, { data: { isEnabled: false } }));
  await expect(page.getByTestId("challenge-closed")).toHaveText(en.challenge.closedByOrganisers.replace("{{title}}", second), { timeout: 20_000 });
  await expect(page.getByRole("region", { name: second })).toHaveCount(0);

  // The open challenge is in the address: a link opens it, Back closes it.
  await page.goto(`/games/${gameId}/challenges?challenge=${challengeIds[0]}`);
  await expect(page.getByRole("region", { name: first })).toBeVisible();
  await expect(page.getByTestId("challenge-solved")).toBeVisible();
  await page.goto(`/games/${gameId}/challenges`);
  await expect(page.getByTestId("challenges-socket")).toHaveAttribute("data-state", "open");
  // Opening and closing it runs no loader (no data request to the server).
  const dataRequests: string[] = [];
  page.on("request", (r) => {
    if (/\.data(\?|$)/.test(new URL(r.url()).pathname + new URL(r.url()).search)) dataRequests.push(r.url());
  });
  await page.getByRole("button", { name: new RegExp(first) }).click();
  await expect(page).toHaveURL(new RegExp(`\\?challenge=${challengeIds[0]}$`));
  await expect(page.getByRole("region", { name: first })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("region", { name: first })).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/games/${gameId}/challenges$`));
  expect(dataRequests).toEqual([]);
  // A notice arrives on the reloaded page too.
  await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Again ${stamp}` } }));
  await expect(page.getByTestId("live-notices")).toContainText(`Again ${stamp}`);

  // The dismiss button takes a notice off the page.
  const notices = page.getByTestId("live-notices").getByTestId("notice");
  const before = await notices.count();
  await notices.first().getByRole("button", { name: en.notices.dismiss }).click();
  await expect(notices).toHaveCount(before - 1);
  await context.close();
});

test("in Japanese at 480 px the flag box's button and the scoreboard's headings stay on one line", async ({ adminApi: admin, browser, baseURL }) => {
  const stamp = Date.now().toString(36);
  const title = `Narrow ${stamp}`;
  // Eight challenge columns: the scoreboard's table is wider than the screen, as in a real game.
  const { gameId } = await runningGame(admin, stamp, [title, ...[1, 2, 3, 4, 5, 6, 7].map((n) => `Column ${n} ${stamp}`)]);
  const context = await browser.newContext({ viewport: { width: 480, height: 900 } });
  await context.addCookies([{ name: "i18next", value: "ja-JP", url: baseURL! }]);
  const page = await context.newPage();
  await player(page, gameId, stamp);
  await page.goto(`/games/${gameId}/challenges`);
  await page.getByRole("button", { name: new RegExp(title) }).click();
  const button = page.getByRole("button", { name: ja.challenge.submit, exact: true });
  await expect(button).toBeVisible();
  // The line boxes of its text (the row stretches the box to the input's height either way).
  const lines = await button.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  expect(lines).toBe(1);

  // The scoreboard's column headings too (they stacked one character per line).
  await page.goto(`/games/${gameId}/scoreboard`);
  const headings = page.locator("table thead th");
  await expect(headings.first()).toHaveText(ja.scoreboard.rank);
  // The four fixed columns (rank, team, score, solves); challenge headings are titles and may wrap.
  const stacked = await headings.evaluateAll((cells) =>
    cells
      .slice(0, 4)
      .map((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return { text: cell.textContent ?? "", lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size };
      })
      .filter((cell) => cell.text !== "" && cell.lines > 1),
  );
  expect(stacked).toEqual([]);
  await context.close();
});

test("at 390 px the flag box shows a placeholder it holds whole, in every language", async ({ adminApi: admin, browser, baseURL }) => {
  const stamp = Date.now().toString(36);
  const title = `Hint ${stamp}`;
  const { gameId, challengeIds } = await runningGame(admin, stamp, [title]);
  const shown: string[] = [];
  for (const language of ["ja-JP", "zh-CN", "en-US"]) {
    const lines = Object.values(strings(language).challenge.placeholders);
    // The page's random number picks the language's longest line (most are wider than a phone's box).
    const longest = lines.reduce((best, line, i) => (line.length > lines[best]!.length ? i : best), 0);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addCookies([{ name: "i18next", value: language, url: baseURL! }]);
    await context.addInitScript((value) => (Math.random = () => value), (longest + 0.5) / lines.length);
    const page = await context.newPage();
    await player(page, gameId, `${stamp}${language.slice(0, 2)}`);
    await page.goto(`/games/${gameId}/challenges?challenge=${challengeIds[0]}`);
    const box = page.getByRole("region", { name: title }).getByRole("textbox", { name: strings(language).challenge.flag });
    await expect(box).toBeVisible();
    await hydrated(page);
    // The line drawn in the placeholder's own font against the box's room for text (its padding aside).
    const line = await box.evaluate((input: HTMLInputElement) => {
      const css = getComputedStyle(input);
      const font = getComputedStyle(input, "::placeholder");
      const ctx = document.createElement("canvas").getContext("2d")!;
      ctx.font = `${font.fontStyle} ${font.fontWeight} ${font.fontSize} ${font.fontFamily}`;
      const room = input.clientWidth - Number.parseFloat(css.paddingLeft) - Number.parseFloat(css.paddingRight);
      return { text: input.placeholder, width: ctx.measureText(input.placeholder).width, room };
    });
    expect(lines).toContain(line.text);
    expect(line.width, `${language}: “${line.text}” in ${Math.floor(line.room)} px`).toBeLessThanOrEqual(line.room);
    shown.push(line.text);
    await context.close();
  }
  expect(shown).toHaveLength(3);
});

test("at 390 px the challenge page shows the two newest arrived notices and folds the rest behind “+N more”", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const { gameId } = await runningGame(admin, stamp, [`Fold ${stamp}`]);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await player(page, gameId, stamp);
  await page.goto(`/games/${gameId}/challenges`);
  await expect(page.getByTestId("challenges-socket")).toHaveAttribute("data-state", "open");
  const notices = page.getByTestId("live-notices").getByTestId("notice");
  const more = page.getByRole("button", { name: interpolate(en.notices.more_other, { count: 2 }) });
  for (let i = 1; i <= 4; i++) {
    await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Fold ${i} ${stamp}` } }));
    await expect(notices.first()).toContainText(`Fold ${i} ${stamp}`);
  }
  // Newest first: two on screen, the two older ones folded (still in the list, out of sight).
  await expect(notices).toHaveCount(4);
  await expect(notices.filter({ visible: true })).toHaveCount(2);
  await expect(notices.filter({ visible: true }).first()).toContainText(`Fold 4 ${stamp}`);
  await expect(notices.filter({ visible: true }).nth(1)).toContainText(`Fold 3 ${stamp}`);
  await expect(more).toBeVisible();
  // The button is no part of the live region (its count would be read out at each arrival).
  await expect(page.locator("[aria-live=polite]").getByTestId("notices-more")).toHaveCount(0);
  // Dismissing one shows the next older one in its place.
  await notices.first().getByRole("button", { name: en.notices.dismiss }).click();
  await expect(notices.filter({ visible: true })).toHaveCount(2);
  await expect(notices.filter({ visible: true }).first()).toContainText(`Fold 3 ${stamp}`);
  await expect(page.getByRole("button", { name: interpolate(en.notices.more_one, { count: 1 }) })).toBeVisible();
  await page.getByRole("button", { name: interpolate(en.notices.more_one, { count: 1 }) }).click();
  await expect(notices.filter({ visible: true })).toHaveCount(3);
  await expect(page.getByTestId("notices-more")).toHaveCount(0);
  // A wider screen shows them all, without the button.
  await page.reload();
  await expect(page.getByTestId("challenges-socket")).toHaveAttribute("data-state", "open");
  for (let i = 5; i <= 7; i++) {
    await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Fold ${i} ${stamp}` } }));
    await expect(notices.first()).toContainText(`Fold ${i} ${stamp}`);
  }
  await expect(notices.filter({ visible: true })).toHaveCount(2);
  await page.setViewportSize({ width: 800, height: 844 });
  await expect(notices.filter({ visible: true })).toHaveCount(3);
  await expect(page.getByTestId("notices-more")).toBeHidden();
  await context.close();
});

test("a notice that arrives while the page's resync read is on its way stays on the page", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const { gameId } = await runningGame(admin, stamp, [`Race ${stamp}`]);
  const context = await browser.newContext();
  const page = await context.newPage();
  await player(page, gameId, stamp);
  // Every read of the notices is answered with the list as it was when asked, but only once the test says so:
  // the page's first read and the resync its socket's greeting asks for are both on their way when the
  // notice arrives, as when a notice is posted during a slow read.
  const held: (() => Promise<void>)[] = [];
  await page.route(new RegExp(`/api/game/${gameId}/notices\\?`), async (route) => {
    const response = await route.fetch();
    await new Promise<void>((answered) => held.push(() => route.fulfill({ response }).then(answered)));
  });
  await noticeJustBefore(admin, gameId, stamp);
  await page.goto(`/games/${gameId}/challenges`);
  await expect(page.getByTestId("challenges-socket")).toHaveAttribute("data-state", "open");
  await expect.poll(() => held.length).toBe(2);
  await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Race ${stamp}` } }));
  const notices = page.getByTestId("live-notices").getByTestId("notice");
  await expect(notices.first()).toContainText(`Race ${stamp}`);
  // The answers come, in order, without the notice: it was posted after they were made, so it is not gone.
  for (const answer of held.splice(0)) {
    const read = page.waitForResponse(new RegExp(`/api/game/${gameId}/notices\\?`));
    await answer();
    await read;
  }
  await page.waitForTimeout(500);
  await expect(notices).toHaveCount(1);
  await expect(notices.first()).toContainText(`Race ${stamp}`);
  await context.close();
});

test("a hint that arrives while an older read of the open challenge is on its way stays in its panel", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const title = `Gamma ${stamp}`;
  const { gameId, challengeIds } = await runningGame(admin, stamp, [title]);
  const context = await browser.newContext();
  const page = await context.newPage();
  await player(page, gameId, stamp);
  await page.goto(`/games/${gameId}/challenges`);
  await expect(page.getByTestId("challenges-socket")).toHaveAttribute("data-state", "open");
  await page.getByRole("button", { name: new RegExp(title) }).click();
  const panel = page.getByRole("region", { name: title });
  await expect(panel.getByRole("textbox", { name: en.challenge.flag })).toBeVisible();
  // From the solve on, every read of the challenge is answered with the challenge as it was when asked, but
  // only once the test says so: the read the accepted flag sends is still on its way when the hint comes.
  const detail = new RegExp(`/api/game/${gameId}/challenges/${challengeIds[0]}$`);
  const held: { url: string; answer: () => Promise<void> }[] = [];
  await page.route(detail, async (route) => {
    if (route.request().method() !== "GET") return route.fallback();
    const response = await route.fetch();
    await new Promise<void>((answered) => held.push({ url: route.request().url(), answer: () => route.fulfill({ response }).catch(() => undefined).then(answered) }));
  });
  await panel.getByRole("textbox", { name: en.challenge.flag }).fill(FLAG);
  await panel.getByRole("button", { name: en.challenge.submit }).click();
  await expect.poll(() => held.length).toBeGreaterThan(0);
  await page.waitForTimeout(500);
  const beforeHint = held.length;
  await ok(admin.put(`/api/edit/games/${gameId}/challenges/${challengeIds[0]}`, { data: { hints: [`Look under ${stamp}`] } }));
  await expect(page.getByTestId("live-notices")).toContainText(en.notices.template.NewHint.replace("{{challenge}}", title));
  // The NewHint notice reads the challenge again: that read, made after the hint, is answered first.
  await expect.poll(() => held.length).toBeGreaterThan(beforeHint);
  const [newest] = held.splice(held.length - 1, 1);
  await newest!.answer();
  const hints = panel.getByRole("region", { name: en.challenge.hints });
  await expect(hints).toContainText(`Look under ${stamp}`);
  // Then the reads sent before it, made before the hint: they do not take it away.
  for (const read of held.splice(0)) await read.answer();
  await page.unroute(detail);
  await page.waitForTimeout(500);
  await expect(hints).toContainText(`Look under ${stamp}`);
  await context.close();
});

test("a notice that arrived before the page's first read answered is not taken for a missed one by a later resync", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const { gameId } = await runningGame(admin, stamp, [`Early ${stamp}`]);
  const context = await browser.newContext();
  const page = await context.newPage();
  await player(page, gameId, stamp);
  // The page's first read is answered late, with the list as it was when asked (before the notice); the
  // resync its socket's greeting asks for is answered later still, with the list as it is then (the notice in it).
  const release: (() => void)[] = [];
  let reads = 0;
  await page.route(new RegExp(`/api/game/${gameId}/notices\\?`), async (route) => {
    const n = reads++;
    if (n > 1) return route.continue();
    const early = n === 0 ? await route.fetch() : null;
    await new Promise<void>((go) => release.push(go));
    await route.fulfill({ response: early ?? (await route.fetch()) });
  });
  const answered = () => page.waitForResponse(new RegExp(`/api/game/${gameId}/notices\\?`));
  await noticeJustBefore(admin, gameId, stamp);
  await page.goto(`/games/${gameId}/challenges`);
  await expect(page.getByTestId("challenges-socket")).toHaveAttribute("data-state", "open");
  await expect.poll(() => release.length).toBe(2);
  await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Early ${stamp}` } }));
  const notices = page.getByTestId("live-notices").getByTestId("notice");
  await expect(notices.first()).toContainText(`Early ${stamp}`);
  let read = answered();
  release[0]!();
  await read;
  // The player dismisses it; the resync's answer lists it, but it was no missed notice: it stays dismissed.
  await notices.first().getByRole("button", { name: en.notices.dismiss }).click();
  await expect(notices).toHaveCount(0);
  read = answered();
  release[1]!();
  await read;
  await page.waitForTimeout(500);
  await expect(notices).toHaveCount(0);
  await context.close();
});

test("the game overview follows an admin moving the end, and the join dialog's errors show together and each goes with its cause", async ({ adminPage: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const { gameId } = await runningGame(admin.request, stamp, [], { divisions: [{ name: `Div ${stamp}` }, { name: `Other ${stamp}` }], inviteCode: `code-${stamp}` });
  const context = await browser.newContext();
  const page = await context.newPage();
  await registerUser(page);
  await ok(page.request.post("/api/team", { data: { name: `O${stamp}`.slice(0, 20) } }));

  await page.goto(`/games/${gameId}`);
  await expect(page.locator("[data-phase]")).toHaveAttribute("data-phase", "Running");
  // Joining without a division or the code is refused at both fields at once, the first taking the focus;
  // choosing a division clears its refusal only, typing a code the other.
  await page.getByRole("button", { name: en.games.join.open }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: en.games.join.submit }).click();
  const division = dialog.getByLabel(en.games.join.division);
  const code = dialog.getByLabel(en.games.join.inviteCode);
  await expectRefusedAt(division, en.games.join.divisionRequired);
  await expect(code).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByText(en.games.join.codeRequired)).toBeVisible();
  await division.selectOption({ label: `Div ${stamp}` });
  await expect(dialog.getByText(en.games.join.divisionRequired)).toHaveCount(0);
  await expect(division).not.toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByText(en.games.join.codeRequired)).toBeVisible();
  await code.fill("x");
  await expect(dialog.getByText(en.games.join.codeRequired)).toHaveCount(0);
  await expect(code).not.toHaveAttribute("aria-invalid", "true");
  await dialog.getByRole("button", { name: en.teams.cancel }).click();

  // The admin ends the game early: the open page learns it (here when the tab is shown again; also every 30 s).
  await ok(admin.request.put(`/api/edit/games/${gameId}`, { data: { end: now - 60_000 } }));
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  await expect(page.locator("[data-phase]")).toHaveAttribute("data-phase", "Ended");
  await context.close();
});

test("suspending a team or rejecting an accepted one is confirmed first, and the focus stays in the team's row", async ({ adminPage: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const { gameId } = await runningGame(admin.request, stamp, [`Delta ${stamp}`]);
  const context = await browser.newContext();
  const playerPage = await context.newPage();
  const { teamName } = await player(playerPage, gameId, stamp);
  await playerPage.goto(`/games/${gameId}/challenges`);
  await expect(playerPage.getByRole("button", { name: new RegExp(`Delta ${stamp}`) })).toBeVisible();

  await admin.goto(`/admin/games/${gameId}/Review`);
  const row = admin.getByRole("row").filter({ hasText: teamName });
  await expect(row).toContainText(en.games.status.Accepted);
  await row.getByRole("button", { name: en.adminGames.review.action.Suspended }).click();
  const dialog = admin.getByRole("dialog", { name: en.adminGames.review.confirm.suspendTitle.replace("{{team}}", teamName) });
  await expect(dialog).toContainText(en.adminGames.review.confirm.suspend);
  await dialog.getByRole("button", { name: en.teams.cancel }).click();
  await expect(row).toContainText(en.games.status.Accepted);

  await row.getByRole("button", { name: en.adminGames.review.action.Suspended }).click();
  await dialog.getByRole("button", { name: en.adminGames.review.action.Suspended }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText(en.games.status.Suspended);
  // The player's open challenge page says so at its next refresh (every 10 s), instead of a board that
  // fails only when a flag is sent.
  await expect(playerPage.getByRole("alert")).toHaveText("You have been banned", { timeout: 15_000 });
  await expect(playerPage.getByRole("button", { name: new RegExp(`Delta ${stamp}`) })).toHaveCount(0);
  // The clicked button left the row; the focus went to the row's first action, not to the page's start.
  await expect.poll(() => admin.evaluate(() => document.activeElement?.closest("[data-review-actions]") !== null)).toBe(true);
  await expect(row.getByRole("button", { name: en.adminGames.review.action.Accepted })).toBeFocused();
  // Accepting again needs no confirmation.
  await row.getByRole("button", { name: en.adminGames.review.action.Accepted }).click();
  await expect(row).toContainText(en.games.status.Accepted);
  await context.close();
});

test("the monitor's pages say their feed is live, and a game hidden under an open scoreboard takes the board away", async ({ adminPage: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const { gameId } = await runningGame(admin.request, stamp, [`Gamma ${stamp}`]);
  const game = await ok<{ start: number }>(admin.request.get(`/api/edit/games/${gameId}`));

  await admin.goto(`/games/${gameId}/monitor/Events`);
  await expect(admin.getByTestId("monitor-socket")).toHaveAttribute("data-state", "open");
  await expect(admin.getByTestId("monitor-socket")).toHaveText(`● ${en.notices.socket.open}`);

  const context = await browser.newContext();
  const page = await context.newPage();
  await player(page, gameId, stamp);
  await page.goto(`/games/${gameId}/scoreboard`);
  await expect(page.getByTestId("board-socket")).toHaveAttribute("data-state", "open");
  const table = page.getByRole("table", { name: en.scoreboard.ranking });
  await expect(table.locator("tbody tr")).toHaveCount(1);
  // The timeline starts at the game's start and has times along its bottom.
  const times = page.getByTestId("timeline-times").locator("time");
  await expect(times).toHaveCount(5);
  await expect(times.first()).toHaveAttribute("datetime", new Date(game.start).toISOString());

  await ok(admin.request.put(`/api/edit/games/${gameId}`, { data: { hidden: true } }));
  await expect(page.getByRole("alert")).toBeVisible({ timeout: 15_000 });
  await expect(table).toHaveCount(0);
  await expect(page.getByTestId("board-socket")).toHaveCount(0);
  // Its pages offer the player no Scoreboard tab any more (rules.md §4: monitors and admins only).
  const tabs = (p: typeof page) => p.getByRole("navigation", { name: en.gameTabs.label });
  for (const path of [`/games/${gameId}`, `/games/${gameId}/challenges`]) {
    await page.goto(path);
    await expect(tabs(page).getByRole("link", { name: en.gameTabs.overview })).toBeVisible();
    await expect(tabs(page).getByRole("link", { name: en.gameTabs.scoreboard })).toHaveCount(0);
  }
  // Its scoreboard page, opened by address, says so without asking for the board or its feed only to be
  // refused (the browser logs each refusal as an error), and offers no Scoreboard tab either.
  // (A page of its own: the pages before it still read and reconnect.)
  const board = await context.newPage();
  const asked: string[] = [];
  const logged: string[] = [];
  board.on("request", (request) => {
    if (/\/api\/game\/\d+\/scoreboard/.test(request.url())) asked.push(request.url());
  });
  board.on("websocket", (socket) => asked.push(socket.url()));
  board.on("console", (message) => {
    if (message.type() === "error") logged.push(message.text());
  });
  await board.goto(`/games/${gameId}/scoreboard`);
  await hydrated(board);
  await expect(board.getByRole("alert")).toHaveText(enErrors.auth.access_denied);
  await expect(tabs(board).getByRole("link", { name: en.gameTabs.overview })).toBeVisible();
  await expect(tabs(board).getByRole("link", { name: en.gameTabs.scoreboard })).toHaveCount(0);
  await expect(board.getByTestId("board-socket")).toHaveCount(0);
  expect(asked).toEqual([]);
  expect(logged).toEqual([]);
  await admin.goto(`/games/${gameId}`);
  await expect(tabs(admin).getByRole("link", { name: en.gameTabs.scoreboard })).toBeVisible();
  await context.close();
});

test("saving the game editor keeps the exact times of fields left as they were", async ({ adminPage: admin }) => {
  const stamp = Date.now().toString(36);
  // Times off the minute, and a writeup deadline 1 h 11 min 6 s after the end (the form shows 1.19 h).
  const start = Date.UTC(2031, 4, 6, 7, 8, 9, 250);
  const end = start + 5 * HOUR + 37_123;
  const writeupDeadline = end + 4_266_000;
  const game = await ok<{ id: number }>(admin.request.post("/api/edit/games", { data: { title: `Times ${stamp}`, start, end, writeupDeadline } }));

  await admin.goto(`/admin/games/${game.id}/Info`);
  await admin.getByLabel(en.adminGames.field.summary, { exact: true }).fill(`Summary ${stamp}`);
  await admin.getByRole("button", { name: en.adminGames.save, exact: true }).click();
  await expect(admin.getByText(en.adminGames.saved)).toBeVisible();
  const saved = await ok<{ summary: string; start: number; end: number; writeupDeadline: number }>(admin.request.get(`/api/edit/games/${game.id}`));
  expect(saved).toMatchObject({ summary: `Summary ${stamp}`, start, end, writeupDeadline });
});

test("two tabs of the game editor: a later save keeps the division the other tab added, also when it adds one", async ({ adminPage: tabA }) => {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const game = await ok<{ id: number }>(tabA.request.post("/api/edit/games", { data: { title: `Tabs ${stamp}`, start: now + HOUR, end: now + 2 * HOUR } }));
  const tabB = await tabA.context().newPage();
  for (const tab of [tabA, tabB]) {
    await tab.goto(`/admin/games/${game.id}/Info`);
    await expect(tab.getByLabel(en.adminGames.field.summary, { exact: true })).toBeVisible();
  }
  // Tab A adds a division and saves.
  await tabA.getByRole("button", { name: en.adminGames.addDivision }).click();
  await tabA.getByLabel(en.adminGames.divisionName.replace("{{n}}", "1")).fill("Students");
  await tabA.getByRole("button", { name: en.adminGames.save, exact: true }).click();
  await expect(tabA.getByText(en.adminGames.saved)).toBeVisible();
  // Tab B, opened before, changes the summary only and saves: the division stays.
  await tabB.getByLabel(en.adminGames.field.summary, { exact: true }).fill(`From B ${stamp}`);
  await tabB.getByRole("button", { name: en.adminGames.save, exact: true }).click();
  await expect(tabB.getByText(en.adminGames.saved)).toBeVisible();
  // Tab A saves again (its summary box still shows the old one): B's summary stays too.
  await tabA.getByLabel(en.adminGames.field.content, { exact: true }).fill(`Content from A ${stamp}`);
  await tabA.getByRole("button", { name: en.adminGames.save, exact: true }).click();
  await expect.poll(async () => (await ok<{ content: string }>(tabA.request.get(`/api/edit/games/${game.id}`))).content).toBe(`Content from A ${stamp}`);
  const saved = await ok<{ summary: string; divisions: { name: string }[] }>(tabA.request.get(`/api/edit/games/${game.id}`));
  expect(saved.summary).toBe(`From B ${stamp}`);
  expect(saved.divisions.map((d) => d.name)).toEqual(["Students"]);
  // A tab opened now (showing Students) adds a division after tab A added another: the divisions go as one
  // list, where a missing one is deleted — C's save must keep A's.
  const tabC = await tabA.context().newPage();
  await tabC.goto(`/admin/games/${game.id}/Info`);
  await expect(tabC.getByLabel(en.adminGames.divisionName.replace("{{n}}", "1"))).toHaveValue("Students");
  await tabA.getByRole("button", { name: en.adminGames.addDivision }).click();
  await tabA.getByLabel(en.adminGames.divisionName.replace("{{n}}", "2")).fill("Veterans");
  await tabA.getByRole("button", { name: en.adminGames.save, exact: true }).click();
  await expect.poll(async () => (await ok<{ divisions: unknown[] }>(tabA.request.get(`/api/edit/games/${game.id}`))).divisions.length).toBe(2);
  await tabC.getByRole("button", { name: en.adminGames.addDivision }).click();
  await tabC.getByLabel(en.adminGames.divisionName.replace("{{n}}", "2")).fill("Mentors");
  await tabC.getByRole("button", { name: en.adminGames.save, exact: true }).click();
  await expect(tabC.getByText(en.adminGames.saved)).toBeVisible();
  const all = await ok<{ divisions: { name: string }[] }>(tabA.request.get(`/api/edit/games/${game.id}`));
  expect(all.divisions.map((d) => d.name).sort()).toEqual(["Mentors", "Students", "Veterans"]);
  // And C now shows all three.
  await expect(tabC.getByLabel(en.adminGames.divisionName.replace("{{n}}", "3"))).toBeVisible();
  // C adds a division and saves; B's save (B still shows Students only) lands between C's re-read and its
  // PUT. C's PUT names the version it merged onto, is refused, and C merges again: both divisions stay.
  const names = async () => (await ok<{ divisions: { name: string }[] }>(tabA.request.get(`/api/edit/games/${game.id}`))).divisions.map((d) => d.name).sort();
  const hold = await holdFirstPut(tabC, `/api/edit/games/${game.id}`);
  await tabC.getByRole("button", { name: en.adminGames.addDivision }).click();
  await tabC.getByLabel(en.adminGames.divisionName.replace("{{n}}", "4")).fill("Held");
  await tabC.getByRole("button", { name: en.adminGames.save, exact: true }).click();
  await hold.held;
  await expect(tabB.getByLabel(en.adminGames.divisionName.replace("{{n}}", "2"))).toHaveCount(0);
  await tabB.getByRole("button", { name: en.adminGames.addDivision }).click();
  await tabB.getByLabel(en.adminGames.divisionName.replace("{{n}}", "2")).fill("Alumni");
  await tabB.getByRole("button", { name: en.adminGames.save, exact: true }).click();
  await expect.poll(names).toEqual(["Alumni", "Mentors", "Students", "Veterans"]);
  hold.release();
  await expect.poll(names).toEqual(["Alumni", "Held", "Mentors", "Students", "Veterans"]);
  await expect(tabC.getByText(en.adminGames.saved)).toBeVisible();
  expect(hold.counter.puts).toBe(2);
  await tabC.close();
  await tabB.close();
});

test("two tabs of the challenge editor: a stale tab's save keeps the hint the other tab added, and both tabs' edits land", async ({ adminPage: tabA }) => {
  const stamp = Date.now().toString(36);
  const { gameId, challengeIds } = await runningGame(tabA.request, stamp, [`Hints ${stamp}`]);
  const hintsUrl = `/api/edit/games/${gameId}/challenges/${challengeIds[0]}`;
  await ok(tabA.request.put(hintsUrl, { data: { hints: ["Look at the headers", "Try the old API"] } }));
  const hint = (tab: Page, n: number) => tab.getByLabel(interpolate(en.adminChallenges.hintN, { n }), { exact: true });
  const save = async (tab: Page) => {
    await tab.getByRole("button", { name: en.adminChallenges.save, exact: true }).click();
    await expect(tab.getByRole("status").filter({ hasText: en.adminChallenges.saved })).toBeVisible();
  };
  const tabB = await tabA.context().newPage();
  for (const tab of [tabA, tabB]) {
    await tab.goto(`/admin/games/${gameId}/challenges/${challengeIds[0]}`);
    await expect(hint(tab, 2)).toHaveValue("Try the old API");
  }
  // Tab A adds a hint and saves.
  await tabA.getByRole("button", { name: en.adminChallenges.addHint }).click();
  await hint(tabA, 3).fill("From A");
  await save(tabA);
  // Tab B, opened before, edits the first hint and saves: A's hint is not dropped, and B's edit applies.
  await hint(tabB, 1).fill("Look at the response headers");
  await save(tabB);
  const stored = async () => (await ok<{ hints: string[] }>(tabA.request.get(hintsUrl))).hints;
  expect(await stored()).toEqual(["Look at the response headers", "Try the old API", "From A"]);
  // B now shows the list as stored, A's hint included.
  await expect(hint(tabB, 3)).toHaveValue("From A");
  // Tab A, now the stale one (it still shows the old first hint), removes the second hint: B's edit stays.
  await expect(hint(tabA, 1)).toHaveValue("Look at the headers");
  // Each remove button names its hint.
  await tabA.getByRole("button", { name: interpolate(en.adminChallenges.removeHintN, { n: 2 }), exact: true }).click();
  await save(tabA);
  expect(await stored()).toEqual(["Look at the response headers", "From A"]);
  await expect(hint(tabA, 1)).toHaveValue("Look at the response headers");
  // A adds a hint and saves; B's save (B still shows the removed hint) lands between A's re-read and its
  // PUT. A's PUT names the version it merged onto, is refused, and A merges again: both hints stay.
  const hold = await holdFirstPut(tabA, hintsUrl);
  await tabA.getByRole("button", { name: en.adminChallenges.addHint }).click();
  await hint(tabA, 3).fill("Held from A");
  await tabA.getByRole("button", { name: en.adminChallenges.save, exact: true }).click();
  await hold.held;
  await expect(hint(tabB, 2)).toHaveValue("Try the old API");
  await tabB.getByRole("button", { name: en.adminChallenges.addHint }).click();
  await hint(tabB, 4).fill("From B");
  await save(tabB);
  await expect.poll(stored).toEqual(["Look at the response headers", "From A", "From B"]);
  hold.release();
  await expect.poll(stored).toEqual(["Look at the response headers", "From A", "From B", "Held from A"]);
  await expect(tabA.getByRole("status").filter({ hasText: en.adminChallenges.saved })).toBeVisible();
  await expect(hint(tabA, 4)).toHaveValue("Held from A");
  expect(hold.counter.puts).toBe(2);
  await tabB.close();
});

test("by keyboard: a challenge opens into focus, a wrong flag stays selected in the focused flag box, an accepted one counts at once, Escape returns to the card", async ({ adminApi: admin, page }) => {
  const stamp = Date.now().toString(36);
  const title = `Keys ${stamp}`;
  const { gameId, challengeIds } = await runningGame(admin, stamp, [title]);
  await player(page, gameId, stamp);
  await page.goto(`/games/${gameId}/challenges`);
  await expect(page.getByTestId("challenges-socket")).toHaveAttribute("data-state", "open");
  const card = page.locator(`[data-challenge-card="${challengeIds[0]}"]`);
  await expect(card).toContainText(en.challenge.solves_other.replace("{{count}}", "0"));
  await card.focus();
  await page.keyboard.press("Enter");
  await expect(card).toHaveAttribute("aria-expanded", "true");
  // The focus went to the panel, so the next Tab reaches its controls, not the rest of the board.
  await expect(page.locator("#challenge-panel")).toBeFocused();
  const flag = page.getByRole("textbox", { name: en.challenge.flag });
  await flag.focus();
  await page.keyboard.type("flag{wrong}");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("verdict")).toHaveAttribute("data-status", "WrongAnswer");
  await expect(flag).toBeFocused();
  // The wrong flag stays, selected: a typo is mended in place, and typing replaces it.
  await expect(flag).toHaveValue("flag{wrong}");
  expect(await flag.evaluate((box: HTMLInputElement) => [box.selectionStart, box.selectionEnd])).toEqual([0, "flag{wrong}".length]);
  await page.keyboard.type(FLAG);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("verdict")).toHaveAttribute("data-status", "Accepted");
  // The card counts the solve without waiting for the board's next refresh.
  await expect(card).toContainText(en.challenge.solves_one.replace("{{count}}", "1"));
  await page.keyboard.press("Escape");
  await expect(page.locator("#challenge-panel")).toHaveCount(0);
  await expect(card).toBeFocused();
  await expect(card).toHaveAttribute("aria-expanded", "false");
});

test("on a phone: a long line in the game's code block scrolls inside it, and a verdict comes into sight", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const title = `Phone ${stamp}`;
  const longLine = `nc challenge.example.com 31337 ${"--with-a-very-long-option=true ".repeat(8)}`;
  const { gameId } = await runningGame(admin, stamp, [title], { content: `Connect with:\n\n\`\`\`\n${longLine}\n\`\`\`\n` });
  const context = await browser.newContext({ viewport: { width: 360, height: 500 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await player(page, gameId, stamp);
  await page.goto(`/games/${gameId}`);
  await expect(page.locator("pre").first()).toContainText("--with-a-very-long-option");
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

  await page.goto(`/games/${gameId}/challenges`);
  await page.getByRole("button", { name: new RegExp(title) }).tap();
  const flag = page.getByRole("textbox", { name: en.challenge.flag });
  await flag.fill("flag{not this one}");
  await flag.press("Enter");
  await expect(page.getByTestId("verdict")).toHaveAttribute("data-status", "WrongAnswer");
  await expect(page.getByTestId("verdict")).toBeInViewport();
  await context.close();
});

test("in Japanese the Join dialog says at the team choice that a suspended team cannot join, and Join waits for another team", async ({ adminPage: admin, browser, baseURL }) => {
  const stamp = Date.now().toString(36);
  const { gameId } = await runningGame(admin.request, stamp, []);
  // A captain's team, with a second player as member, joins (accepted at once); the admin suspends it.
  const captainContext = await browser.newContext();
  const captain = await captainContext.newPage();
  await registerUser(captain);
  const banned = await ok<{ id: number; name: string }>(captain.request.post("/api/team", { data: { name: `B${stamp}`.slice(0, 20) } }));
  const context = await browser.newContext();
  await context.addCookies([{ name: "i18next", value: "ja-JP", url: baseURL! }]);
  const page = await context.newPage();
  await registerUser(page);
  const code = await ok<string>(captain.request.get(`/api/team/${banned.id}/invite`));
  await ok(page.request.post("/api/team/accept", { data: JSON.stringify(code), headers: { "content-type": "application/json" } }));
  const own = await ok<{ id: number; name: string }>(page.request.post("/api/team", { data: { name: `N${stamp}`.slice(0, 20) } }));
  await ok(captain.request.post(`/api/game/${gameId}`, { data: { teamId: banned.id } }));
  const participations = await ok<{ id: number; team: { id: number } }[]>(admin.request.get(`/api/game/${gameId}/participations`));
  await ok(admin.request.put(`/api/admin/participation/${participations.find((p) => p.team.id === banned.id)!.id}/Suspended`, { data: {} }));
  await captainContext.close();

  // The member, not registered themselves, opens the Join dialog.
  await page.goto(`/games/${gameId}`);
  await page.getByRole("button", { name: ja.games.join.open }).click();
  const dialog = page.getByRole("dialog");
  const team = dialog.getByLabel(ja.games.join.team);
  const join = dialog.getByRole("button", { name: ja.games.join.submit, exact: true });
  await team.selectOption({ label: banned.name });
  await expect(dialog.getByText(ja.games.join.refused.banned)).toBeVisible();
  await expect(team).toHaveAttribute("aria-invalid", "true");
  await expect(join).toBeDisabled();
  // Pressing it anyway sends nothing.
  const joins: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === `/api/game/${gameId}`) joins.push(r.url());
  });
  await join.click({ force: true });
  await expect(dialog.getByText(ja.games.join.refused.banned)).toBeVisible();
  expect(joins).toEqual([]);
  // Another team of theirs may join: the warning goes and Join works.
  await team.selectOption({ label: own.name });
  await expect(dialog.getByText(ja.games.join.refused.banned)).toHaveCount(0);
  await expect(team).not.toHaveAttribute("aria-invalid", "true");
  await expect(join).toBeEnabled();
  await join.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("game-message")).toBeVisible();
  expect(joins).toHaveLength(1);
  await context.close();
});

/** Turns off the browser's own scroll anchoring (Safari has none), so only the page keeps the reader's place. */
async function withoutScrollAnchoring(page: Page): Promise<void> {
  await page.addStyleTag({ content: "*, html, body { overflow-anchor: none !important; }" });
}

/** The top of an element in the viewport. */
async function topOf(page: Page, locator: ReturnType<Page["locator"]>): Promise<number> {
  return (await locator.boundingBox())!.y;
}

test("on a phone the chip to new notices waits while a challenge is open, and the flag box, its attachment and a notice's dismiss suit a finger", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  // Enough challenges that, the last one closed, the notices at the board's top are out of a phone's sight
  // (with six, the page's end showed the notice under the header and the chip rightly stayed away).
  const titles = Array.from({ length: 14 }, (_, n) => `Tap ${n} ${stamp}`);
  const { gameId, challengeIds } = await runningGame(admin, stamp, titles);
  const last = challengeIds.at(-1)!;
  await ok(admin.post(`/api/edit/games/${gameId}/challenges/${last}/attachment`, { data: { attachmentType: "Remote", remoteUrl: "https://example.com/tools.zip" } }));
  const context = await browser.newContext({ viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await player(page, gameId, stamp);
  await page.goto(`/games/${gameId}/challenges`);
  await expect(page.getByTestId("challenges-socket")).toHaveAttribute("data-state", "open");
  await page.getByRole("button", { name: new RegExp(titles.at(-1)!) }).tap();
  const panel = page.getByRole("region", { name: titles.at(-1)! });
  const flag = panel.getByRole("textbox", { name: en.challenge.flag });
  await expect(flag).toBeVisible();
  // Flags are case-sensitive: the phone's keyboard neither capitalises nor corrects them.
  await expect(flag).toHaveAttribute("autocapitalize", "off");
  await expect(flag).toHaveAttribute("autocorrect", "off");
  const link = panel.getByRole("link", { name: en.challenge.openLink });
  expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(44);

  // A notice arrives while the challenge is open: no chip floats over its flag box and verdict…
  await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Hint drop at ${stamp}` } }));
  await expect(page.getByTestId("live-notices")).toContainText(`Hint drop at ${stamp}`);
  await page.waitForTimeout(500);
  await expect(page.getByTestId("notices-unseen")).toHaveCount(0);
  // …until it is closed; the notice's dismiss is a finger's size too.
  await panel.getByRole("button", { name: en.challenge.close }).tap();
  await expect(page.getByTestId("notices-unseen")).toBeVisible();
  const dismiss = page.getByTestId("live-notices").getByRole("button", { name: en.notices.dismiss });
  const box = (await dismiss.boundingBox())!;
  expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
  await context.close();
});

test("on a phone a live notice does not push the challenge the player reads, and a chip leads up to it", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  // Enough challenges below the one read that the page is never at its end (where what follows could not move).
  const titles = Array.from({ length: 14 }, (_, n) => `Read ${String(n).padStart(2, "0")} ${stamp}`);
  const { gameId } = await runningGame(admin, stamp, titles);
  const context = await browser.newContext({ viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await player(page, gameId, stamp);
  await page.goto(`/games/${gameId}/challenges`);
  await expect(page.getByTestId("challenges-socket")).toHaveAttribute("data-state", "open");
  await withoutScrollAnchoring(page);

  // The player has scrolled down the board; the notices' place at its top is out of sight. (Measured again
  // until the page holds still: a late change of its layout would otherwise move the card by itself.)
  const card = page.getByRole("button", { name: new RegExp(titles[8]!) });
  await expect
    .poll(async () => {
      await card.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 200));
      await page.waitForTimeout(200);
      return Math.abs((await topOf(page, card)) - 200) <= 1;
    })
    .toBe(true);
  const before = await topOf(page, card);
  expect(await topOf(page, page.getByRole("button", { name: new RegExp(titles[0]!) }))).toBeLessThan(0);
  await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Break at ${stamp}` } }));
  await expect(page.getByTestId("live-notices")).toContainText(`Break at ${stamp}`);
  await expect(page.getByTestId("notices-unseen")).toBeVisible();
  expect(Math.abs((await topOf(page, card)) - before)).toBeLessThanOrEqual(1);
  // A second one, above the first, pushes nothing either.
  await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Lunch at ${stamp}` } }));
  await expect(page.getByTestId("live-notices").getByTestId("notice")).toHaveCount(2);
  expect(Math.abs((await topOf(page, card)) - before)).toBeLessThanOrEqual(1);

  // The chip leads up to the notices and goes.
  await page.getByTestId("notices-unseen").tap();
  await expect(page.getByTestId("live-notices")).toBeInViewport();
  await expect(page.getByTestId("notices-unseen")).toHaveCount(0);

  // With the browser's own anchoring (Chrome) the page is not scrolled twice.
  await page.evaluate(() => document.querySelectorAll("style").forEach((s) => s.textContent?.includes("overflow-anchor") && s.remove()));
  await card.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 200));
  const again = await topOf(page, card);
  await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Dinner at ${stamp}` } }));
  await expect(page.getByTestId("live-notices").getByTestId("notice")).toHaveCount(3);
  expect(Math.abs((await topOf(page, card)) - again)).toBeLessThanOrEqual(1);
  await context.close();
});

test("on a phone the overview's writeup comes before the notices, and a live notice does not push the one the player reads", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const { gameId } = await runningGame(admin, stamp, [], { writeupRequired: true, writeupDeadline: Date.now() + 3 * HOUR });
  for (let n = 0; n < 12; n++) await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Old ${n} ${stamp}` } }));
  const context = await browser.newContext({ viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await player(page, gameId, stamp);
  await page.goto(`/games/${gameId}`);
  const notices = page.getByRole("list", { name: en.notices.title }).getByTestId("notice");
  await expect(notices).toHaveCount(12);
  await expect(page.locator("[data-socket-state]")).toHaveAttribute("data-socket-state", "open");
  await withoutScrollAnchoring(page);

  // The writeup is reached before the list of notices, which grows while the game runs. Its state is read
  // after the page is drawn, and the panel grows then: measured before, the notices moved by that growth.
  const writeup = page.getByTestId("writeup-panel");
  await expect(writeup.getByTestId("writeup-state")).toBeVisible();
  const noticesHeading = page.getByRole("heading", { name: en.notices.title });
  expect(await topOf(page, writeup)).toBeLessThan(await topOf(page, noticesHeading));

  // Reading the middle of the list, a new announcement lands on top of it without moving what is read.
  const read = notices.filter({ hasText: `Old 5 ${stamp}` });
  await read.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 200));
  const before = await topOf(page, read);
  await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: `New ${stamp}` } }));
  await expect(notices).toHaveCount(13);
  await expect(notices.first()).toContainText(`New ${stamp}`);
  expect(Math.abs((await topOf(page, read)) - before)).toBeLessThanOrEqual(1);
  await context.close();
});

test("on a touch screen every control of the player's pages is at least 44 px; under a mouse they stay compact", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const [misc, web] = [`Touch misc ${stamp}`, `Touch web ${stamp}`];
  const { gameId, challengeIds } = await runningGame(admin, stamp, [misc, web]);
  await ok(admin.put(`/api/edit/games/${gameId}/challenges/${challengeIds[1]}`, { data: { category: "Web" } }));
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await player(page, gameId, stamp);
  const submission = await ok<number>(page.request.post(`/api/game/${gameId}/challenges/${challengeIds[0]}`, { data: { flag: FLAG } }));
  await expect.poll(async () => ok<string>(page.request.get(`/api/game/${gameId}/challenges/${challengeIds[0]}/status/${submission}`))).toBe("Accepted");

  await page.goto(`/games/${gameId}`);
  await expect(page.getByRole("group", { name: en.notices.filter })).toBeVisible();
  await page.getByRole("button", { name: en.nav.menu }).tap();
  await expect(page.getByLabel(en.language.label, { exact: true })).toBeVisible();
  expect(await smallTargets(page)).toEqual([]);
  await page.goto(`/games/${gameId}/challenges`);
  await expect(page.getByLabel(en.challenge.filter.hideSolved)).toBeVisible();
  expect(await smallTargets(page)).toEqual([]);
  await page.goto(`/games/${gameId}/scoreboard`);
  await expect(page.getByRole("button", { name: `P${stamp}`.slice(0, 20) })).toBeVisible();
  expect(await smallTargets(page)).toEqual([]);
  // Forms' text fields too (they were 41 px high).
  await page.goto("/account/profile");
  await expect(page.getByLabel(en.profile.realName)).toBeVisible();
  expect(await smallTargets(page)).toEqual([]);
  await page.goto("/teams");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await smallTargets(page)).toEqual([]);
  await context.clearCookies();
  await page.goto("/account/register");
  await expect(page.getByLabel(en.register.email)).toBeVisible();
  expect(await smallTargets(page)).toEqual([]);
  await context.close();

  // A mouse keeps the compact filters.
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const mouse = await desktop.newPage();
  await player(mouse, gameId, `${stamp}m`);
  await mouse.goto(`/games/${gameId}`);
  const filter = mouse.getByRole("group", { name: en.notices.filter }).getByRole("button").first();
  expect((await filter.boundingBox())!.height).toBeLessThan(32);
  await desktop.close();
});

test("a player narrows the board to one category and hides what the team solved", async ({ adminApi: admin, page }) => {
  const stamp = Date.now().toString(36);
  const [misc, web] = [`Misc one ${stamp}`, `Web one ${stamp}`];
  const { gameId, challengeIds } = await runningGame(admin, stamp, [misc, web]);
  await ok(admin.put(`/api/edit/games/${gameId}/challenges/${challengeIds[1]}`, { data: { category: "Web" } }));
  await player(page, gameId, stamp);
  const submission = await ok<number>(page.request.post(`/api/game/${gameId}/challenges/${challengeIds[0]}`, { data: { flag: FLAG } }));
  // Judged before the page loads (the board marks solved challenges from its first read).
  await expect.poll(async () => ok<string>(page.request.get(`/api/game/${gameId}/challenges/${challengeIds[0]}/status/${submission}`))).toBe("Accepted");
  await page.goto(`/games/${gameId}/challenges`);
  const filters = page.getByRole("group", { name: en.challenge.filter.label });
  const card = (title: string) => page.getByRole("button", { name: new RegExp(title) });
  await expect(card(misc)).toContainText(en.challenge.solvedMark);
  await filters.getByRole("button", { name: interpolate(en.challenge.filter.category, { category: "Web", count: 1 }) }).click();
  await expect(card(misc)).toHaveCount(0);
  await expect(card(web)).toBeVisible();
  const all = filters.getByRole("button", { name: interpolate(en.challenge.filter.all, { count: 2 }) });
  await all.click();
  await expect(all).toHaveAttribute("aria-pressed", "true");
  await filters.getByLabel(en.challenge.filter.hideSolved).check();
  await expect(card(misc)).toHaveCount(0);
  await expect(card(web)).toBeVisible();
  await filters.getByRole("button", { name: interpolate(en.challenge.filter.category, { category: "Misc", count: 1 }) }).click();
  await expect(page.getByText(en.challenge.filter.none)).toBeVisible();
});

test("an organiser hides one challenge from one division in the game editor, and that division's players no longer see it", async ({ adminPage: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const context = await browser.newContext();
  const page = await context.newPage();
  const [open, hidden] = [`Open ${stamp}`, `Hidden ${stamp}`];
  const { gameId, challengeIds } = await runningGame(admin.request, stamp, [open, hidden], { divisions: [{ name: `Div ${stamp}` }] });
  const game = await ok<{ divisions: { id: number }[] }>(admin.request.get(`/api/edit/games/${gameId}`));
  await registerUser(page);
  const team = await ok<{ id: number }>(page.request.post("/api/team", { data: { name: `D${stamp}`.slice(0, 20) } }));
  await ok(page.request.post(`/api/game/${gameId}`, { data: { teamId: team.id, divisionId: game.divisions[0]!.id } }));
  await page.goto(`/games/${gameId}/challenges`);
  await expect(page.getByRole("button", { name: new RegExp(hidden) })).toBeVisible();

  await admin.goto(`/admin/games/${gameId}/info`);
  const panel = admin.getByTestId("division-challenge-permissions");
  await panel.locator("summary").click();
  const challenge = panel.getByRole("group", { name: hidden });
  await challenge.getByLabel(en.adminGames.followDivision).uncheck();
  await challenge.getByLabel(en.adminGames.permission.ViewChallenge).uncheck();
  await expect(panel.locator("summary")).toHaveText(en.adminGames.challengePermissions_one.replace("{{n}}", "1").replace("{{count}}", "1"));
  await admin.getByRole("button", { name: en.adminGames.save, exact: true }).click();
  await expect(admin.getByText(en.adminGames.saved, { exact: true })).toBeVisible();

  const stored = await ok<{ divisions: { challengeConfigs: { challengeId: number; permissions: number }[] }[] }>(admin.request.get(`/api/edit/games/${gameId}`));
  expect(stored.divisions[0]!.challengeConfigs.map((c) => c.challengeId)).toEqual([challengeIds[1]]);
  // The players of the division: the challenge is gone from their board (404 when asked for directly).
  await page.reload();
  await expect(page.getByRole("button", { name: new RegExp(open) })).toBeVisible();
  await expect(page.getByRole("button", { name: new RegExp(hidden) })).toHaveCount(0);
  expect((await page.request.get(`/api/game/${gameId}/challenges/${challengeIds[1]}`)).status()).toBe(404);
  await context.close();
});

test("signing out in one tab: the other tab's game overview stays live as a visitor's, its challenges page goes to sign-in", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const { gameId } = await runningGame(admin, stamp, [`Out ${stamp}`]);
  const context = await browser.newContext();
  const overview = await context.newPage();
  await player(overview, gameId, stamp);
  const board = await context.newPage();
  const greeted = [hubGreeted(overview, `/hub/game/${gameId}`), hubGreeted(board, `/hub/game/${gameId}`)];
  await overview.goto(`/games/${gameId}`);
  await board.goto(`/games/${gameId}/challenges`);
  await expect(board.getByRole("button", { name: new RegExp(`Out ${stamp}`) })).toBeVisible();
  await Promise.all(greeted);

  // A third tab of the same browser signs out: the server ends the sockets that session opened.
  const regreeted = hubGreeted(overview, `/hub/game/${gameId}`);
  const other = await context.newPage();
  expect((await other.request.post("/api/account/logout")).ok()).toBe(true);
  await other.close();

  // The challenges page is for players only: it shows what a reload would, the sign-in page.
  await expect(board).toHaveURL(/\/account\/login/i, { timeout: 15_000 });
  // The overview of a public game may be followed by anyone: its feed goes on as a visitor's.
  await regreeted;
  await ok(admin.post(`/api/edit/games/${gameId}/notices`, { data: { content: `After ${stamp}` } }));
  await expect(overview.getByRole("list", { name: en.notices.title }).getByTestId("notice").filter({ hasText: `After ${stamp}` })).toHaveCount(1);
  await expect(overview.getByText(en.notices.socket.ended)).toHaveCount(0);
  await context.close();
});

test("the monitor names a deleted user and a deleted team instead of leaving them blank", async ({ adminPage: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const { gameId, challengeIds } = await runningGame(admin.request, stamp, [`Omega ${stamp}`]);
  const context = await browser.newContext();
  const captain = await context.newPage();
  await registerUser(captain);
  const { id: teamId, name: teamName } = await ok<{ id: number; name: string }>(captain.request.post("/api/team", { data: { name: `P${stamp}`.slice(0, 20) } }));
  const mateContext = await browser.newContext();
  const mate = await mateContext.newPage();
  await registerUser(mate);
  // The member joins before the team does: a team in a running game is locked.
  const code = await ok<string>(captain.request.get(`/api/team/${teamId}/invite`));
  await ok(mate.request.post("/api/team/accept", { data: JSON.stringify(code), headers: { "content-type": "application/json" } }));
  await ok(captain.request.post(`/api/game/${gameId}`, { data: { teamId } }));
  await ok(mate.request.post(`/api/game/${gameId}`, { data: { teamId } }));
  await ok(mate.request.post(`/api/game/${gameId}/challenges/${challengeIds[0]}`, { data: { flag: FLAG } }));
  await ok(captain.request.post(`/api/game/${gameId}/challenges/${challengeIds[0]}`, { data: { flag: "flag{nope}" } }));
  const { userId } = await ok<{ userId: string }>(mate.request.get("/api/account/profile"));
  await mateContext.close();

  await ok(admin.request.delete(`/api/admin/users/${userId}`));
  const M = en.monitor;
  await admin.goto(`/games/${gameId}/monitor/Submissions`);
  const accepted = admin.getByRole("row").filter({ hasText: FLAG });
  await expect(accepted.getByRole("cell", { name: M.deletedUser, exact: true })).toBeVisible();
  await expect(admin.getByRole("row").filter({ hasText: "flag{nope}" })).not.toContainText(M.deletedUser);
  await admin.goto(`/games/${gameId}/monitor/Events`);
  await expect(admin.getByText(`${teamName} / ${M.deletedUser} submitted ${FLAG}`)).toBeVisible();

  // The team goes too: its events stay, under the words for a deleted team.
  await ok(admin.request.delete(`/api/admin/teams/${teamId}`));
  await admin.reload();
  await expect(admin.getByText(`${M.deletedTeam} / ${M.deletedUser} submitted ${FLAG}`)).toBeVisible();
  await expect(admin.getByText(new RegExp(`^ / `))).toHaveCount(0);
  await context.close();
});
