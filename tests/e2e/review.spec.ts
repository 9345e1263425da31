import { readFileSync } from "node:fs";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { expect, interpolate as fill, registerUser, test } from "./fixtures";

// Labels come from the locale files, so rewording a string does not break the flow under test.
type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;
// The server's messages.
type Errors = typeof import("../../app/locales/en-US/errors.json");
const enErrors = JSON.parse(readFileSync(new URL("../../app/locales/en-US/errors.json", import.meta.url), "utf8")) as Errors;
const FIRST_LOAD = { timeout: 15_000 };
const HOUR = 3_600_000;
const TEAMS = 53;

interface Player {
  api: APIRequestContext;
  userName: string;
  teamId: number;
  teamName: string;
}

test("the review and writeups tabs of a game with 53 teams filter, search and page, keeping it all in the address", async ({ adminPage: admin, playwright, baseURL }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const created = await admin.request.post("/api/edit/games", {
    data: { title: `Review ${stamp}`, start: Date.now() - HOUR, end: Date.now() + HOUR, acceptWithoutReview: true, writeupRequired: true, writeupDeadline: Date.now() + 3 * HOUR },
  });
  expect(created.status()).toBe(200);
  const gameId = ((await created.json()) as { id: number }).id;
  const edited = await admin.request.put(`/api/edit/games/${gameId}`, {
    data: { divisions: [{ name: "Red", defaultPermissions: 2147483647 }, { name: "Blue", defaultPermissions: 2147483647 }] },
  });
  expect(edited.status()).toBe(200);
  const divisions = ((await edited.json()) as { divisions: { id: number; name: string }[] }).divisions;
  const red = divisions.find((d) => d.name === "Red")!.id;
  const blue = divisions.find((d) => d.name === "Blue")!.id;

  // 53 captains make a team each and join (accepted without review): the last two in Blue.
  const players: Player[] = [];
  for (let start = 0; start < TEAMS; start += 10) {
    const batch = Array.from({ length: Math.min(10, TEAMS - start) }, async (_, k) => {
      const i = start + k;
      const api = await playwright.request.newContext({ baseURL });
      const { userName } = await registerUser(api, { userName: `rv${stamp}u${i}` });
      const teamName = `Rv ${stamp} ${String(i).padStart(2, "0")}`;
      const team = await api.post("/api/team", { data: { name: teamName } });
      expect(team.status()).toBe(200);
      const teamId = ((await team.json()) as { id: number }).id;
      expect((await api.post(`/api/game/${gameId}`, { data: { teamId, divisionId: i >= TEAMS - 2 ? blue : red } })).status()).toBe(200);
      return { api, userName, teamId, teamName };
    });
    players.push(...(await Promise.all(batch)));
  }
  // The admin sends five back to pending and rejects one.
  const participations = (await (await admin.request.get(`/api/game/${gameId}/participations`)).json()) as { id: number; team: { id: number } }[];
  const participationOf = (p: Player) => participations.find((x) => x.team.id === p.teamId)!.id;
  for (const p of players.slice(10, 15)) expect((await admin.request.put(`/api/admin/participation/${participationOf(p)}/Pending`, { data: {} })).status()).toBe(200);
  expect((await admin.request.put(`/api/admin/participation/${participationOf(players[20]!)}/Rejected`, { data: {} })).status()).toBe(200);

  // Review: pending requests first, 50 rows a page.
  await admin.goto(`/admin/games/${gameId}/Review`);
  const rows = admin.locator("tbody tr");
  const shown = admin.getByTestId("review-shown");
  await expect(shown).toHaveText(fill(en.adminGames.review.shown, { shown: TEAMS, total: TEAMS }), FIRST_LOAD);
  await expect(rows).toHaveCount(50);
  const pendingNames = players.slice(10, 15).map((p) => p.teamName);
  for (let k = 0; k < 5; k++) await expect(rows.nth(k).locator("[data-status]")).toHaveText(en.games.status.Pending);
  const top = await rows.evaluateAll((trs) => trs.slice(0, 5).map((tr) => tr.querySelector("td p")?.textContent ?? ""));
  expect(top.map((text) => pendingNames.find((name) => text.startsWith(`${name} `))).sort()).toEqual(pendingNames);
  await expect(rows.nth(5).locator("[data-status]")).toHaveText(en.games.status.Accepted);
  const pager = admin.getByRole("navigation", { name: en.adminGames.review.pages });
  await expect(pager).toContainText(fill(en.pager.pageOf, { page: 1, pages: 2 }));
  await pager.getByRole("button", { name: en.pager.next }).click();
  await expect(rows).toHaveCount(3);
  await expect(admin).toHaveURL(/[?&]page=2/);
  await expect(pager.getByRole("button", { name: en.pager.next })).toBeDisabled();

  // By status: the counts are in the choices, and choosing one goes back to its first page.
  const status = admin.getByLabel(en.adminGames.review.filterStatus);
  await expect(status.locator("option", { hasText: fill(en.adminGames.review.statusCount, { status: en.games.status.Pending, count: 5 }) })).toHaveCount(1);
  await status.selectOption("Rejected");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(players[20]!.teamName);
  await expect(admin).toHaveURL(/[?&]status=Rejected(&|$)/);
  await expect(admin).not.toHaveURL(/page=/);
  await expect(shown).toHaveText(fill(en.adminGames.review.shown, { shown: 1, total: TEAMS }));
  await status.selectOption("all");

  // By division.
  await admin.getByLabel(en.adminGames.review.filterDivision).selectOption({ label: "Blue" });
  await expect(rows).toHaveCount(2);
  // The two joined at the same moment (one batch): either may have the lower id.
  const blueNames = [players[TEAMS - 2]!.teamName, players[TEAMS - 1]!.teamName];
  const blueRows = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector("td p")?.textContent ?? ""));
  expect(blueRows.map((text) => blueNames.find((name) => text.startsWith(`${name} `))).sort()).toEqual(blueNames);
  await admin.getByLabel(en.adminGames.review.filterDivision).selectOption({ label: en.adminGames.review.allDivisions });

  // Search: a member's user name, then a team's #id; a search and a status survive a reload.
  const search = admin.getByLabel(en.adminGames.review.search);
  await search.fill(players[33]!.userName);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(players[33]!.teamName);
  await search.fill(`#${players[12]!.teamId}`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(players[12]!.teamName);
  await status.selectOption("Pending");
  await admin.reload();
  await expect(admin.getByLabel(en.adminGames.review.search)).toHaveValue(`#${players[12]!.teamId}`, FIRST_LOAD);
  await expect(admin.getByLabel(en.adminGames.review.filterStatus)).toHaveValue("Pending");
  await expect(rows).toHaveCount(1);

  // Accepting it from the filtered view: it leaves the pending view and the counts follow.
  await rows.first().getByRole("button", { name: en.adminGames.review.action.Accepted }).click();
  await expect(admin.getByText(en.adminGames.review.noMatch)).toBeVisible();
  await expect(status.locator("option", { hasText: fill(en.adminGames.review.statusCount, { status: en.games.status.Pending, count: 4 }) })).toHaveCount(1);
  await search.fill("");
  await expect(rows).toHaveCount(4);

  // The pending teams the filters show, on every page, accepted at once (asked first), with the count said.
  const acceptAll = admin.getByRole("button", { name: fill(en.adminGames.review.acceptAll_other, { count: 4 }) });
  await acceptAll.click();
  const dialog = admin.getByRole("dialog", { name: fill(en.adminGames.review.acceptAllTitle_other, { count: 4 }) });
  await dialog.getByRole("button", { name: fill(en.adminGames.review.acceptAll_other, { count: 4 }) }).click();
  await expect(admin.getByRole("status").filter({ hasText: fill(en.adminGames.review.acceptedAll_other, { count: 4 }) })).toBeVisible();
  await expect(admin.getByText(en.adminGames.review.noMatch)).toBeVisible();
  await expect(status.locator("option", { hasText: fill(en.adminGames.review.statusCount, { status: en.games.status.Accepted, count: 52 }) })).toHaveCount(1);
  await expect(acceptAll).toHaveCount(0);

  // Writeups: the 52 accepted teams are listed, one has uploaded.
  const pdf = Buffer.from(`%PDF-1.4\n% ${stamp}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
  const writer = players[45]!;
  expect((await writer.api.post(`/api/game/${gameId}/writeup`, { multipart: { file: { name: "w.pdf", mimeType: "application/pdf", buffer: pdf } } })).status()).toBe(200);
  await admin.goto(`/admin/games/${gameId}/Writeups`);
  const writeupRows = admin.locator("tbody tr");
  await expect(admin.getByTestId("writeup-counts")).toHaveText(fill(en.writeups.admin.counts, { submitted: 1, total: 52 }), FIRST_LOAD);
  // 52 accepted teams: a page holds 50.
  await expect(writeupRows).toHaveCount(50);
  const shownWriteups = admin.getByLabel(en.writeups.admin.filter);
  await shownWriteups.selectOption("missing");
  await expect(writeupRows).toHaveCount(50);
  await shownWriteups.selectOption("submitted");
  await expect(writeupRows).toHaveCount(1);
  await expect(writeupRows.first()).toContainText(writer.teamName);
  await expect(admin).toHaveURL(/[?&]show=submitted/);
  await shownWriteups.selectOption("all");
  await admin.getByLabel(en.writeups.admin.search).fill(players[7]!.teamName);
  await expect(writeupRows).toHaveCount(1);
  await expect(writeupRows.first()).toContainText(en.writeups.notSubmitted);
  await admin.getByLabel(en.writeups.admin.search).fill("no such team");
  await expect(admin.getByText(en.writeups.admin.noMatch)).toBeVisible();
  await admin.getByLabel(en.writeups.admin.search).fill("");
  await expect(writeupRows).toHaveCount(50);

  // The viewer opens under the table and is brought into sight. The PDF is held back meanwhile: once
  // loaded, Chromium's PDF viewer takes the focus and scrolls to it by itself, which other browsers' do not
  // (so this comes last: a search typed while it loads could land in the viewer instead of the box).
  const pdfUrl = /\/assets\/[0-9a-f]{64}\/Writeup-/;
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await admin.route(pdfUrl, async (route) => {
    await held;
    await route.continue();
  });
  await admin.getByTestId(`writeup-row-${writer.teamId}`).getByRole("button", { name: en.writeups.admin.view }).click();
  await expect(admin.getByTitle(fill(en.writeups.admin.viewerTitle, { team: writer.teamName }))).toBeInViewport();
  release();

  await Promise.all(players.map((p) => p.api.dispose()));
});

test("after a rejection the captain's Apply again has the team's division chosen, still changeable, and sends at once", async ({ adminApi: admin, page }) => {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  // Review asked (the divisions keep RequireReview); the team applied in the second of two divisions.
  const created = await admin.post("/api/edit/games", {
    data: { title: `Again ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: false, divisions: [{ name: `Red ${stamp}` }, { name: `Blue ${stamp}` }] },
  });
  expect(created.status()).toBe(200);
  const gameId = ((await created.json()) as { id: number }).id;
  const game = (await (await admin.get(`/api/edit/games/${gameId}`)).json()) as { divisions: { id: number; name: string }[] };
  const blue = game.divisions.find((d) => d.name === `Blue ${stamp}`)!;
  await registerUser(page);
  const team = (await (await page.request.post("/api/team", { data: { name: `R${stamp}`.slice(0, 20) } })).json()) as { id: number };
  expect((await page.request.post(`/api/game/${gameId}`, { data: { teamId: team.id, divisionId: blue.id } })).status()).toBe(200);
  const participations = (await (await admin.get(`/api/game/${gameId}/participations`)).json()) as { id: number; team: { id: number } }[];
  const participation = participations.find((p) => p.team.id === team.id)!;
  expect((await admin.put(`/api/admin/participation/${participation.id}/Rejected`, { data: {} })).status()).toBe(200);

  await page.goto(`/games/${gameId}`);
  await expect(page.locator("[data-status]")).toHaveText(en.games.status.Rejected, FIRST_LOAD);
  await expect(page.getByText(`· Blue ${stamp}`)).toBeVisible();
  await page.getByRole("button", { name: en.games.reapply }).click();
  const dialog = page.getByRole("dialog");
  const division = dialog.getByRole("combobox", { name: en.games.join.division });
  await expect(division).toHaveValue(String(blue.id));
  await expect(division).toBeEnabled();
  await expect(division.locator("option")).toHaveText([en.games.join.chooseDivision, `Red ${stamp}`, `Blue ${stamp}`]);
  // Sent as it opened, the application goes through, in that division.
  await dialog.getByRole("button", { name: en.games.join.submit, exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator("[data-status]")).toHaveText(en.games.status.Pending);
  await expect(page.getByText(`· Blue ${stamp}`)).toBeVisible();
});

