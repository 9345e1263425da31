import { readFileSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, registerUser, test } from "./fixtures";

type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;

const HOUR = 3_600_000;
const FLAG = "flag{first_blood_e2e}";

async function ok<T>(response: Promise<import("@playwright/test").APIResponse>): Promise<T> {
  const r = await response;
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()) as T;
}

/** A running game (joins need review) with one enabled static challenge whose flag is FLAG. */
async function createGame(admin: APIRequestContext, stamp: string) {
  const now = Date.now();
  const game = await ok<{ id: number }>(admin.post("/api/edit/games", { data: { title: `Room ${stamp}`, start: now - HOUR, end: now + HOUR } }));
  const challenge = await ok<{ id: number }>(admin.post(`/api/edit/games/${game.id}/challenges`, { data: { title: "Blood bath", category: "Web", type: "StaticAttachment" } }));
  await ok(admin.post(`/api/edit/games/${game.id}/challenges/${challenge.id}/flags`, { data: [{ flag: FLAG }] }));
  await ok(admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { data: { isEnabled: true } }));
  return { gameId: game.id, challengeId: challenge.id };
}

/** A player in its own browser context: registered, captain of a new team that asked to join the game. */
async function playerWithTeam(page: Page, gameId: number, teamName: string): Promise<number> {
  await registerUser(page);
  const team = await ok<{ id: number }>(page.request.post("/api/team", { data: { name: teamName } }));
  await ok(page.request.post(`/api/game/${gameId}`, { data: { teamId: team.id } }));
  return team.id;
}

