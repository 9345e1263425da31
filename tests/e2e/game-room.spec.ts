import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { APIRequestContext, Page, WebSocketRoute } from "@playwright/test";
import { expect, interpolate as fill, holdReads, hubGreeted, registerUser, test } from "./fixtures";
import { rawGet } from "./raw-http";

type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;

const HOUR = 3_600_000;
const FLAG = "flag{first_blood_e2e}";

async function ok<T>(response: Promise<import("@playwright/test").APIResponse>): Promise<T> {
  const r = await response;
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()) as T;
}

/** An enabled static challenge of the game whose flag is FLAG, with `fields` (value, deadline, limit…) set; its id. */
async function enabledChallenge(admin: APIRequestContext, gameId: number, title: string, fields: Record<string, unknown> = {}, category = "Misc"): Promise<number> {
  const c = await ok<{ id: number }>(admin.post(`/api/edit/games/${gameId}/challenges`, { data: { title, category, type: "StaticAttachment" } }));
  await ok(admin.post(`/api/edit/games/${gameId}/challenges/${c.id}/flags`, { data: [{ flag: FLAG }] }));
  await ok(admin.put(`/api/edit/games/${gameId}/challenges/${c.id}`, { data: { isEnabled: true, ...fields } }));
  return c.id;
}

/** A running game (joins need review) with one enabled static challenge whose flag is FLAG. */
async function createGame(admin: APIRequestContext, stamp: string) {
  const now = Date.now();
  const game = await ok<{ id: number }>(admin.post("/api/edit/games", { data: { title: `Room ${stamp}`, start: now - HOUR, end: now + HOUR } }));
  return { gameId: game.id, challengeId: await enabledChallenge(admin, game.id, "Blood bath", {}, "Web") };
}

/** A player in its own browser context: registered, captain of a new team that asked to join the game. */
async function playerWithTeam(page: Pick<Page, "request">, gameId: number, teamName: string): Promise<number> {
  await registerUser(page.request);
  const team = await ok<{ id: number }>(page.request.post("/api/team", { data: { name: teamName } }));
  await ok(page.request.post(`/api/game/${gameId}`, { data: { teamId: team.id } }));
  return team.id;
}

test("a submission pushed while the monitor's first read is on its way stays listed when that read lands", async ({ adminPage: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const { gameId, challengeId } = await createGame(admin.request, stamp);
  const player = await browser.newContext();
  await playerWithTeam(player, gameId, `H${stamp}`.slice(0, 20));
  for (const p of await ok<{ id: number }[]>(admin.request.get(`/api/game/${gameId}/participations`))) await ok(admin.request.put(`/api/admin/participation/${p.id}/Accepted`));

  // The monitor's first read is answered now (before the submission below exists) but reaches the page
  // only after the submission's push.
  const marker = `flag{held_${stamp}}`;
  const held = { id: 1_000_000_000, answer: marker, status: "WrongAnswer", time: Date.now() - HOUR, user: "held", team: "held", challenge: "held", challengeId, teamId: null };
  const firstRead = await holdReads(admin, new RegExp(`/api/game/${gameId}/submissions\\?count=100&skip=0$`), (rows) => [...rows, held]);
  await admin.goto(`/games/${gameId}/monitor/submissions`);
  await expect(admin.getByTestId("monitor-socket")).toHaveAttribute("data-state", "open");
  await firstRead.answered;

  await ok(player.request.post(`/api/game/${gameId}/challenges/${challengeId}`, { data: { flag: "flag{pushed_meanwhile}" } }));
  const table = admin.getByTestId("monitor-submissions");
  const pushed = table.getByRole("row").filter({ hasText: "flag{pushed_meanwhile}" });
  await expect(pushed).toContainText(en.monitor.status.WrongAnswer);

  firstRead.release();
  await expect(table.getByRole("row").filter({ hasText: marker })).toHaveCount(1);
  await expect(pushed).toHaveCount(1);
  await expect(pushed).toContainText(en.monitor.status.WrongAnswer);
  await firstRead.stop();
  await player.close();
});

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
  const rows = playerB.getByRole("table", { name: en.scoreboard.ranking }).locator("tbody tr");
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
  // The mark has a translated name, for screen readers and on hover.
  const bloodMark = rows.first().getByRole("img", { name: en.scoreboard.firstBlood });
  await expect(bloodMark).toHaveAttribute("data-mark", "FirstBlood");
  await expect(bloodMark).toHaveAttribute("title", en.scoreboard.firstBlood);
  // A gold disc with its place, drawn without an emoji font (this browser has none).
  const medal = bloodMark.locator("[data-medal]");
  await expect(medal).toHaveText("1");
  const drawn = await medal.evaluate((el) => ({ background: getComputedStyle(el).backgroundColor, width: el.getBoundingClientRect().width }));
  expect(drawn.background).not.toBe("rgba(0, 0, 0, 0)");
  expect(drawn.width).toBeGreaterThan(8);
  await expect(playerB.getByRole("link", { name: en.challenge.backToGame })).toHaveAttribute("href", `/games/${gameId}`);
  await expect(rows.first().getByRole("cell").first()).toHaveText("1");
  await expect(rows.nth(1)).toHaveAttribute("data-testid", `board-team-${teamB}`);
  // Finding a team keeps its rank; case and width do not matter; rank and team stay put when scrolling sideways.
  const find = playerB.getByRole("searchbox", { name: en.scoreboard.findTeam });
  await find.fill(`b${stamp}`.toUpperCase().replace("B", "Ｂ"));
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-testid", `board-team-${teamB}`);
  await expect(rows.first().getByRole("cell").first()).toHaveText("2");
  await find.fill("no such team");
  await expect(playerB.getByRole("status").filter({ hasText: fill(en.scoreboard.noMatch, { query: "no such team" }) })).toBeVisible();
  await find.fill("");
  await expect(rows).toHaveCount(2);
  expect(await rows.first().getByRole("cell").nth(1).evaluate((cell) => getComputedStyle(cell).position)).toBe("sticky");
  // The timeline fills its card at any width, its scale label at the page's text size.
  for (const width of [1440, 480]) {
    await playerB.setViewportSize({ width, height: 900 });
    const chart = playerB.getByTestId("timeline-chart");
    // The time axis (the drawing's first line) spans the card but for the margins (8 % of the drawing).
    const fit = await chart.evaluate((svg) => svg.querySelector("line")!.getBoundingClientRect().width / svg.closest("figure")!.getBoundingClientRect().width);
    expect(fit, `timeline at ${width}px`).toBeGreaterThan(0.85);
    const labelSize = await playerB.getByTestId("timeline-max").evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(labelSize, `scale label at ${width}px`).toBeGreaterThanOrEqual(12);
  }
  await playerB.setViewportSize({ width: 1280, height: 720 });
  const firstBlood = en.notices.template.FirstBlood.replace("{{team}}", `A${stamp}`.slice(0, 20)).replace("{{challenge}}", "Blood bath");
  await expect(playerB.getByTestId("live-notices")).toContainText(firstBlood);
  // B's game page lists the FirstBlood notice.
  await expect(notices.getByText(firstBlood)).toBeVisible();
  // With its medal, drawn as the board's is.
  await expect(notices.getByTestId("notice").filter({ hasText: firstBlood }).locator("[data-medal]")).toHaveText("1");
  // An admin's notice appears on B's open game page, and goes when the admin deletes it.
  const posted = await ok<{ id: number }>(admin.request.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Hint ${stamp}` } }));
  await expect(notices.getByText(`Hint ${stamp}`)).toBeVisible();
  await expect(notices.getByTestId("notice").filter({ hasText: `Hint ${stamp}` }).locator('svg[data-notice-icon="Normal"]')).toBeVisible();
  // Said to screen readers as on the challenge and scoreboard pages: in a polite live region already there.
  await expect(gamePageB.locator("[aria-live=polite]").getByTestId("live-notices")).toContainText(`Hint ${stamp}`);
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

/**
 * A running game with two accepted teams and a DynamicAttachment challenge: each team's flag is the name of
 * its remote attachment, so A's flag can be read from A's challenge view and "stolen" by B.
 */
async function cheatingGame(admin: Page, browser: import("@playwright/test").Browser, stamp: string) {
  const now = Date.now();
  const game = await ok<{ id: number }>(admin.request.post("/api/edit/games", { data: { title: `Cheat ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true } }));
  const gameId = game.id;
  const challenge = await ok<{ id: number }>(admin.request.post(`/api/edit/games/${gameId}/challenges`, { data: { title: "Own flags", category: "Misc", type: "DynamicAttachment" } }));
  const challengeId = challenge.id;
  const flags = ["a", "b", "c"].map((x) => `flag{own_${x}_${stamp}}`);
  await ok(admin.request.post(`/api/edit/games/${gameId}/challenges/${challengeId}/flags`, { data: flags.map((flag) => ({ flag, attachmentType: "Remote", remoteUrl: `https://example.com/${flag}` })) }));
  await ok(admin.request.put(`/api/edit/games/${gameId}/challenges/${challengeId}`, { data: { isEnabled: true } }));
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  const playerA = await contextA.newPage();
  const playerB = await contextB.newPage();
  await playerWithTeam(playerA, gameId, `CA${stamp}`.slice(0, 15));
  const { userName: userB } = await registerUser(playerB.request);
  const teamB = await ok<{ id: number }>(playerB.request.post("/api/team", { data: { name: `CB${stamp}`.slice(0, 15) } }));
  await ok(playerB.request.post(`/api/game/${gameId}`, { data: { teamId: teamB.id } }));
  // Opening the challenge hands each team its flag; B opens it too, so B's answers are judged.
  const detailA = await ok<{ context: { url: string } }>(playerA.request.get(`/api/game/${gameId}/challenges/${challengeId}`));
  await ok(playerB.request.get(`/api/game/${gameId}/challenges/${challengeId}`));
  const flagA = decodeURIComponent(detailA.context.url.split("/").pop() ?? "");
  expect(flags).toContain(flagA);
  const submitB = (flag: string) => ok<number>(playerB.request.post(`/api/game/${gameId}/challenges/${challengeId}`, { data: { flag } }));
  return { gameId, flagA, submitB, userB, teamA: `CA${stamp}`.slice(0, 15), teamB: `CB${stamp}`.slice(0, 15), close: async () => (await contextA.close(), await contextB.close()) };
}

