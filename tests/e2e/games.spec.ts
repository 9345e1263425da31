import { readFileSync } from "node:fs";
import type { WebSocketRoute } from "@playwright/test";
import { expect, expectRefusedAt, holdReads, hubGreeted, interpolate as fill, registerUser, shownNumber, test } from "./fixtures";

// Labels come from the locale files, so rewording a string does not break the flow under test.
type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;
const FIRST_LOAD = { timeout: 15_000 };

test("admin creates a game with a division and code, a captain joins, admin accepts, the team locks, notices arrive live", async ({ adminPage, browser }) => {
  // A whole season in one flow (create, join, accept, lock, notices, end, unlock): 22.8 s on an idle
  // machine, over the 30 s default when the suite runs beside it (clean runs of 2026-11-26).
  test.slow();
  const admin = adminPage;
  const title = `Game ${Date.now().toString(36)}`;

  // The admin creates a game that is already running.
  await admin.goto("/admin/games");
  await admin.getByRole("button", { name: en.adminGames.new }).click(FIRST_LOAD);
  const create = admin.getByRole("dialog", { name: en.adminGames.newTitle });
  await create.getByLabel(en.adminGames.field.title).fill(title);
  const pad = (n: number) => String(n).padStart(2, "0");
  const local = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  await create.getByLabel(en.adminGames.field.start).fill(local(new Date(Date.now() - 3_600_000)));
  await create.getByLabel(en.adminGames.field.end).fill(local(new Date(Date.now() + 24 * 3_600_000)));
  await create.getByRole("button", { name: en.adminGames.create, exact: true }).click();
  await expect(admin).toHaveURL(/\/admin\/games\/\d+\/info$/);
  const gameId = Number(/games\/(\d+)\/info/.exec(admin.url())![1]);
  await expect(admin.getByLabel(en.adminGames.field.publicKey)).toHaveValue(/^[A-Za-z0-9+/]{43}=$/);

  // A division with its own invitation code.
  await admin.getByRole("button", { name: en.adminGames.addDivision }).click();
  await admin.getByLabel(fill(en.adminGames.divisionName, { n: 1 })).fill("Students");
  await admin.getByLabel(fill(en.adminGames.divisionCode, { n: 1 })).fill("letmein");
  await admin.getByRole("button", { name: en.adminGames.save, exact: true }).click();
  await expect(admin.getByText(en.adminGames.saved)).toBeVisible();

  // A captain in a second browser context creates a team and joins.
  const playerContext = await browser.newContext();
  const player = await playerContext.newPage();
  await registerUser(player);
  const teamName = `P${Date.now().toString(36).slice(-6)}`;
  const created = await player.request.post("/api/team", { data: { name: teamName } });
  expect(created.status()).toBe(200);
  const team = (await created.json()) as { id: number };
  const code = (await (await player.request.get(`/api/team/${team.id}/invite`)).json()) as string;
  const memberContext = await browser.newContext();
  await registerUser(await memberContext.newPage());
  expect((await memberContext.request.post("/api/team/accept", { data: JSON.stringify(code), headers: { "content-type": "application/json" } })).status()).toBe(200);

  await player.goto(`/games/${gameId}`);
  await expect(player.getByRole("heading", { name: title })).toBeVisible(FIRST_LOAD);
  // Closed with Escape, the dialog gives the focus back to the button that opened it.
  await player.getByRole("button", { name: en.games.join.open }).click();
  await expect(player.getByRole("dialog")).toBeVisible();
  await player.keyboard.press("Escape");
  await expect(player.getByRole("dialog")).toHaveCount(0);
  await expect(player.getByRole("button", { name: en.games.join.open })).toBeFocused();
  await player.getByRole("button", { name: en.games.join.open }).click();
  const join = player.getByRole("dialog");
  await join.getByLabel(en.games.join.division).selectOption({ label: "Students" });
  await join.getByLabel(en.games.join.inviteCode).fill("wrong");
  await join.getByRole("button", { name: en.games.join.submit, exact: true }).click();
  // The server's refusal of the code stands at the code field, which takes the focus.
  await expectRefusedAt(join.getByLabel(en.games.join.inviteCode), "Incorrect team invitation code");
  await join.getByLabel(en.games.join.inviteCode).fill("letmein");
  await join.getByRole("button", { name: en.games.join.submit, exact: true }).click();
  await expect(join).toBeHidden();
  await expect(player.locator("[data-status]")).toHaveText(en.games.status.Pending);
  // The join button is gone: the focus is on the result instead of the page.
  await expect(player.getByTestId("game-message")).toBeFocused();

  // The other member joins later: the team's division is fixed (no choice of division), and its code is
  // asked, as the server asks it of every member.
  const member = memberContext.pages()[0]!;
  await member.goto(`/games/${gameId}`);
  await member.getByRole("button", { name: en.games.join.open }).click(FIRST_LOAD);
  const memberJoin = member.getByRole("dialog");
  await expect(memberJoin.getByTestId("join-team-division")).toContainText("Students");
  await expect(memberJoin.getByText(en.games.join.teamDivisionHint)).toBeVisible();
  await expect(memberJoin.getByRole("combobox", { name: en.games.join.division })).toHaveCount(0);
  await memberJoin.getByRole("button", { name: en.games.join.submit, exact: true }).click();
  await expectRefusedAt(memberJoin.getByLabel(en.games.join.inviteCode), en.games.join.codeRequired);
  await memberJoin.getByLabel(en.games.join.inviteCode).fill("letmein");
  await memberJoin.getByRole("button", { name: en.games.join.submit, exact: true }).click();
  await expect(memberJoin).toBeHidden();
  await expect(member.locator("[data-status]")).toHaveText(en.games.status.Pending);
  await expect(member.getByText(`${teamName} · Students`)).toBeVisible();

  // The player's join message stayed through the page's own reading after the join (the team is Pending).
  await expect(player.getByTestId("game-message")).toBeVisible();
  await expect(player.locator("[data-status]")).toHaveText(en.games.status.Pending);

  // The admin accepts the team on the review tab.
  await admin.getByRole("link", { name: en.adminGames.tab.review }).click();
  const row = admin.getByRole("row").filter({ hasText: teamName });
  await expect(row.locator("[data-status]")).toHaveText(en.games.status.Pending);
  await row.getByRole("button", { name: en.adminGames.review.action.Accepted }).click();
  await expect(row.locator("[data-status]")).toHaveText(en.games.status.Accepted);
  await expect(row).toContainText(en.adminTeams.locked);
  // The player's open page reads the game again (told by the game's socket, every 30 s, or on coming back to
  // the tab): the badge says Accepted and the join's "waiting for review" goes, instead of contradicting it.
  await player.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  await expect(player.locator("[data-status]")).toHaveText(en.games.status.Accepted);
  await expect(player.getByTestId("game-message")).toHaveCount(0);

  // The team is locked: the team page says so, offers no removal, transfer or disbanding, and removing
  // the member is refused.
  await player.goto("/teams");
  await expect(player.getByText(en.teams.lockedNote)).toBeVisible(FIRST_LOAD);
  for (const label of [en.teams.kick, en.teams.makeCaptain, en.teams.disband]) await expect(player.getByRole("button", { name: label, exact: true })).toHaveCount(0);
  const kicked = await player.request.post(`/api/team/${team.id}/kick/${(await (await memberContext.request.get("/api/account/profile")).json()).userId}`);
  expect(kicked.status()).toBe(400);

  // The player keeps the game page open; a notice posted by the admin appears without reload.
  await player.goto(`/games/${gameId}`);
  await expect(player.locator("[data-status]")).toHaveText(en.games.status.Accepted, FIRST_LOAD);
  await expect(player.locator("[data-socket-state]")).toHaveAttribute("data-socket-state", "open");
  await admin.getByRole("link", { name: en.adminGames.tab.notices }).click();
  const notice = `Hint: **look closer** ${Date.now().toString(36)}`;
  await admin.getByLabel(en.adminGames.noticeContent).fill(notice);
  await admin.getByRole("button", { name: en.adminGames.postNotice }).click();
  await expect(admin.getByTestId("notice").first()).toContainText("look closer");
  // In the page's list (the live region that says it to screen readers holds it too).
  const live = player.getByRole("list", { name: en.notices.title }).getByTestId("notice").filter({ hasText: "look closer" });
  await expect(live).toBeVisible();
  await expect(live.locator("strong")).toHaveText("look closer");

  // Once the game has ended the lock is no longer in force: the page says nothing of it and offers removal.
  expect((await admin.request.put(`/api/edit/games/${gameId}`, { data: { end: Date.now() - 1000, start: Date.now() - 3_600_000 } })).status()).toBe(200);
  await player.goto("/teams");
  await expect(player.getByRole("button", { name: en.teams.kick, exact: true })).toBeVisible(FIRST_LOAD);
  await expect(player.getByText(en.teams.lockedNote)).toHaveCount(0);

  await playerContext.close();
  await memberContext.close();
});