test("the division select saves a choice at once, and what the arrow keys step through once, on Tab or Enter", async ({ adminPage: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const names = ["Amber", "Birch", "Cedar"].map((name) => `${name} ${stamp}`);
  const created = await admin.request.post("/api/edit/games", {
    data: { title: `Keys ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true, divisions: names.map((name) => ({ name })) },
  });
  expect(created.status()).toBe(200);
  const gameId = ((await created.json()) as { id: number }).id;
  const game = (await (await admin.request.get(`/api/edit/games/${gameId}`)).json()) as { divisions: { id: number; name: string }[] };
  const [amber, birch, cedar] = names.map((name) => game.divisions.find((d) => d.name === name)!.id);
  const context = await browser.newContext();
  await registerUser(context.request);
  const teamName = `K${stamp}`.slice(0, 20);
  const team = (await (await context.request.post("/api/team", { data: { name: teamName } })).json()) as { id: number };
  expect((await context.request.post(`/api/game/${gameId}`, { data: { teamId: team.id, divisionId: amber } })).status()).toBe(200);
  await context.close();
  const divisionNow = async () =>
    ((await (await admin.request.get(`/api/game/${gameId}/participations`)).json()) as { team: { id: number }; divisionId: number | null }[]).find(
      (p) => p.team.id === team.id,
    )!.divisionId;

  // Every save of the division the page sends, with what it sent.
  const saves: unknown[] = [];
  admin.on("request", (request) => {
    if (request.method() === "PUT" && /\/api\/admin\/participation\/\d+$/.test(request.url())) saves.push(request.postDataJSON());
  });
  await admin.goto(`/admin/games/${gameId}/Review`);
  const select = admin.getByRole("combobox", { name: fill(en.adminGames.review.changeDivision, { team: teamName }) });
  await expect(select).toHaveValue(String(amber), FIRST_LOAD);
  // The row says when its division was saved, beside the select.
  const saved = admin.getByRole("row").filter({ has: select }).getByRole("status");
  await expect(saved).toHaveText("");

  // Two steps down with the closed select, then Tab: one save, of the last division.
  await select.focus();
  await admin.keyboard.press("ArrowDown");
  await admin.keyboard.press("ArrowDown");
  await expect(select).toHaveValue(String(cedar));
  expect(saves).toEqual([]);
  await admin.keyboard.press("Tab");
  await expect.poll(divisionNow).toBe(cedar);
  expect(saves).toEqual([{ divisionId: cedar }]);
  await expect(select).toHaveValue(String(cedar));
  await expect(saved).toHaveText(en.adminGames.review.divisionSaved);
  // The page has its answer (a change while a save is under way is not taken).
  await expect(select).not.toHaveAttribute("aria-disabled", "true");

  // A step up, then Enter: saved once, and the focus stays on the select.
  await select.focus();
  await admin.keyboard.press("ArrowUp");
  expect(saves).toHaveLength(1);
  await admin.keyboard.press("Enter");
  await expect.poll(divisionNow).toBe(birch);
  expect(saves).toEqual([{ divisionId: cedar }, { divisionId: birch }]);
  await expect(select).toBeFocused();
  await expect(select).not.toHaveAttribute("aria-disabled", "true");
  // Leaving it then saves nothing more.
  await admin.keyboard.press("Tab");
  await expect(select).not.toBeFocused();

  // A choice made from the list (as with the pointer) is saved at once, without leaving the select.
  await select.selectOption(String(amber));
  await expect.poll(divisionNow).toBe(amber);
  expect(saves).toEqual([{ divisionId: cedar }, { divisionId: birch }, { divisionId: amber }]);
  await expect(select).toHaveValue(String(amber));
});

/**
 * A running game that accepts without review, and a new player's team accepted into it: the game, the
 * participation's id, the team's name and a read of the participation's status as the API gives it now.
 */
async function acceptedTeam(admin: Page, browser: Browser, title: string, prefix: string) {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const created = await admin.request.post("/api/edit/games", { data: { title: `${title} ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true } });
  expect(created.status()).toBe(200);
  const gameId = ((await created.json()) as { id: number }).id;
  const context = await browser.newContext();
  await registerUser(context.request);
  const teamName = `${prefix}${stamp}`.slice(0, 20);
  const team = (await (await context.request.post("/api/team", { data: { name: teamName } })).json()) as { id: number };
  expect((await context.request.post(`/api/game/${gameId}`, { data: { teamId: team.id } })).status()).toBe(200);
  await context.close();
  const statusNow = async () =>
    ((await (await admin.request.get(`/api/game/${gameId}/participations`)).json()) as { id: number; team: { id: number }; status: string }[]).find((p) => p.team.id === team.id)!;
  const { id } = await statusNow();
  return { gameId, id, teamName, statusNow };
}

test("a Reject confirmed on a row another admin suspended meanwhile is refused: the team stays suspended and its row shows it", async ({ adminPage: admin, browser }) => {
  const { gameId, id, teamName, statusNow } = await acceptedTeam(admin, browser, "Stale", "St");

  await admin.goto(`/admin/games/${gameId}/Review`);
  const row = admin.getByTestId(`participation-${id}`);
  await expect(row.locator("[data-status]")).toHaveText(en.games.status.Accepted, FIRST_LOAD);
  // The page's refresh of the list is held: this tab still shows the team accepted while another suspends it.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await admin.route(`**/api/game/${gameId}/participations`, async (route) => {
    await held;
    await route.continue();
  });
  expect((await admin.request.put(`/api/admin/participation/${id}/Suspended`, { data: {} })).status()).toBe(200);

  await row.getByRole("button", { name: `${en.adminGames.review.action.Rejected} ${teamName}`, exact: true }).click();
  const dialog = admin.getByRole("dialog", { name: fill(en.adminGames.review.confirm.rejectTitle, { team: teamName }) });
  await expect(dialog).toContainText(en.adminGames.review.confirm.reject);
  const put = admin.waitForResponse((response) => response.request().method() === "PUT" && new URL(response.url()).pathname === `/api/admin/participation/${id}/Rejected`);
  await dialog.getByRole("button", { name: en.adminGames.review.action.Rejected, exact: true }).click();
  const answer = await put;
  expect(answer.request().postDataJSON()).toEqual({ expectedStatus: "Accepted" });
  expect(answer.status()).toBe(409);
  release();

  // Nothing changed: the dialog is gone, the page says why, and the row shows the status it has now.
  await expect(dialog).toBeHidden();
  await expect(admin.getByRole("alert").filter({ hasText: enErrors.participation.status_changed })).toBeVisible();
  await expect(row.locator("[data-status]")).toHaveText(en.games.status.Suspended);
  expect((await statusNow()).status).toBe("Suspended");
});