test("a first blood reaches the other team's open scoreboard, its notices and the monitor live", async ({ adminPage: admin, browser }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const { gameId } = await createGame(admin.request, stamp);

  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  const playerA = await contextA.newPage();
  const playerB = await contextB.newPage();
  // B joins first, so before any solve B's team heads the board (join order breaks the 0-point tie).
  const teamB = await playerWithTeam(playerB, gameId, `B${stamp}`.slice(0, 20));
  const teamA = await playerWithTeam(playerA, gameId, `A${stamp}`.slice(0, 20));

  // The admin accepts both teams.
  const participations = await ok<{ id: number; team: { id: number }; status: string }[]>(admin.request.get(`/api/game/${gameId}/participations`));
  expect(participations.map((p) => p.team.id).sort()).toEqual([teamA, teamB].sort());
  for (const p of participations) await ok(admin.request.put(`/api/admin/participation/${p.id}/Accepted`));

  // B watches the scoreboard, and the game page (its notices) in a second tab; both sockets open.
  await playerB.goto(`/games/${gameId}/scoreboard`);
  await expect(playerB.getByTestId("board-socket")).toHaveAttribute("data-state", "open");
  const rows = playerB.getByRole("table", { name: en.scoreboard.title }).locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toHaveAttribute("data-testid", `board-team-${teamB}`);
  // The game pages share one tab bar; a player sees no monitor tabs.
  const tabsB = playerB.getByRole("navigation", { name: en.gameTabs.label });
  await expect(tabsB.getByRole("link", { name: en.gameTabs.scoreboard })).toHaveAttribute("aria-current", "page");
  await expect(tabsB.getByRole("link", { name: en.monitor.submissions })).toHaveCount(0);
  const gamePageB = await contextB.newPage();
  await gamePageB.goto(`/games/${gameId}`);
  const notices = gamePageB.getByRole("region", { name: en.notices.title });
  await expect(notices.locator("[data-socket-state]")).toHaveAttribute("data-socket-state", "open");

  // The admin watches the submissions monitor.
  await admin.goto(`/games/${gameId}/monitor/submissions`);
  const monitorTable = admin.getByTestId("monitor-submissions");
  await expect(admin.getByRole("navigation", { name: en.gameTabs.label }).getByRole("link", { name: en.gameTabs.traffic })).toHaveAttribute("href", `/games/${gameId}/monitor/traffic`);

  // A opens the challenge: a wrong flag first, then the right one.
  await playerA.goto(`/games/${gameId}/challenges`);
  await playerA.getByRole("button", { name: /Blood bath/ }).click();
  const flagBox = playerA.getByRole("textbox", { name: en.challenge.flag });
  await flagBox.fill("flag{not_it}");
  await playerA.getByRole("button", { name: en.challenge.submit }).click();
  const verdict = playerA.getByTestId("verdict");
  await expect(verdict).toHaveAttribute("data-status", "WrongAnswer");
  await expect(verdict.getByText(en.verdict.wrongTitle, { exact: true })).toBeVisible();
  // One of our own wrong-flag messages.
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await expect(verdict).toContainText(new RegExp(Object.values(en.verdict.wrong).map(escape).join("|")));

  // The monitor shows the wrong submission without a reload.
  await expect(monitorTable.getByRole("row").filter({ hasText: "flag{not_it}" })).toContainText(en.monitor.status.WrongAnswer);

  await flagBox.fill(FLAG);
  await playerA.getByRole("button", { name: en.challenge.submit }).click();
  await expect(playerA.getByTestId("verdict").filter({ hasText: en.verdict.correct })).toHaveAttribute("data-status", "Accepted");
  // The board marks the challenge solved at once, from the pushed verdict (its list refreshes every 10 s).
  await expect(playerA.getByRole("button", { name: /Blood bath/ })).toContainText(en.challenge.solvedMark, { timeout: 3_000 });

  // B's open scoreboard: A's team first, with the first-blood mark; no reload happened.
  await expect(rows.first()).toHaveAttribute("data-testid", `board-team-${teamA}`, { timeout: 10_000 });
  await expect(rows.first()).toContainText("🥇");
  await expect(rows.first().getByRole("cell").first()).toHaveText("1");
  await expect(rows.nth(1)).toHaveAttribute("data-testid", `board-team-${teamB}`);
  const firstBlood = en.notices.template.FirstBlood.replace("{{team}}", `A${stamp}`.slice(0, 20)).replace("{{challenge}}", "Blood bath");
  await expect(playerB.getByTestId("live-notices")).toContainText(firstBlood);
  // B's game page lists the FirstBlood notice.
  await expect(notices.getByText(firstBlood)).toBeVisible();
  // An admin's notice appears on B's open game page, and goes when the admin deletes it.
  const posted = await ok<{ id: number }>(admin.request.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Hint ${stamp}` } }));
  await expect(notices.getByText(`Hint ${stamp}`)).toBeVisible();
  await ok(admin.request.delete(`/api/edit/games/${gameId}/notices/${posted.id}`));
  await expect(notices.getByText(`Hint ${stamp}`)).toHaveCount(0);
  await expect(notices.getByText(firstBlood)).toBeVisible();

  // The monitor shows the accepted submission too, newest first.
  const monitorRows = monitorTable.locator("tbody tr");
  await expect(monitorRows.first()).toContainText(FLAG);
  await expect(monitorRows.first()).toContainText(en.monitor.status.Accepted);
  await expect(monitorRows).toHaveCount(2);

  // The Excel exports download from the monitor page with their file names.
  const download = admin.waitForEvent("download");
  await admin.getByRole("button", { name: en.monitor.downloadSubmissions }).click();
  expect((await download).suggestedFilename()).toMatch(new RegExp(`^Room ${stamp}_Submissions_\\d{14}\\.xlsx$`));
  const boardDownload = admin.waitForEvent("download");
  await admin.getByRole("button", { name: en.monitor.downloadScoreboard }).click();
  expect((await boardDownload).suggestedFilename()).toMatch(new RegExp(`^Room ${stamp}-Scoreboard-\\d{8}-\\d{2}\\.\\d{2}\\.\\d{2}Z\\.xlsx$`));

  await contextA.close();
  await contextB.close();
});