test("the cheat info monitor lists a stolen flag without a reload", async ({ adminPage: admin, browser }) => {
  test.setTimeout(60_000);
  const stamp = Date.now().toString(36);
  const game = await cheatingGame(admin, browser, stamp);

  // The monitor socket is what updates the list: wait for its greeting before cheating.
  const greeted = hubGreeted(admin, `/hub/game/${game.gameId}/monitor`);
  await admin.goto(`/games/${game.gameId}/monitor/cheatinfo`);
  await expect(admin.getByText(en.monitor.empty)).toBeVisible();
  await greeted;
  await game.submitB(game.flagA);

  // Well before the list's 10-second refresh: the CheatDetected push brings it.
  const row = admin.getByTestId("monitor-cheatinfo").locator("tbody tr");
  await expect(row).toHaveCount(1, { timeout: 4_000 });
  await expect(row).toContainText(game.flagA);
  await expect(row.getByRole("cell").nth(1)).toHaveText(game.teamB);
  await expect(row.getByRole("cell").nth(3)).toHaveText(game.teamA);
  await game.close();
});

test("the submissions monitor narrows to a team and a challenge, keeps the filter in its address and adds only matching live submissions; the events monitor narrows to a team", async ({ adminPage: admin, browser }) => {
  test.setTimeout(60_000);
  const stamp = Date.now().toString(36);
  const { gameId, challengeId } = await createGame(admin.request, stamp);
  const other = await ok<{ id: number }>(admin.request.post(`/api/edit/games/${gameId}/challenges`, { data: { title: "Second course", category: "Misc", type: "StaticAttachment" } }));
  await ok(admin.request.post(`/api/edit/games/${gameId}/challenges/${other.id}/flags`, { data: [{ flag: FLAG }] }));
  await ok(admin.request.put(`/api/edit/games/${gameId}/challenges/${other.id}`, { data: { isEnabled: true } }));
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  const [playerA, playerB] = [await contextA.newPage(), await contextB.newPage()];
  const [nameA, nameB] = [`SA${stamp}`.slice(0, 20), `SB${stamp}`.slice(0, 20)];
  await playerWithTeam(playerA, gameId, nameA);
  const teamB = await playerWithTeam(playerB, gameId, nameB);
  for (const p of await ok<{ id: number }[]>(admin.request.get(`/api/game/${gameId}/participations`))) await ok(admin.request.put(`/api/admin/participation/${p.id}/Accepted`));
  const send = (page: Page, cid: number, flag: string) => ok<number>(page.request.post(`/api/game/${gameId}/challenges/${cid}`, { data: { flag } }));
  await send(playerA, challengeId, "flag{a one}");
  await send(playerB, challengeId, "flag{b one}");

  const greeted = hubGreeted(admin, `/hub/game/${gameId}/monitor`);
  await admin.goto(`/games/${gameId}/monitor/submissions`);
  const rows = admin.getByTestId("monitor-submissions").locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await admin.getByLabel(en.monitor.team, { exact: true }).selectOption({ label: nameB });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("flag{b one}");
  await expect(admin).toHaveURL(new RegExp(`\\?team=${teamB}$`));
  await greeted;

  // Live: the other team's submission stays out, this team's comes in.
  await send(playerA, other.id, "flag{a two}");
  await send(playerB, other.id, "flag{b two}");
  await expect(rows.first()).toContainText("flag{b two}");
  await expect(rows).toHaveCount(2);
  await expect(admin.getByTestId("monitor-submissions")).not.toContainText("flag{a two}");
  // Each row says where its submission came from, the pushed one as the one read.
  await expect(admin.getByRole("columnheader", { name: en.monitor.ip, exact: true })).toBeVisible();
  for (const row of [rows.nth(0), rows.nth(1)]) await expect(row.getByRole("cell").nth(3)).toHaveText("127.0.0.1");

  // One challenge too; a reload keeps both.
  await admin.getByLabel(en.monitor.challenge, { exact: true }).selectOption({ label: fill(en.monitor.challengeOption, { title: "Second course", category: en.challenge.category.Misc }) });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("flag{b two}");
  await admin.reload();
  await expect(rows).toHaveCount(1);
  await expect(admin.getByLabel(en.monitor.team, { exact: true })).toHaveValue(String(teamB));
  await expect(admin.getByLabel(en.monitor.challenge, { exact: true })).toHaveValue(String(other.id));
  await admin.getByLabel(en.monitor.team, { exact: true }).selectOption("");
  await expect(rows).toHaveCount(2);

  // The events monitor narrows to a team too, live pushes included.
  await admin.goto(`/games/${gameId}/monitor/events`);
  const events = admin.getByTestId("monitor-events").locator("li");
  await expect(events).toHaveCount(4);
  await admin.getByLabel(en.monitor.team, { exact: true }).selectOption({ label: nameA });
  await expect(events).toHaveCount(2);
  await expect(admin.getByTestId("monitor-events")).not.toContainText("flag{b");
  await send(playerB, challengeId, "flag{b three}");
  // An answer with a right-to-left override is shown without it: it cannot turn the line around.
  await send(playerA, challengeId, "\u202eflag{a three}");
  await expect(events).toHaveCount(3);
  await expect(events.first()).toContainText(`${nameA} / `);
  await expect(events.first()).toContainText("flag{a three}");
  expect(await events.first().textContent()).not.toContain("\u202e");
  await expect(admin.getByTestId("monitor-events")).not.toContainText("flag{b three}");
  await contextA.close();
  await contextB.close();
});