test("the notice form shows its refusals at the text, until the text changes", async ({ adminPage: page }) => {
  const now = Date.now();
  const created = await page.request.post("/api/edit/games", { data: { title: `Notices ${now.toString(36)}`, start: now - 3_600_000, end: now + 3_600_000 } });
  const { id } = (await created.json()) as { id: number };
  await page.goto(`/admin/games/${id}/notices`);
  const text = page.getByLabel(en.adminGames.noticeContent, { exact: true });
  const post = page.getByRole("button", { name: en.adminGames.postNotice, exact: true });
  await expect(text).toBeVisible(FIRST_LOAD);
  // The form's own check: nothing to post.
  await post.click();
  await expectRefusedAt(text, en.adminGames.noticeEmpty);
  await text.fill("Doors");
  await expect(text).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(en.adminGames.noticeEmpty)).toHaveCount(0);
  // The server's: a control character in the text.
  await text.fill("Doors \u0007open");
  const answer = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === `/api/edit/games/${id}/notices`);
  await post.click();
  const refused = await answer;
  expect(refused.status()).toBe(400);
  expect(refused.headers()["x-error-field"]).toBe("content");
  const message = ((await refused.json()) as { title: string }).title;
  await expectRefusedAt(text, message);
  await text.fill("Doors open");
  await expect(text).not.toHaveAttribute("aria-invalid", "true");
  await post.click();
  await expect(page.getByTestId("notice").first()).toContainText("Doors open");
  await expect(text).toHaveValue("");
});