test("rejecting a suspended team asks first, saying that it lifts the ban; Cancel keeps it suspended", async ({ adminPage: admin, browser }) => {
  const { gameId, id, teamName, statusNow } = await acceptedTeam(admin, browser, "Lift", "Li");
  expect((await admin.request.put(`/api/admin/participation/${id}/Suspended`, { data: {} })).status()).toBe(200);

  await admin.goto(`/admin/games/${gameId}/Review`);
  const row = admin.getByTestId(`participation-${id}`);
  await expect(row.locator("[data-status]")).toHaveText(en.games.status.Suspended, FIRST_LOAD);
  const reject = row.getByRole("button", { name: `${en.adminGames.review.action.Rejected} ${teamName}`, exact: true });
  const dialog = admin.getByRole("dialog", { name: fill(en.adminGames.review.confirm.rejectTitle, { team: teamName }) });
  await reject.click();
  await expect(dialog).toContainText(en.adminGames.review.confirm.rejectSuspended);
  await dialog.getByRole("button", { name: en.teams.cancel, exact: true }).click();
  await expect(dialog).toBeHidden();
  expect((await statusNow()).status).toBe("Suspended");

  await reject.click();
  await dialog.getByRole("button", { name: en.adminGames.review.action.Rejected, exact: true }).click();
  await expect(row.locator("[data-status]")).toHaveText(en.games.status.Rejected);
  expect((await statusNow()).status).toBe("Rejected");
});