test("the events monitor keeps its type, team and container filter in its address: a reload, Back and Forward and a copied link show the same rows, live ones too", async ({ adminPage: admin, browser }) => {
  test.setTimeout(60_000);
  const stamp = Date.now().toString(36);
  const { gameId, challengeId } = await createGame(admin.request, stamp);
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  const [playerA, playerB] = [await contextA.newPage(), await contextB.newPage()];
  const teamA = await playerWithTeam(playerA, gameId, `EA${stamp}`.slice(0, 20));
  await playerWithTeam(playerB, gameId, `EB${stamp}`.slice(0, 20));
  for (const p of await ok<{ id: number }[]>(admin.request.get(`/api/game/${gameId}/participations`))) await ok(admin.request.put(`/api/admin/participation/${p.id}/Accepted`));
  const send = (page: Page, flag: string) => ok<number>(page.request.post(`/api/game/${gameId}/challenges/${challengeId}`, { data: { flag } }));
  await send(playerA, "flag{a one}");
  await send(playerB, "flag{b one}");

  // Reached from another monitor page, so that Back has somewhere to go.
  await admin.goto(`/games/${gameId}/monitor/submissions`);
  const tabs = admin.getByRole("navigation", { name: en.gameTabs.label });
  await tabs.getByRole("link", { name: en.monitor.events, exact: true }).click();
  const list = admin.getByTestId("monitor-events");
  await expect(list).toContainText("flag{b one}");
  await admin.getByRole("combobox", { name: en.monitor.typeLabel }).selectOption("FlagSubmit");
  await admin.getByLabel(en.monitor.team, { exact: true }).selectOption(String(teamA));
  await admin.getByRole("checkbox", { name: en.monitor.hideContainer }).uncheck();
  const filtered = new RegExp(`/games/${gameId}/monitor/events\\?type=FlagSubmit&team=${teamA}&containers=shown$`);
  await expect(admin).toHaveURL(filtered);
  /** The page shows A's one submission, with the filter's controls set as the address says. */
  const expectFiltered = async (page: Page) => {
    const items = page.getByTestId("monitor-events").locator("li");
    await expect(items).toHaveCount(1);
    await expect(items.first()).toContainText("flag{a one}");
    await expect(page.getByRole("combobox", { name: en.monitor.typeLabel })).toHaveValue("FlagSubmit");
    await expect(page.getByLabel(en.monitor.team, { exact: true })).toHaveValue(String(teamA));
    await expect(page.getByRole("checkbox", { name: en.monitor.hideContainer })).not.toBeChecked();
  };
  await expectFiltered(admin);

  await admin.reload();
  await expectFiltered(admin);
  // Back and Forward: the filters changed the page's history entry rather than adding any.
  await tabs.getByRole("link", { name: en.monitor.cheatInfo, exact: true }).click();
  await expect(admin).toHaveURL(new RegExp(`/games/${gameId}/monitor/cheatinfo$`));
  await admin.goBack();
  await expect(admin).toHaveURL(filtered);
  await expectFiltered(admin);
  await admin.goBack();
  await expect(admin).toHaveURL(new RegExp(`/games/${gameId}/monitor/submissions$`));
  await admin.goForward();
  await expect(admin).toHaveURL(filtered);
  await expectFiltered(admin);

  // The copied address opens filtered, and the live feed adds only what the filter lets through.
  const copied = await admin.context().newPage();
  const greeted = hubGreeted(copied, `/hub/game/${gameId}/monitor`);
  await copied.goto(admin.url());
  await expectFiltered(copied);
  await greeted;
  await send(playerB, "flag{b two}");
  await send(playerA, "flag{a two}");
  const copiedItems = copied.getByTestId("monitor-events").locator("li");
  await expect(copiedItems).toHaveCount(2);
  await expect(copiedItems.first()).toContainText("flag{a two}");
  await expect(copied.getByTestId("monitor-events")).not.toContainText("flag{b");
  await copied.close();
  await contextA.close();
  await contextB.close();
});