test("the games page pages back to older games", async ({ adminPage: admin }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  // 51 games older than any other (the list is newest first): at least one is past the first page of 50.
  const base = Date.UTC(2001, 0, 1);
  for (let i = 0; i < 51; i += 17) {
    await Promise.all(
      Array.from({ length: Math.min(17, 51 - i) }, (_, j) =>
        admin.request.post("/api/edit/games", { data: { title: `Old ${stamp} ${i + j}`, start: base + (i + j) * 3_600_000, end: base + (i + j + 1) * 3_600_000 } }),
      ),
    );
  }
  const page = admin;
  await page.goto("/games");
  const oldest = page.getByRole("heading", { name: `Old ${stamp} 0`, exact: true });
  await expect(page.getByRole("heading", { name: `Old ${stamp} 50`, exact: true }).or(page.getByRole("button", { name: en.games.loadMore })).first()).toBeVisible(FIRST_LOAD);
  await expect(oldest).toHaveCount(0);
  // "Older games" until the oldest shows (other tests' games may sit in front of ours).
  for (let i = 0; i < 5 && (await oldest.count()) === 0; i++) {
    await page.getByRole("button", { name: en.games.loadMore }).click();
    await expect(page.getByRole("button", { name: en.games.loadMore }).or(oldest).first()).toBeVisible();
    await page.waitForTimeout(200);
  }
  await expect(oldest).toBeVisible();
  await expect(page.getByRole("heading", { name: new RegExp(`^Old ${stamp} \\d+$`) })).toHaveCount(51);
});

test("a refresh of the games list reads the older pages shown again: a game pushed off the first page is neither lost nor shown twice", async ({ adminApi: admin, page }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const HOUR = 3_600_000;
  // 52 games that start after any other test's (the list is newest first): they lead the list, the two
  // oldest of them past the first page of 50.
  const base = Date.UTC(2200, 0, 1);
  const title = (i: number) => `Lead ${stamp} ${i}`;
  for (let i = 0; i < 52; i += 13) {
    const created = await Promise.all(
      Array.from({ length: 13 }, (_, j) => admin.post("/api/edit/games", { data: { title: title(i + j), start: base + (i + j) * HOUR, end: base + (i + j + 1) * HOUR } })),
    );
    for (const response of created) expect(response.status()).toBe(200);
  }
  // The page's own clock, so the test can jump it to the list's periodic refresh (5 minutes).
  await page.clock.install();
  await page.goto("/games");
  const cards = page.getByRole("main").getByRole("listitem");
  const mine = async () => (await cards.getByRole("heading").allTextContents()).filter((text) => text.startsWith(`Lead ${stamp} `));
  const older = page.getByRole("button", { name: en.games.loadMore });
  // The button reads "Loading…" while its page is read.
  const readingOlder = page.getByRole("button", { name: en.common.loading });
  await expect(cards.getByRole("heading", { name: title(51), exact: true })).toBeVisible(FIRST_LOAD);
  await expect(cards.getByRole("heading", { name: title(0), exact: true })).toHaveCount(0);
  // "Older games" until all 52 show (another run of this test may have put its games among these).
  for (let i = 0; i < 4 && !(await cards.getByRole("heading", { name: title(0), exact: true }).isVisible()); i++) {
    await older.click();
    await expect(readingOlder).toHaveCount(0);
  }
  const expected = Array.from({ length: 52 }, (_, i) => title(51 - i));
  await expect.poll(mine).toEqual(expected);

  // Meanwhile an admin adds the newest game of all: it pushes the 50th game off the first page. The
  // list's periodic refresh reads the first page again; the page that "Older games" brought is read again
  // with it, so the pushed game shows (first on the older page) and no game shows twice.
  const newest = `Newest ${stamp}`;
  expect((await admin.post("/api/edit/games", { data: { title: newest, start: base + 60 * HOUR, end: base + 61 * HOUR } })).status()).toBe(200);
  const refreshed = page.waitForResponse((r) => /\/api\/game\?count=50&skip=0$/.test(r.url()));
  await page.clock.fastForward("05:05");
  await refreshed;
  const all = async () => (await cards.getByRole("heading").allTextContents()).filter((text) => text.startsWith(`Lead ${stamp} `) || text === newest);
  await expect.poll(all).toEqual([newest, ...expected]);
  // "Older games" again, while there are more: still every game once.
  if (await older.isVisible()) {
    await older.click();
    await expect(readingOlder).toHaveCount(0);
  }
  await expect.poll(all).toEqual([newest, ...expected]);
  const links = await cards.getByRole("link").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  expect(new Set(links).size).toBe(links.length);
});

