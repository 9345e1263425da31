import { readFileSync } from "node:fs";
import type { APIRequestContext, APIResponse, Page } from "@playwright/test";
import { expect, hydrated, registerUser, test } from "./fixtures";

// After a game's end: the scoreboard says its results are final (not "Live"), and the overview and the
// challenges page show the player's team's final rank, score and solves; the board's team dialog names
// the team's division.

type Strings = typeof import("../../app/locales/en-US/common.json");
const strings = (language: string): Strings => JSON.parse(readFileSync(new URL(`../../app/locales/${language}/common.json`, import.meta.url), "utf8")) as Strings;
const en = strings("en-US");
const ja = strings("ja-JP");
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k]));

const HOUR = 3_600_000;
const FLAG = "flag{final_results}";

async function ok<T>(response: Promise<APIResponse>): Promise<T> {
  const r = await response;
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()) as T;
}

/** A running game (accepting teams at once) with one enabled static challenge whose flag is FLAG. */
async function runningGame(admin: APIRequestContext, stamp: string, fields: Record<string, unknown> = {}) {
  const now = Date.now();
  const game = await ok<{ id: number; divisions: { id: number; name: string }[] }>(
    admin.post("/api/edit/games", { data: { title: `Final ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true, ...fields } }),
  );
  const c = await ok<{ id: number }>(admin.post(`/api/edit/games/${game.id}/challenges`, { data: { title: `Only ${stamp}`, category: "Misc", type: "StaticAttachment" } }));
  await ok(admin.post(`/api/edit/games/${game.id}/challenges/${c.id}/flags`, { data: [{ flag: FLAG }] }));
  await ok(admin.put(`/api/edit/games/${game.id}/challenges/${c.id}`, { data: { isEnabled: true } }));
  return { gameId: game.id, challengeId: c.id, divisions: game.divisions };
}

/** A new player whose new team joins the game (in `divisionId` when given). */
async function player(page: Page, gameId: number, name: string, divisionId?: number) {
  await registerUser(page);
  const team = await ok<{ id: number; name: string }>(page.request.post("/api/team", { data: { name } }));
  await ok(page.request.post(`/api/game/${gameId}`, { data: { teamId: team.id, ...(divisionId === undefined ? {} : { divisionId }) } }));
  return team;
}

test("an ended game's scoreboard says Final results instead of Live, names its ranking table, and the team dialog names the division", async ({ adminApi: admin, page, baseURL }) => {
  const stamp = Date.now().toString(36);
  const { gameId, challengeId, divisions } = await runningGame(admin, stamp, { divisions: [{ name: `North ${stamp}` }] });
  const team = await player(page, gameId, `F${stamp}`.slice(0, 20), divisions[0]!.id);
  await ok(page.request.post(`/api/game/${gameId}/challenges/${challengeId}`, { data: { flag: FLAG } }));
  // Practice mode on: play goes on after the end, but the ranking no longer moves.
  await ok(admin.put(`/api/edit/games/${gameId}`, { data: { end: Date.now() - 1000, practiceMode: true } }));

  await page.goto(`/games/${gameId}/scoreboard`);
  const final = page.getByTestId("board-final");
  await expect(final).toHaveText(en.scoreboard.final);
  await expect(final).toHaveRole("status");
  await expect(page.getByTestId("board-socket")).toHaveCount(0);
  await expect(page.getByText(en.notices.socket.open)).toHaveCount(0);
  // The table is named by its heading, which says what it is.
  await expect(page.getByRole("heading", { name: en.scoreboard.ranking, level: 2 })).toBeVisible();
  const table = page.getByRole("table", { name: en.scoreboard.ranking });
  await expect(table.getByTestId(`board-team-${team.id}`)).toBeVisible();
  // The way back to the overview says where it goes.
  await expect(page.getByRole("link", { name: en.challenge.backToGame, exact: true })).toHaveAttribute("href", `/games/${gameId}`);

  // The team's dialog: its division (the board carries no members).
  await table.getByRole("button", { name: team.name }).click();
  const dialog = page.getByRole("dialog", { name: fill(en.scoreboard.teamDetailOf, { name: team.name }) });
  await expect(dialog.getByTestId("board-detail-division")).toHaveText(fill(en.scoreboard.detailDivision, { division: `North ${stamp}` }));

  // In Japanese too.
  await page.context().addCookies([{ name: "i18next", value: "ja-JP", url: baseURL! }]);
  await page.reload();
  await expect(page.getByTestId("board-final")).toHaveText(ja.scoreboard.final);
  await expect(page.getByRole("table", { name: ja.scoreboard.ranking })).toBeVisible();
});

test("a game without divisions leaves the division out of the team dialog", async ({ adminApi: admin, page }) => {
  const stamp = Date.now().toString(36);
  const { gameId } = await runningGame(admin, stamp);
  const team = await player(page, gameId, `N${stamp}`.slice(0, 20));
  await page.goto(`/games/${gameId}/scoreboard`);
  await expect(page.getByTestId("board-socket")).toHaveAttribute("data-state", "open");
  await expect(page.getByTestId("board-final")).toHaveCount(0);
  await page.getByRole("table", { name: en.scoreboard.ranking }).getByRole("button", { name: team.name }).click();
  const dialog = page.getByRole("dialog", { name: fill(en.scoreboard.teamDetailOf, { name: team.name }) });
  await expect(dialog.getByTestId("board-detail-ranks")).toBeVisible();
  await expect(dialog.getByTestId("board-detail-division")).toHaveCount(0);
});

test("an open scoreboard turns from Live to Final results when the end passes", async ({ adminApi: admin, page }) => {
  const stamp = Date.now().toString(36);
  const { gameId } = await runningGame(admin, stamp);
  await player(page, gameId, `L${stamp}`.slice(0, 20));
  const end = Date.now() + 8_000;
  await ok(admin.put(`/api/edit/games/${gameId}`, { data: { end } }));
  await page.goto(`/games/${gameId}/scoreboard`);
  const live = page.getByTestId("board-socket");
  await expect(live).toHaveAttribute("data-state", "open");
  await expect(live).toHaveText(`● ${en.notices.socket.open}`);
  await expect(page.getByTestId("board-final")).toHaveCount(0);
  // Without a reload.
  await expect(page.getByTestId("board-final")).toHaveText(en.scoreboard.final, { timeout: end - Date.now() + 10_000 });
  await expect(live).toHaveCount(0);
});

test("after the end without practice mode, the overview and the challenges page show the team's final result", async ({ adminApi: admin, page, browser, baseURL }) => {
  const stamp = Date.now().toString(36);
  const { gameId, challengeId } = await runningGame(admin, stamp, { practiceMode: false });
  // A second team that solves nothing ranks below.
  const other = await browser.newContext();
  await player(await other.newPage(), gameId, `B${stamp}`.slice(0, 20));
  await other.close();
  await player(page, gameId, `A${stamp}`.slice(0, 20));
  await ok(page.request.post(`/api/game/${gameId}/challenges/${challengeId}`, { data: { flag: FLAG } }));
  // The solve reaches the board within a moment.
  let score = 0;
  await expect
    .poll(async () => {
      const board = await ok<{ items: { name: string; score: number; rank: number }[] }>(page.request.get(`/api/game/${gameId}/scoreboard`));
      const mine = board.items.find((i) => i.name === `A${stamp}`.slice(0, 20));
      score = mine?.score ?? 0;
      return [mine?.rank, score > 0];
    })
    .toEqual([1, true]);

  // The overview before the end: no result yet.
  await page.goto(`/games/${gameId}`);
  await expect(page.getByRole("heading", { name: `Final ${stamp}`, level: 1 })).toBeVisible();
  await expect(page.getByTestId("final-result")).toHaveCount(0);

  // The end a moment before now, after the solve (a solve after the end would score nothing).
  await page.waitForTimeout(1500);
  await ok(admin.put(`/api/edit/games/${gameId}`, { data: { end: Date.now() - 500 } }));
  const expectResult = async (p: Page, s: Strings) => {
    const result = p.getByRole("region", { name: fill(s.games.finalResult.title, { team: `A${stamp}`.slice(0, 20) }) });
    await expect(result).toBeVisible();
    await expect(result.getByTestId("final-rank")).toHaveText(fill(s.games.finalResult.place, { rank: 1 }));
    await expect(result.getByTestId("final-score")).toHaveText(String(score));
    await expect(result.getByTestId("final-solved")).toHaveText("1");
    await expect(result.getByRole("link", { name: s.games.finalResult.scoreboard })).toHaveAttribute("href", `/games/${gameId}/scoreboard`);
  };
  await page.reload();
  await expectResult(page, en);

  // The challenges page: that play is over (no error), and the result.
  await page.goto(`/games/${gameId}/challenges`);
  await expect(page.getByRole("status").filter({ hasText: en.challenge.ended })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expectResult(page, en);

  // In Japanese, and the link leads to the final board. Once the page is live: on its first render the header's
  // language switch writes the page's language back to the cookie, and on a slow machine it did so after this
  // cookie was set, so the next page came in English.
  await hydrated(page);
  await page.context().addCookies([{ name: "i18next", value: "ja-JP", url: baseURL! }]);
  await page.goto(`/games/${gameId}`);
  await expectResult(page, ja);
  await page.getByRole("link", { name: ja.games.finalResult.scoreboard }).click();
  await expect(page.getByTestId("board-final")).toHaveText(ja.scoreboard.final);
});