test("the monitor pages keep the older rows they loaded through a reconnect, and a page read under the last filter stays out of the next", async ({ adminPage: admin, browser }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const { gameId, challengeId } = await createGame(admin.request, stamp);
  const other = await enabledChallenge(admin.request, gameId, "Side dish");
  const context = await browser.newContext();
  const player = await context.newPage();
  await playerWithTeam(player, gameId, `K${stamp}`.slice(0, 20));
  for (const p of await ok<{ id: number }[]>(admin.request.get(`/api/game/${gameId}/participations`))) await ok(admin.request.put(`/api/admin/participation/${p.id}/Accepted`));
  const send = (cid: number, flag: string) => ok<number>(player.request.post(`/api/game/${gameId}/challenges/${cid}`, { data: { flag } }));
  // The oldest three to the side dish, then more than a page (100) to the first challenge.
  for (let i = 0; i < 3; i++) await send(other, `flag{side_${i}}`);
  for (let i = 0; i < 105; i += 15) await Promise.all(Array.from({ length: 15 }, (_, j) => send(challengeId, `flag{main_${i + j}}`)));
  await expect.poll(async () => (await ok<unknown[]>(admin.request.get(`/api/game/${gameId}/events?count=100&skip=100`))).length, { timeout: 15_000 }).toBe(8);

  // The monitor's feed passes through the test, which can drop it.
  const feeds: WebSocketRoute[] = [];
  await admin.routeWebSocket(new RegExp(`/hub/game/${gameId}/monitor$`), (ws) => {
    feeds.push(ws);
    ws.connectToServer();
  });
  const dropAndReread = async (path: string) => {
    const reread = admin.waitForResponse((r) => r.url().includes(`/api/game/${gameId}/${path}?`) && r.url().includes("skip=0"));
    await feeds.at(-1)!.close({ code: 1011 });
    await reread;
    await admin.waitForTimeout(500);
  };

  // Submissions: "Load more", then a reconnect: its read again from the top keeps the older page.
  await admin.goto(`/games/${gameId}/monitor/submissions`);
  const rows = admin.getByTestId("monitor-submissions").locator("tbody tr");
  await expect(rows).toHaveCount(100);
  await expect.poll(() => feeds.length).toBe(1);
  await admin.getByRole("button", { name: en.monitor.loadMore }).click();
  await expect(rows).toHaveCount(108);
  await dropAndReread("submissions");
  await expect(rows).toHaveCount(108);
  await expect(admin.getByTestId("monitor-submissions")).toContainText("flag{side_0}");

  // A "Load more" answered after the filter changed stays out of the filtered list.
  await admin.reload();
  await expect(rows).toHaveCount(100);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let landed!: () => void;
  const delivered = new Promise<void>((resolve) => (landed = resolve));
  await admin.route(/\/submissions\?count=100&skip=100$/, async (route) => {
    const response = await route.fetch();
    await released;
    await route.fulfill({ response });
    landed();
  });
  await admin.getByRole("button", { name: en.monitor.loadMore }).click();
  await admin.getByLabel(en.monitor.challenge, { exact: true }).selectOption({ label: fill(en.monitor.challengeOption, { title: "Side dish", category: en.challenge.category.Misc }) });
  // The held page lands after the new filter's read could have (the page may also wait for it first).
  await admin.waitForTimeout(1_000);
  release();
  await delivered;
  await expect(rows).toHaveCount(3);
  await admin.waitForTimeout(500);
  await expect(rows).toHaveCount(3);
  await expect(admin.getByTestId("monitor-submissions")).not.toContainText("flag{main_");
  await admin.unroute(/\/submissions\?count=100&skip=100$/);

  // Events: the same through a reconnect.
  const feedsBefore = feeds.length;
  await admin.goto(`/games/${gameId}/monitor/events`);
  const events = admin.getByTestId("monitor-events").locator("li");
  await expect(events).toHaveCount(100);
  await expect.poll(() => feeds.length).toBeGreaterThan(feedsBefore);
  await admin.getByRole("button", { name: en.monitor.loadMore }).click();
  await expect(events).toHaveCount(108);
  await dropAndReread("events");
  await expect(events).toHaveCount(108);
  await expect(admin.getByTestId("monitor-events")).toContainText("flag{side_0}");
  await context.close();
});

test("the events monitor pages back to older events, for the type filter too, one from the address included", async ({ adminPage: admin, browser }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const game = await cheatingGame(admin, browser, stamp);
  const oldest = `flag{oldest_${stamp}}`;

  // The oldest events: one wrong flag, then a stolen one (FlagSubmit + CheatDetected); then more than a
  // page (100) of newer wrong flags on top of them.
  await game.submitB(oldest);
  await game.submitB(game.flagA);
  for (let i = 0; i < 105; i += 15) await Promise.all(Array.from({ length: 15 }, (_, j) => game.submitB(`flag{newer_${i + j}}`)));
  // All 108 events are stored (the oldest 8 behind the first page).
  await expect.poll(async () => (await ok<unknown[]>(admin.request.get(`/api/game/${game.gameId}/events?count=100&skip=100`))).length, { timeout: 15_000 }).toBe(8);

  await admin.goto(`/games/${game.gameId}/monitor/events`);
  const list = admin.getByTestId("monitor-events");
  const items = list.locator("li");
  await expect(items).toHaveCount(100);
  await expect(list.getByText(oldest)).toHaveCount(0);
  await expect(list.getByText("flag{newer_104}")).toBeVisible();
  // A live event goes on top and the page stays as long: the oldest shown row moves below it.
  const live = `flag{live_${stamp}}`;
  await game.submitB(live);
  await expect(items.first()).toContainText(live);
  await expect(items).toHaveCount(100);

  // "Load more" reaches the oldest event.
  await admin.getByRole("button", { name: en.monitor.loadMore }).click();
  await expect(list.getByText(oldest)).toBeVisible();
  await expect(items).toHaveCount(109);
  // That was the end of the list.
  await expect(admin.getByRole("button", { name: en.monitor.loadMore })).toHaveCount(0);

  // Filtering reads older pages by itself: a fresh page finds the cheat event behind the first 100.
  await admin.reload();
  await expect(items).toHaveCount(100);
  const types = admin.getByRole("combobox", { name: en.monitor.typeLabel });
  await types.selectOption("CheatDetected");
  const cheat = en.monitor.event.CheatDetected.replace("{{challenge}}", "Own flags").replace("{{submitTeam}}", game.teamB).replace("{{user}}", game.userB).replace("{{ownedTeam}}", game.teamA);
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(cheat);

  // While container events are hidden, their types are not offered; unticking brings them back.
  const hide = admin.getByRole("checkbox", { name: en.monitor.hideContainer });
  await expect(hide).toBeChecked();
  const optionValues = () => types.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  expect(await optionValues()).toEqual(["", "Normal", "FlagSubmit", "CheatDetected"]);
  await hide.uncheck();
  expect(await optionValues()).toEqual(["", "Normal", "ContainerStart", "ContainerDestroy", "FlagSubmit", "CheatDetected"]);
  await types.selectOption("ContainerStart");
  await hide.check();
  await expect(types).toHaveValue("");
  expect(await optionValues()).toEqual(["", "Normal", "FlagSubmit", "CheatDetected"]);

  // A type in the address filters the page it opens; "Load more" reads on under it, to the end (108 of the
  // 109 events are submissions: all but the cheat).
  await admin.goto(`/games/${game.gameId}/monitor/events?type=FlagSubmit`);
  await expect(types).toHaveValue("FlagSubmit");
  await expect(items).toHaveCount(100);
  await admin.getByRole("button", { name: en.monitor.loadMore }).click();
  await expect(list.getByText(oldest)).toBeVisible();
  await expect(items).toHaveCount(108);
  await expect(list).not.toContainText(cheat);
  await expect(admin.getByRole("button", { name: en.monitor.loadMore })).toHaveCount(0);
  await game.close();
});