test("the game page reads older notices beyond the first 100", async ({ adminPage: admin }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const created = await admin.request.post("/api/edit/games", { data: { title: `Notices ${stamp}`, start: now - 3_600_000, end: now + 3_600_000 } });
  expect(created.ok()).toBe(true);
  const gameId = ((await created.json()) as { id: number }).id;
  // 101 notices, posted one after another so their order is their number.
  for (let i = 0; i < 101; i++) expect((await admin.request.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Notice ${stamp} ${i}` } })).ok()).toBe(true);
  // The page's feed passes through the test, which can drop it.
  const feeds: WebSocketRoute[] = [];
  await admin.routeWebSocket(new RegExp(`/hub/game/${gameId}$`), (ws) => {
    feeds.push(ws);
    ws.connectToServer();
  });
  await admin.goto(`/games/${gameId}`);
  const list = admin.getByRole("list", { name: en.notices.title });
  await expect(list.getByText(`Notice ${stamp} 100`, { exact: true })).toBeVisible(FIRST_LOAD);
  await expect(list.getByText(`Notice ${stamp} 0`, { exact: true })).toHaveCount(0);
  await expect(admin.getByRole("region", { name: en.notices.title }).locator("[data-socket-state]")).toHaveAttribute("data-socket-state", "open");
  await admin.getByRole("button", { name: en.notices.loadMore }).click();
  await expect(list.getByText(`Notice ${stamp} 0`, { exact: true })).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(101);
  await expect(admin.getByRole("button", { name: en.notices.loadMore })).toHaveCount(0);

  // The feed drops; the page reconnects and reads its notices again from the top: the older page it had
  // loaded stays (a read of the first page once replaced the whole list and took notice 0 away).
  const reread = admin.waitForResponse((r) => r.url().endsWith(`/api/game/${gameId}/notices?count=100`));
  await feeds.at(-1)!.close({ code: 1011 });
  await reread;
  await expect(admin.getByRole("region", { name: en.notices.title }).locator("[data-socket-state]")).toHaveAttribute("data-socket-state", "open");
  await admin.waitForTimeout(500);
  await expect(list.getByText(`Notice ${stamp} 0`, { exact: true })).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(101);
  await expect(admin.getByRole("button", { name: en.notices.loadMore })).toHaveCount(0);
});

test("a notice posted while the game page's notices are read stays listed when that read lands", async ({ adminPage: admin }) => {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const created = await admin.request.post("/api/edit/games", { data: { title: `Held notices ${stamp}`, start: now - 3_600_000, end: now + 3_600_000 } });
  const gameId = ((await created.json()) as { id: number }).id;
  // The page's read of the notices is answered now (before the notice below exists) but reaches the page
  // only after the notice's push.
  const marker = `Held ${stamp}`;
  const firstRead = await holdReads(admin, new RegExp(`/api/game/${gameId}/notices\\?count=100$`), (rows) => [...rows, { id: 1_000_000_000, type: "Normal", values: [marker], time: now - 3_600_000 }]);
  await admin.goto(`/games/${gameId}`);
  const notices = admin.getByRole("region", { name: en.notices.title });
  await expect(notices.locator("[data-socket-state]")).toHaveAttribute("data-socket-state", "open", FIRST_LOAD);
  await firstRead.answered;

  expect((await admin.request.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Meanwhile ${stamp}` } })).ok()).toBe(true);
  const pushed = notices.getByTestId("notice").filter({ hasText: `Meanwhile ${stamp}` });
  await expect(pushed).toHaveCount(1);
  firstRead.release();
  await expect(notices.getByTestId("notice").filter({ hasText: marker })).toHaveCount(1);
  await expect(pushed).toHaveCount(1);
  await firstRead.stop();
});

test("the admin notices page shows notices posted elsewhere without a reload", async ({ adminPage: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const created = await admin.request.post("/api/edit/games", { data: { title: `Live notices ${stamp}`, start: now - 3_600_000, end: now + 3_600_000 } });
  const gameId = ((await created.json()) as { id: number }).id;
  const greeted = hubGreeted(admin, `/hub/game/${gameId}`);
  await admin.goto(`/admin/games/${gameId}/notices`);
  await expect(admin.getByText(en.notices.empty)).toBeVisible(FIRST_LOAD);
  await greeted;
  // Another admin session posts one.
  const other = await browser.newContext({ storageState: await admin.context().storageState() });
  expect((await other.request.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Elsewhere ${stamp}` } })).ok()).toBe(true);
  await expect(admin.getByText(`Elsewhere ${stamp}`)).toBeVisible({ timeout: 5_000 });
  await other.close();
});

test("a notice posted after the admin notices page read its list, before its socket was greeted, still shows", async ({ adminPage: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const created = await admin.request.post("/api/edit/games", { data: { title: `Window ${stamp}`, start: now - 3_600_000, end: now + 3_600_000 } });
  const gameId = ((await created.json()) as { id: number }).id;
  // The page's read of the list is answered by the server at once and handed to the page only later; the
  // notice is posted in between, so neither the list nor the socket (opened after the list) carries it.
  const firstRead = await holdReads(admin, new RegExp(`/api/edit/games/${gameId}/notices$`), (rows) => rows);
  const greeted = hubGreeted(admin, `/hub/game/${gameId}`);
  await admin.goto(`/admin/games/${gameId}/notices`);
  await firstRead.answered;
  const other = await browser.newContext({ storageState: await admin.context().storageState() });
  expect((await other.request.post(`/api/edit/games/${gameId}/notices`, { data: { content: `Between ${stamp}` } })).ok()).toBe(true);
  await other.close();
  firstRead.release();
  await greeted;
  // The greeting says a message for all came after the page began reading: the page reads its list again.
  await expect(admin.getByText(`Between ${stamp}`)).toBeVisible();
  await firstRead.stop();
});

test("an admin uploads a game poster and removes it again", async ({ adminPage: admin }) => {
  // A 1×1 transparent PNG.
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
  const now = Date.now();
  const created = await admin.request.post("/api/edit/games", { data: { title: `Poster ${now.toString(36)}`, start: now + 3_600_000, end: now + 7_200_000 } });
  const gameId = ((await created.json()) as { id: number }).id;
  await admin.goto(`/admin/games/${gameId}/info`);
  await expect(admin.getByText(en.adminGames.noPoster)).toBeVisible(FIRST_LOAD);
  await expect(admin.getByRole("button", { name: en.adminGames.removePoster })).toHaveCount(0);
  await admin.getByText(en.adminGames.uploadPoster, { exact: true }).locator("input[type=file]").setInputFiles({ name: "poster.png", mimeType: "image/png", buffer: png });
  await expect(admin.getByRole("img", { name: en.adminGames.posterAlt })).toBeVisible();
  await admin.getByRole("button", { name: en.adminGames.removePoster, exact: true }).click();
  const dialog = admin.getByRole("dialog");
  await expect(dialog).toContainText(en.adminGames.removePosterConfirm);
  await dialog.getByRole("button", { name: en.adminGames.removePoster, exact: true }).click();
  await expect(admin.getByText(en.adminGames.noPoster)).toBeVisible();
  await expect(admin.getByRole("img", { name: en.adminGames.posterAlt })).toHaveCount(0);
  expect(((await (await admin.request.get(`/api/edit/games/${gameId}`)).json()) as { poster: string | null }).poster).toBeNull();
});

test("/admin/games pages through every game, 20 at a time", async ({ adminPage: page }) => {
  const total = async () => ((await (await page.request.get("/api/edit/games?count=1")).json()) as { total: number }).total;
  // Hidden games that started long ago: they sort last and no player list shows them. A year before the
  // games of "/games loads older games" (2001), which would otherwise tie with the oldest here.
  const stamp = Date.now().toString(36);
  const start = Date.UTC(2000, 0, 1);
  const oldest = `Oldest ${stamp}`;
  const created = await page.request.post("/api/edit/games", { data: { title: oldest, start, end: start + 3_600_000, hidden: true } });
  expect(created.status()).toBe(200);
  for (let i = await total(); i < 21; i++) {
    await page.request.post("/api/edit/games", { data: { title: `Filler ${stamp} ${i}`, start: start + 60_000, end: start + 3_600_000, hidden: true } });
  }
  const before = await total();

  await page.goto("/admin/games");
  const rows = page.locator('[data-testid^="admin-game-"]');
  await expect(rows).toHaveCount(20, FIRST_LOAD);
  const pager = page.getByRole("navigation", { name: en.adminGames.pagination });
  // Other tests add games meanwhile: the pager counts the games there were when the page read them.
  const pages = await shownNumber(pager, en.pager.pageOf, { page: 1 }, "pages");
  expect(pages).toBeGreaterThanOrEqual(Math.ceil(before / 20));
  expect(pages).toBeLessThanOrEqual(Math.ceil((await total()) / 20));
  await pager.getByRole("link", { name: en.pager.next }).click();
  await expect(page).toHaveURL(/[?&]page=2$/);
  expect(await shownNumber(pager, en.pager.pageOf, { page: 2 }, "pages")).toBeGreaterThanOrEqual(pages);

  // The last page holds the game that started first, and offers no Next.
  await page.goto(`/admin/games?page=${Math.ceil((await total()) / 20)}`);
  let last = await shownNumber(pager, en.pager.pageOf, {}, "page");
  // A game added since may have made one more page: the oldest is then on it.
  while ((await pager.getByRole("link", { name: en.pager.next }).count()) > 0) {
    await pager.getByRole("link", { name: en.pager.next }).click();
    last += 1;
    await shownNumber(pager, en.pager.pageOf, { page: last }, "pages");
  }
  await expect(page.getByRole("link", { name: oldest })).toBeVisible();
});

test("the home page's recent games carry the state badge /games shows: upcoming, running, ended", async ({ adminApi: admin, page }) => {
  const stamp = Date.now().toString(36);
  const now = Date.now();
  const HOUR = 3_600_000;
  const spans = { NotStarted: [now + HOUR, now + 2 * HOUR], Running: [now - HOUR, now + HOUR], Ended: [now - 2 * HOUR, now - HOUR] } as const;
  const games: { phase: keyof typeof spans; row: Record<string, unknown> }[] = [];
  for (const [phase, [start, end]] of Object.entries(spans) as [keyof typeof spans, readonly [number, number]][]) {
    const created = await admin.post("/api/edit/games", { data: { title: `Home ${phase} ${stamp}`, start, end } });
    expect(created.status()).toBe(200);
    const game = (await created.json()) as { id: number; title: string; summary: string; poster: string | null; start: number; end: number };
    games.push({ phase, row: { id: game.id, title: game.title, summary: game.summary, poster: game.poster, start: game.start, end: game.end, limit: 0 } });
  }
  // Other tests' games may come before these in the six newest: the home page's read answers with these three.
  await page.route(/\/api\/game\?count=6$/, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { data: games.map((g) => g.row), total: games.length } });
  });
  await page.goto("/");
  const recent = page.getByRole("region", { name: en.home.recentGames });
  for (const { phase, row } of games) {
    const card = recent.getByRole("listitem").filter({ has: page.getByRole("link", { name: String(row.title) }) });
    await expect(card.locator("[data-phase]")).toHaveAttribute("data-phase", phase, FIRST_LOAD);
    await expect(card.locator("[data-phase]")).toHaveText(en.games.phase[phase]);
  }
});

test("the game editor asks before unsaved edits are left, for its fields, switches and divisions; saved, it does not", async ({ adminPage: page }) => {
  const now = Date.now();
  const created = await page.request.post("/api/edit/games", { data: { title: `Leave ${now.toString(36)}`, start: now + 3_600_000, end: now + 7_200_000 } });
  const { id } = (await created.json()) as { id: number };
  await page.goto(`/admin/games/${id}/info`);
  const sections = page.getByRole("navigation", { name: en.adminGames.tabs });
  const leave = page.getByRole("dialog", { name: en.leaveGuard.title });
  const summary = page.getByLabel(en.adminGames.field.summary);
  await expect(summary).toBeVisible();

  // A field typed in: Stay keeps it.
  await summary.fill("not saved yet");
  await sections.getByRole("link", { name: en.adminGames.tab.challenges }).click();
  await expect(leave).toBeVisible();
  await leave.getByRole("button", { name: en.teams.cancel, exact: true }).click();
  await expect(summary).toHaveValue("not saved yet");
  // Typed back as it was, there is nothing to lose.
  await summary.fill("");
  await sections.getByRole("link", { name: en.adminGames.tab.notices }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/games/${id}/notices$`, "i"));
  await expect(leave).toHaveCount(0);

  // A switch turned: Leave goes without saving it.
  await page.goBack();
  const hidden = page.getByLabel(en.adminGames.field.hidden);
  await expect(hidden).toBeVisible();
  await hidden.click();
  await sections.getByRole("link", { name: en.adminGames.tab.review }).click();
  await leave.getByRole("button", { name: en.leaveGuard.leave, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/games/${id}/review$`, "i"));
  const stored = (await (await page.request.get(`/api/edit/games/${id}`)).json()) as { hidden: boolean; summary: string };
  expect(stored.hidden).toBe(false);

  // Saved, the edits are nothing to ask about.
  await page.goBack();
  await expect(summary).toBeVisible();
  await summary.fill("saved now");
  await page.getByRole("button", { name: en.adminGames.save, exact: true }).click();
  await expect(page.getByText(en.adminGames.saved)).toBeVisible();
  await sections.getByRole("link", { name: en.adminGames.tab.challenges }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/games/${id}/challenges$`, "i"));
  await expect(leave).toHaveCount(0);
});

test("the game editor shows a refusal the server names a field of at that field, the writeup deadline at its hours, until that field changes", async ({ adminPage: page }) => {
  const now = Date.now();
  const created = await page.request.post("/api/edit/games", { data: { title: `Fields ${now.toString(36)}`, start: now + 3_600_000, end: now + 7_200_000 } });
  const { id } = (await created.json()) as { id: number };
  await page.goto(`/admin/games/${id}/info`);
  const title = page.getByLabel(en.adminGames.field.title, { exact: true });
  const summary = page.getByLabel(en.adminGames.field.summary, { exact: true });
  const end = page.getByLabel(en.adminGames.field.end, { exact: true });
  const hours = page.getByLabel(en.adminGames.field.writeupHours, { exact: true });
  const note = page.getByLabel(en.adminGames.field.writeupNote, { exact: true });
  const saveButton = page.getByRole("button", { name: en.adminGames.save, exact: true });
  await expect(title).toBeVisible(FIRST_LOAD);
  const refusal = async (field: string) => {
    const answer = page.waitForResponse((r) => r.request().method() === "PUT" && new URL(r.url()).pathname === `/api/edit/games/${id}`);
    await saveButton.click();
    const refused = await answer;
    expect(refused.status()).toBe(400);
    expect(refused.headers()["x-error-field"]).toBe(field);
    return ((await refused.json()) as { title: string }).title;
  };

  // The form's own check stands at the field the same way.
  await title.fill("");
  await saveButton.click();
  await expectRefusedAt(title, en.adminGames.titleTimeRequired);
  // A tab in the title passes the form's own checks; the server refuses the title.
  await title.fill(`Fields\t${now.toString(36)}`);
  await summary.fill("kept");
  const titleRefused = await refusal("title");
  await expectRefusedAt(title, titleRefused);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(summary).not.toHaveAttribute("aria-invalid", "true");
  // Another field's change leaves it; the title's takes it away.
  await summary.fill("kept too");
  await expect(title).toHaveAttribute("aria-invalid", "true");
  await title.fill(`Fields ${now.toString(36)}`);
  await expect(title).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(titleRefused)).toHaveCount(0);

  // A writeup deadline past the latest time: the API names writeupDeadline, made of the end and the hours after it.
  await end.fill("9999-12-30T00:00");
  await hours.fill("48");
  const deadlineRefused = await refusal("writeupDeadline");
  await expectRefusedAt(hours, deadlineRefused);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(end).not.toHaveAttribute("aria-invalid", "true");
  await note.fill("another field");
  await expect(hours).toHaveAttribute("aria-invalid", "true");
  await hours.fill("24");
  await expect(hours).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(deadlineRefused)).toHaveCount(0);
  // Refused again, a change of the end takes it away too (the deadline moves with it).
  await hours.fill("48");
  expect(await refusal("writeupDeadline")).toBe(deadlineRefused);
  await expectRefusedAt(hours, deadlineRefused);
  await end.fill(new Date(now + 10_800_000).toISOString().slice(0, 16));
  await expect(hours).not.toHaveAttribute("aria-invalid", "true");

  // An end before the start: the API names the end; a change of the start takes it away too.
  const start = page.getByLabel(en.adminGames.field.start, { exact: true });
  await end.fill(new Date(now + 1_800_000).toISOString().slice(0, 16));
  const endRefused = await refusal("end");
  expect(endRefused).toBe("The end time must be after the start time");
  await expectRefusedAt(end, endRefused);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await note.fill("another field again");
  await expect(end).toHaveAttribute("aria-invalid", "true");
  await start.fill(new Date(now + 900_000).toISOString().slice(0, 16));
  await expect(end).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(endRefused)).toHaveCount(0);

  // Nothing refused was saved.
  const stored = (await (await page.request.get(`/api/edit/games/${id}`)).json()) as { title: string; summary: string };
  expect(stored).toMatchObject({ title: `Fields ${now.toString(36)}`, summary: "" });
});