test("an accepted flag reads \"not scored\" when the game ended while the panel was open, or after the deadline", async ({ adminPage: admin, browser }) => {
  test.setTimeout(60_000);
  const stamp = Date.now().toString(36);
  const now = Date.now();
  // Practice mode is on by default: after the end flags are still judged, for 0 points. The game ends a few
  // seconds after the first part (a fixed end set at creation was passed already on a loaded machine).
  const game = await ok<{ id: number }>(admin.request.post("/api/edit/games", { data: { title: `Late ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true } }));
  await enabledChallenge(admin.request, game.id, "Too late", { deadlineUtc: now - 60_000 });
  await enabledChallenge(admin.request, game.id, "Game over");
  // Its own browser context: the admin's session stays for moving the end below.
  const context = await browser.newContext();
  const player = await context.newPage();
  await playerWithTeam(player, game.id, `L${stamp}`.slice(0, 15));
  await player.goto(`/games/${game.id}/challenges`);
  const flagBox = player.getByRole("textbox", { name: en.challenge.flag });

  // Past the challenge's deadline (the game still running): judged, not scored.
  await player.getByRole("button", { name: /Too late/ }).click();
  await flagBox.fill(FLAG);
  await player.getByRole("button", { name: en.challenge.submit }).click();
  await expect(player.getByTestId("verdict").filter({ hasText: en.verdict.notScoredDeadline })).toHaveAttribute("data-status", "Accepted");

  // The panel opens while the game runs; the game ends; the flag comes in after.
  const end = Date.now() + 4_000;
  await ok(admin.request.put(`/api/edit/games/${game.id}`, { data: { end } }));
  await player.getByRole("button", { name: /Game over/ }).click();
  await expect(flagBox).toBeVisible();
  await player.waitForTimeout(Math.max(0, end - Date.now() + 500));
  await flagBox.fill(FLAG);
  await player.getByRole("button", { name: en.challenge.submit }).click();
  await expect(player.getByTestId("verdict").filter({ hasText: en.verdict.notScored })).toHaveAttribute("data-status", "Accepted");
  await context.close();
});

test("the scoreboard reaches a browser gzipped, and a client that does not ask for gzip as is", async ({ adminApi: admin, page }) => {
  const stamp = Date.now().toString(36);
  const { gameId } = await createGame(admin, stamp);
  const board = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/game/${gameId}/scoreboard`);
  await page.goto(`/games/${gameId}/scoreboard`);
  const response = await board;
  expect(response.status()).toBe(200);
  expect(response.headers()["content-encoding"]).toBe("gzip");
  await expect(page.getByTestId("board-socket")).toHaveAttribute("data-state", "open");
  await expect(page.getByText(en.scoreboard.noTeams)).toBeVisible();

  // On the wire, through the local server's front and the runtime.
  const url = new URL(`/api/game/${gameId}/scoreboard`, page.url()).href;
  const plain = await rawGet(url, {});
  expect(plain.status).toBe(200);
  expect(plain.headers["content-encoding"]).toBeUndefined();
  expect(plain.headers.vary).toMatch(/accept-encoding/i);
  const zipped = await rawGet(url, { "accept-encoding": "gzip, deflate, br" });
  expect(zipped.status).toBe(200);
  expect(zipped.headers["content-encoding"]).toBe("gzip");
  expect(zipped.headers.etag).toBe(plain.headers.etag);
  expect([...zipped.body.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
  const inflated = gunzipSync(zipped.body).toString("utf8");
  expect(JSON.parse(inflated)).toEqual(JSON.parse(plain.body.toString("utf8")));
});

test("the attempts line counts each submission at once and the flag box closes on the last one", async ({ adminApi: admin, page: player }) => {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const game = await ok<{ id: number }>(admin.post("/api/edit/games", { data: { title: `Tries ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true } }));
  await enabledChallenge(admin, game.id, "Three tries", { submissionLimit: 3 });
  await playerWithTeam(player, game.id, `T${stamp}`.slice(0, 15));
  await player.goto(`/games/${game.id}/challenges`);
  await player.getByRole("button", { name: /Three tries/ }).click();
  const flagBox = player.getByRole("textbox", { name: en.challenge.flag });
  const attempts = (count: number) => player.getByText(en.challenge.attempts[count === 1 ? "left_one" : "left_other"].replace("{{count}}", String(count)), { exact: true });
  await expect(attempts(3)).toBeVisible();

  for (const left of [2, 1]) {
    await flagBox.fill(`flag{wrong_${left}}`);
    await player.getByRole("button", { name: en.challenge.submit }).click();
    await expect(attempts(left)).toBeVisible();
  }
  await flagBox.fill("flag{wrong_last}");
  await player.getByRole("button", { name: en.challenge.submit }).click();
  await expect(player.getByText(en.challenge.attempts.usedUp, { exact: true })).toBeVisible();
  await expect(flagBox).toBeDisabled();
  // A reload straight after reads the room's count, not D1's (the last rows may not be there yet).
  await player.reload();
  await player.getByRole("button", { name: /Three tries/ }).click();
  await expect(player.getByText(en.challenge.attempts.usedUp, { exact: true })).toBeVisible();
  await expect(flagBox).toBeDisabled();
});

test("the scoreboard shows what each challenge is worth, draws a solve worth nothing faintly, and a team's dialog gives its division rank", async ({ adminApi: admin, page: player }) => {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const game = await ok<{ id: number; divisions: { id: number }[] }>(
    admin.post("/api/edit/games", {
      data: { title: `Worth ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true, divisions: [{ name: `Div ${stamp}`, defaultPermissions: 2147483647 }] },
    }),
  );
  const worth = await enabledChallenge(admin, game.id, "Worth it", { originalScore: 500 });
  const late = await enabledChallenge(admin, game.id, "Past its deadline", { originalScore: 500, deadlineUtc: now - 60_000 });
  await registerUser(player);
  const team = await ok<{ id: number }>(player.request.post("/api/team", { data: { name: `W${stamp}`.slice(0, 15) } }));
  await ok(player.request.post(`/api/game/${game.id}`, { data: { teamId: team.id, divisionId: game.divisions[0]!.id } }));
  for (const id of [worth, late]) await ok(player.request.post(`/api/game/${game.id}/challenges/${id}`, { data: { flag: FLAG } }));

  await player.goto(`/games/${game.id}/scoreboard`);
  const row = player.getByTestId(`board-team-${team.id}`);
  await expect(row.getByTestId("board-score")).toHaveText("525", { timeout: 10_000 });
  // Each column says what a solve is worth now; the late solve scored nothing and is drawn so.
  await expect(player.getByTestId(`board-challenge-value-${worth}`)).toHaveText(fill(en.scoreboard.points, { points: 500 }));
  await expect(player.getByTestId(`board-challenge-value-${late}`)).toHaveText(fill(en.scoreboard.points, { points: 500 }));
  const marks = row.getByRole("img");
  await expect(marks).toHaveCount(2);
  await expect(row.locator('[data-scored="false"]')).toHaveAttribute("aria-label", fill(en.scoreboard.markNotScored, { mark: en.scoreboard.solvedMark }));
  await expect(row.locator('[data-scored="true"]')).toHaveAttribute("aria-label", en.scoreboard.firstBlood);

  await row.getByRole("button", { name: `W${stamp}`.slice(0, 15) }).click();
  await expect(player.getByTestId("board-detail-ranks")).toHaveText(fill(en.scoreboard.detailRanks, { rank: 1, divisionRank: 1, score: 525 }));
  // The open dialog follows the live board: a solve while it is open shows in it without a reload.
  const later = await enabledChallenge(admin, game.id, "Solved later", { originalScore: 500 });
  await ok(player.request.post(`/api/game/${game.id}/challenges/${later}`, { data: { flag: FLAG } }));
  await expect(player.getByTestId("board-detail-ranks")).toHaveText(fill(en.scoreboard.detailRanks, { rank: 1, divisionRank: 1, score: 1050 }), { timeout: 10_000 });
  await expect(player.getByRole("dialog").getByText("Solved later")).toBeVisible();
});

test("the scoreboard's division filter starts each division, and all divisions again, at its first page", async ({ adminApi: admin, page: viewer, playwright, baseURL }) => {
  test.setTimeout(150_000);
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const game = await ok<{ id: number; divisions: { id: number; name: string }[] }>(
    admin.post("/api/edit/games", {
      data: { title: `Pages ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true, divisions: [{ name: `Many ${stamp}` }, { name: `Few ${stamp}` }] },
    }),
  );
  const [many, few] = game.divisions;
  // 52 teams: two pages for all divisions (50 a page), one for the small division.
  const joinAs = async (i: number) => {
    const player = await playwright.request.newContext({ baseURL });
    const userName = `pg${stamp}${i}`.slice(-15);
    await ok(player.post("/api/account/register", { data: { userName, password: "Passw0rd!e2e", email: `${userName}@example.com` } }));
    const team = await ok<{ id: number }>(player.post("/api/team", { data: { name: `P${stamp}${i}`.slice(-20) } }));
    await ok(player.post(`/api/game/${game.id}`, { data: { teamId: team.id, divisionId: (i === 0 ? few : many)!.id } }));
    await player.dispose();
  };
  for (let i = 0; i < 52; i += 4) await Promise.all([i, i + 1, i + 2, i + 3].map(joinAs));
  await viewer.goto(`/games/${game.id}/scoreboard`);
  const pageLine = viewer.getByText(/^Page \d+ of \d+$/);
  await expect(pageLine).toHaveText(fill(en.scoreboard.page, { page: 1, pages: 2 }));
  await viewer.getByRole("button", { name: en.scoreboard.next, exact: true }).click();
  await expect(pageLine).toHaveText(fill(en.scoreboard.page, { page: 2, pages: 2 }));
  const filter = viewer.getByRole("combobox", { name: en.scoreboard.division, exact: true });
  await filter.selectOption({ label: few!.name });
  await expect(viewer.locator("tbody tr")).toHaveCount(1);
  // Back to all divisions: the first page, not the one the filter was chosen on.
  await filter.selectOption({ label: en.scoreboard.allDivisions });
  await expect(pageLine).toHaveText(fill(en.scoreboard.page, { page: 1, pages: 2 }));
});

test("the scoreboard keeps its division and team search in the address: a reload, Back and Forward and a copied link show the same rows, live", async ({ adminApi: admin, page: viewer, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const game = await ok<{ id: number; divisions: { id: number; name: string }[] }>(
    admin.post("/api/edit/games", {
      data: { title: `Kept ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true, divisions: [{ name: `North ${stamp}` }, { name: `South ${stamp}` }] },
    }),
  );
  const [north, south] = game.divisions;
  const challengeId = await enabledChallenge(admin, game.id, "Kept score", { originalScore: 500 });
  const players: APIRequestContext[] = [];
  const join = async (name: string, divisionId: number) => {
    const player = await playwright.request.newContext({ baseURL });
    players.push(player);
    await registerUser(player);
    const team = await ok<{ id: number }>(player.post("/api/team", { data: { name } }));
    await ok(player.post(`/api/game/${game.id}`, { data: { teamId: team.id, divisionId } }));
    return { id: team.id, player };
  };
  await join(`N1${stamp}`, north!.id);
  const found = await join(`N2${stamp}`, north!.id);
  await join(`S1${stamp}`, south!.id);

  // Reached from the game's page, so that Back has somewhere to go.
  await viewer.goto(`/games/${game.id}`);
  await viewer.getByRole("navigation", { name: en.gameTabs.label }).getByRole("link", { name: en.gameTabs.scoreboard, exact: true }).click();
  const rows = viewer.locator("tbody tr");
  await expect(rows).toHaveCount(3);
  await viewer.getByRole("combobox", { name: en.scoreboard.division, exact: true }).selectOption({ label: north!.name });
  await expect(rows).toHaveCount(2);
  // Typed a letter at a time: each one changes the address, none adds to the history.
  await viewer.getByRole("searchbox", { name: en.scoreboard.findTeam }).pressSequentially(`n2${stamp}`);
  const filtered = new RegExp(`/games/${game.id}/scoreboard\\?division=${north!.id}&q=n2${stamp}$`);
  await expect(viewer).toHaveURL(filtered);
  /** The page shows the one team found in its division, with the filter's controls set as the address says. */
  const expectFiltered = async (page: Page) => {
    const shown = page.locator("tbody tr");
    await expect(shown).toHaveCount(1);
    await expect(shown.first()).toHaveAttribute("data-testid", `board-team-${found.id}`);
    await expect(page.getByRole("combobox", { name: en.scoreboard.division, exact: true })).toHaveValue(String(north!.id));
    await expect(page.getByRole("searchbox", { name: en.scoreboard.findTeam })).toHaveValue(`n2${stamp}`);
  };
  await expectFiltered(viewer);

  await viewer.reload();
  await expectFiltered(viewer);
  await viewer.getByRole("link", { name: en.challenge.backToGame }).click();
  await expect(viewer).toHaveURL(new RegExp(`/games/${game.id}$`));
  await viewer.goBack();
  await expect(viewer).toHaveURL(filtered);
  await expectFiltered(viewer);
  await viewer.goBack();
  await expect(viewer).toHaveURL(new RegExp(`/games/${game.id}$`));
  await viewer.goForward();
  await expect(viewer).toHaveURL(filtered);
  await expectFiltered(viewer);

  // The copied address opens filtered, and a solve of the team found reaches it live.
  const copied = await viewer.context().newPage();
  await copied.goto(viewer.url());
  await expectFiltered(copied);
  await ok(found.player.post(`/api/game/${game.id}/challenges/${challengeId}`, { data: { flag: FLAG } }));
  await expect(copied.locator("tbody tr").first().locator('[data-mark="FirstBlood"]')).toBeVisible({ timeout: 10_000 });
  await expectFiltered(copied);

  // A division the game does not have shows all of them, without an error.
  await copied.goto(`/games/${game.id}/scoreboard?division=999999`);
  await expect(copied.locator("tbody tr")).toHaveCount(3);
  await expect(copied.getByRole("combobox", { name: en.scoreboard.division, exact: true })).toHaveValue("");
  await expect(copied.getByRole("alert")).toHaveCount(0);
  await copied.close();
  for (const player of players) await player.dispose();
});

test("a hidden game's board change sent while an open scoreboard was loading reaches it", async ({ adminPage: page, adminApi: admin, playwright, baseURL }) => {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const game = await ok<{ id: number }>(admin.post("/api/edit/games", { data: { title: `Hidden ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true } }));
  const cid = await enabledChallenge(admin, game.id, "Valued", { originalScore: 500 });
  const solver = await playwright.request.newContext({ baseURL });
  await registerUser(solver);
  const team = await ok<{ id: number }>(solver.post("/api/team", { data: { name: `H${stamp}`.slice(0, 15) } }));
  await ok(solver.post(`/api/game/${game.id}`, { data: { teamId: team.id } }));
  await ok(solver.post(`/api/game/${game.id}/challenges/${cid}`, { data: { flag: FLAG } }));
  await solver.dispose();
  // Hidden: its board's changes go to board readers (admins, monitors) only, with no number of their own.
  await ok(admin.put(`/api/edit/games/${game.id}`, { data: { hidden: true } }));
  // The blood notice above is a message for all; a page counts as possibly older than anything sent up to
  // 2 s before it began loading (the clock margin, app/lib/page-reads.ts): start well after it, so only the
  // change below can make the page read its board again.
  await page.waitForTimeout(2_500);

  // The page's socket reaches the server only when the test lets it: the board is read first, then the
  // value changes (a delta for board readers, who have no socket yet), then the socket is greeted.
  let letThrough!: () => void;
  const gate = new Promise<void>((resolve) => (letThrough = resolve));
  await page.routeWebSocket(new RegExp(`/hub/game/${game.id}$`), async (ws) => {
    await gate;
    ws.connectToServer();
  });
  await page.goto(`/games/${game.id}/scoreboard`);
  const score = page.getByTestId(`board-team-${team.id}`).getByTestId("board-score");
  await expect(score).toHaveText("525");
  await ok(admin.put(`/api/edit/games/${game.id}/challenges/${cid}`, { data: { originalScore: 800 } }));
  const read = await ok<{ items: { id: number; score: number }[] }>(admin.get(`/api/game/${game.id}/scoreboard`));
  const expected = read.items.find((i) => i.id === team.id)!.score;
  expect(expected).toBeGreaterThan(525);
  letThrough();
  // The greeting says the board changed after the page read it: the page reads it again.
  await expect(score).toHaveText(String(expected), { timeout: 10_000 });
});

test("a board read answered late never replaces the newer board a push brought meanwhile", async ({ adminApi: admin, page: player }) => {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const game = await ok<{ id: number }>(admin.post("/api/edit/games", { data: { title: `Late ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true } }));
  const first = await enabledChallenge(admin, game.id, "First", { originalScore: 500 });
  const second = await enabledChallenge(admin, game.id, "Second", { originalScore: 500 });
  await registerUser(player);
  const team = await ok<{ id: number }>(player.request.post("/api/team", { data: { name: `L${stamp}`.slice(0, 15) } }));
  await ok(player.request.post(`/api/game/${game.id}`, { data: { teamId: team.id } }));
  await ok(player.request.post(`/api/game/${game.id}/challenges/${first}`, { data: { flag: FLAG } }));

  await player.goto(`/games/${game.id}/scoreboard`);
  const score = player.getByTestId(`board-team-${team.id}`).getByTestId("board-score");
  await expect(score).toHaveText("525", { timeout: 10_000 });
  // The feed is open (a push before it opened would be missed, and the edit below would ask for no read).
  await expect(player.getByTestId("board-socket")).toHaveAttribute("data-state", "open");

  // The next read of the board is answered by the server at once (before the solve below) but reaches
  // the page only after the solve's push; later reads pass.
  let reads = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let answered!: () => void;
  const held = new Promise<void>((resolve) => (answered = resolve));
  let landed!: () => void;
  const delivered = new Promise<void>((resolve) => (landed = resolve));
  await player.route(new RegExp(`/api/game/${game.id}/scoreboard$`), async (route) => {
    if (++reads > 1) return route.continue();
    const response = await route.fetch();
    const body = await response.text();
    answered();
    await released;
    await route.fulfill({ response, body });
    landed();
  });
  // An edit of a challenge that shows on the board (its title) asks every open board to read it again.
  await ok(admin.put(`/api/edit/games/${game.id}/challenges/${first}`, { data: { title: `First ${stamp}` } }));
  await held;
  await ok(player.request.post(`/api/game/${game.id}/challenges/${second}`, { data: { flag: FLAG } }));
  await expect(score).toHaveText("1050", { timeout: 10_000 });

  release();
  await delivered;
  // The page handles the late answer in the same task it arrives in; give it a moment to show it if it would.
  await player.waitForTimeout(1_000);
  await expect(score).toHaveText("1050");
  await player.unroute(new RegExp(`/api/game/${game.id}/scoreboard$`));
});

test("a player whose computer clock is ten minutes fast still reads an in-time flag as scored", async ({ adminApi: admin, page: player }) => {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  // The game ends in three minutes; the player's clock already reads seven minutes past its end.
  const game = await ok<{ id: number }>(admin.post("/api/edit/games", { data: { title: `Clock ${stamp}`, start: now - HOUR, end: now + 3 * 60_000, acceptWithoutReview: true } }));
  const challenge = await ok<{ id: number }>(admin.post(`/api/edit/games/${game.id}/challenges`, { data: { title: "On time", category: "Misc", type: "StaticAttachment" } }));
  await ok(admin.post(`/api/edit/games/${game.id}/challenges/${challenge.id}/flags`, { data: [{ flag: FLAG }] }));
  await ok(admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { data: { isEnabled: true } }));
  await playerWithTeam(player, game.id, `K${stamp}`.slice(0, 15));
  await player.clock.install({ time: now + 10 * 60_000 });

  await player.goto(`/games/${game.id}/challenges`);
  await player.getByRole("button", { name: /On time/ }).click();
  await player.getByRole("textbox", { name: en.challenge.flag }).fill(FLAG);
  await player.getByRole("button", { name: en.challenge.submit }).click();
  const verdict = player.getByTestId("verdict");
  await expect(verdict).toHaveAttribute("data-status", "Accepted");
  await expect(verdict).not.toContainText(en.verdict.notScored);
  await expect(verdict).not.toContainText(en.verdict.notScoredDeadline);
});

test("an open scoreboard shows the board at the start, and follows a start moved later: \"not started\" in the gap, then the board as recomputed", async ({ adminApi: admin, page: player }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const game = await ok<{ id: number }>(admin.post("/api/edit/games", { data: { title: `Start ${stamp}`, start: Date.now() + HOUR, end: Date.now() + 2 * HOUR, acceptWithoutReview: true } }));
  const challenge = await ok<{ id: number }>(admin.post(`/api/edit/games/${game.id}/challenges`, { data: { title: "Opening", category: "Misc", type: "StaticAttachment" } }));
  await ok(admin.post(`/api/edit/games/${game.id}/challenges/${challenge.id}/flags`, { data: [{ flag: FLAG }] }));
  await ok(admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { data: { isEnabled: true } }));
  await registerUser(player);
  const team = await ok<{ id: number }>(player.request.post("/api/team", { data: { name: `S${stamp}`.slice(0, 15) } }));
  await ok(player.request.post(`/api/game/${game.id}`, { data: { teamId: team.id } }));

  // The page opens a few seconds before the start; it asks for nothing the API refuses before it (the board
  // and its notices answer 400 then: the page knows the game has not started and waits for the start). Only
  // after the start, moved later below, may the board's read be refused as "not started".
  const refused: string[] = [];
  const lead = 6_000;
  const start = Date.now() + lead;
  player.on("response", (response) => {
    if (response.status() >= 400 && !(new URL(response.url()).pathname.endsWith("/scoreboard") && Date.now() >= start)) refused.push(`${response.status()} ${response.url()}`);
  });
  await ok(admin.put(`/api/edit/games/${game.id}`, { data: { start } }));
  await player.goto(`/games/${game.id}/scoreboard`);
  const notStarted = player.getByText(en.scoreboard.notStarted);
  await expect(notStarted).toBeVisible();
  await expect(player.getByTestId("board-socket")).toHaveAttribute("data-state", "open");

  // At the start the empty board shows, without a reload and with nothing pushed (no solve yet).
  const score = player.getByTestId(`board-team-${team.id}`).getByTestId("board-score");
  await expect(score).toHaveText("0", { timeout: lead + 10_000 });
  await expect(notStarted).toHaveCount(0);
  expect(refused).toEqual([]);
  // The timeline of the first seconds: no scale top while nobody scored (not a second 0), and no time twice.
  await expect(player.getByTestId("timeline-chart")).toBeVisible();
  await expect(player.getByTestId("timeline-max")).toHaveCount(0);
  const labels = await player.getByTestId("timeline-times").locator("time").allTextContents();
  expect(labels.length).toBeGreaterThan(0);
  expect(new Set(labels).size).toBe(labels.length);
  // Notices are followed once the board shows: one posted now arrives on the open page.
  await ok(admin.post(`/api/edit/games/${game.id}/notices`, { data: { content: `Opening notice ${stamp}` } }));
  await expect(player.getByText(`Opening notice ${stamp}`)).toBeVisible();
  await ok(player.request.post(`/api/game/${game.id}/challenges/${challenge.id}`, { data: { flag: FLAG } }));
  await expect(score).toHaveText("1050");
  await expect(player.getByTestId("timeline-max")).toHaveText("1050");
  // The chart's data as text, for a screen reader: the team, its score, and its score after each solve.
  await expect(player.getByRole("list", { name: en.scoreboard.timeline }).getByRole("listitem")).toHaveText([
    new RegExp(
      `^${fill(en.scoreboard.timelineLine, { team: "\u0001", points: fill(en.scoreboard.points, { points: 1050 }), history: "\u0002" })
        .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        .replace("\u0001", `S${stamp}`.slice(0, 15) + ".*")
        .replace("\u0002", `\\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2}:\\d{2} ${fill(en.scoreboard.points, { points: 1050 })}`)}$`,
    ),
  ]);

  // The admin moves the start later than now: the open board goes back to "not started" during the gap…
  await ok(admin.put(`/api/edit/games/${game.id}`, { data: { start: Date.now() + lead } }));
  await expect(notStarted).toBeVisible();
  await expect(score).toHaveCount(0);
  // …then shows the board recomputed at the new start: the solve before it earns nothing (as the API says).
  await expect(score).toHaveText("0", { timeout: lead + 10_000 });
  const read = await ok<{ items: { id: number; score: number }[]; challenges: Record<string, { bloods: unknown[] }[]> }>(player.request.get(`/api/game/${game.id}/scoreboard`));
  expect(read.items.find((i) => i.id === team.id)?.score).toBe(0);
  expect(Object.values(read.challenges).flat().flatMap((c) => c.bloods)).toEqual([]);
});