test("the admin game pages and the public game page link to each other for those who may use them, and the game's Content has Write / Preview", async ({ adminPage: admin, browser }) => {
  const now = Date.now();
  const stamp = now.toString(36);
  const created = await admin.request.post("/api/edit/games", { data: { title: `Linked ${stamp}`, start: now - 3_600_000, end: now + 3_600_000 } });
  const { id } = (await created.json()) as { id: number };

  // From the admin pages: the public page and the monitor.
  await admin.goto(`/admin/games/${id}/info`);
  const main = admin.getByRole("main");
  await expect(main.getByRole("link", { name: en.adminGames.monitorLink, exact: true })).toHaveAttribute("href", `/games/${id}/monitor/events`);
  await main.getByRole("link", { name: en.adminGames.publicPage, exact: true }).click();
  await expect(admin).toHaveURL(new RegExp(`/games/${id}$`));
  // Back from the public page to the editor.
  await main.getByRole("link", { name: en.games.edit, exact: true }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/games/${id}/info$`));

  // The Content field: Write / Preview as the other Markdown editors, and saved from either.
  const content = admin.getByLabel(en.adminGames.field.content, { exact: true });
  await content.fill(`**Bold ${stamp}** text`);
  await admin.getByRole("button", { name: en.posts.preview, exact: true }).click();
  await expect(admin.getByRole("button", { name: en.posts.preview, exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(admin.getByTestId("content-preview").locator("strong")).toHaveText(`Bold ${stamp}`);
  await expect(content).toBeHidden();
  await admin.getByRole("button", { name: en.adminGames.save, exact: true }).click();
  await expect(admin.getByText(en.adminGames.saved)).toBeVisible();
  expect(((await (await admin.request.get(`/api/edit/games/${id}`)).json()) as { content: string }).content).toBe(`**Bold ${stamp}** text`);
  await admin.getByRole("button", { name: en.posts.write, exact: true }).click();
  await expect(content).toHaveValue(`**Bold ${stamp}** text`);

  // A monitor has the monitor views on the public page, not the editor; a player has neither.
  const monitorContext = await browser.newContext();
  const monitor = await monitorContext.newPage();
  const { userName } = await registerUser(monitor.request);
  const found = (await (await admin.request.post(`/api/admin/users/search?hint=${encodeURIComponent(userName)}`)).json()) as { data: { id: string; userName: string }[] };
  const monitorId = found.data.find((u) => u.userName === userName)!.id;
  expect((await admin.request.put(`/api/admin/users/${monitorId}`, { data: { role: "Monitor" } })).status()).toBe(200);
  await monitor.goto(`/games/${id}`);
  await expect(monitor.getByRole("heading", { name: `Linked ${stamp}` })).toBeVisible();
  const tabs = monitor.getByRole("navigation", { name: en.gameTabs.label });
  await expect(tabs.getByRole("link", { name: en.monitor.events, exact: true })).toHaveAttribute("href", `/games/${id}/monitor/events`);
  await expect(monitor.getByRole("link", { name: en.games.edit, exact: true })).toHaveCount(0);
  await monitorContext.close();

  const playerContext = await browser.newContext();
  const player = await playerContext.newPage();
  await registerUser(player.request);
  await player.goto(`/games/${id}`);
  await expect(player.getByRole("heading", { name: `Linked ${stamp}` })).toBeVisible();
  await expect(player.getByRole("link", { name: en.games.edit, exact: true })).toHaveCount(0);
  await expect(player.getByRole("navigation", { name: en.gameTabs.label }).getByRole("link", { name: en.monitor.events, exact: true })).toHaveCount(0);
  await playerContext.close();
});
