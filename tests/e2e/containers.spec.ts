import { readFileSync } from "node:fs";
import type { APIRequestContext } from "@playwright/test";
import { ruleViolations } from "./axe";
import { expect, registerUser, smallTargets, test } from "./fixtures";

type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;
const K = en.container;
const ja = JSON.parse(readFileSync(new URL("../../app/locales/ja-JP/common.json", import.meta.url), "utf8")) as Strings;
const I = en.adminInstances;

const HOUR = 3_600_000;
// Built by container-agent/scripts/test-image.sh on the engine `npm start` finds (DOCKER_HOST, see playwright.config.ts).
const TEST_IMAGE = "flagstaff-test/busybox:latest";

/**
 * A game (running for two more hours unless `game` says otherwise, accepting without review) with one enabled
 * DynamicContainer challenge `title` on `image`.
 */
async function containerChallenge(admin: APIRequestContext, title: string, game: Record<string, unknown>, image = TEST_IMAGE) {
  const now = Date.now();
  const created = await admin.post("/api/edit/games", { data: { start: now - HOUR, end: now + 2 * HOUR, acceptWithoutReview: true, ...game } });
  expect(created.status()).toBe(200);
  const gameId = ((await created.json()) as { id: number }).id;
  const challenge = await admin.post(`/api/edit/games/${gameId}/challenges`, { data: { title, category: "Web", type: "DynamicContainer" } });
  const challengeId = ((await challenge.json()) as { id: number }).id;
  const enabled = await admin.put(`/api/edit/games/${gameId}/challenges/${challengeId}`, {
    data: { containerImage: image, exposePort: 80, memoryLimit: 32, flagTemplate: "flag{[TEAM_HASH]}", isEnabled: true },
  });
  expect(enabled.status(), await enabled.text()).toBe(200);
  return { gameId, challengeId };
}

/** Removes the team's container as the admin (the player's own destroy waits out the 10-s cooldown). */
async function removeTeamContainer(admin: APIRequestContext, teamId: number) {
  const instances = (await (await admin.get("/api/admin/instances")).json()) as { data: { containerGuid: string; team: { id: number } }[] };
  const guid = instances.data.find((i) => i.team.id === teamId)!.containerGuid;
  expect((await admin.delete(`/api/admin/instances/${guid}`)).status()).toBe(200);
}

test("a player starts a container from the challenge view, sees its entry and countdown, and destroys it", async ({ adminPage: admin, browser }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const { gameId, challengeId } = await containerChallenge(admin.request, `Box ${stamp}`, { title: `Boxes ${stamp}` });

  const context = await browser.newContext();
  const player = await context.newPage();
  const { userName } = await registerUser(player);
  const team = await player.request.post("/api/team", { data: { name: `C${stamp}`.slice(0, 20) } });
  const teamName = ((await team.json()) as { name: string }).name;
  const teamId = ((await team.json()) as { id: number }).id;
  expect((await player.request.post(`/api/game/${gameId}`, { data: { teamId } })).status()).toBe(200);

  // Below, the panel's own path for a container gone elsewhere is under test (its next action is refused and it
  // reads the challenge again): the team channel's containerChanged, which drops the entry by itself
  // (live-changes.spec.ts), is held back from this page, or it would race the click.
  let held = 0;
  await player.routeWebSocket(new RegExp(`/hub/game/${gameId}$`), (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      if (String(message).includes('"type":"containerChanged"')) held++;
      else ws.send(message);
    });
  });
  await player.goto(`/games/${gameId}/challenges`);
  await player.getByRole("button", { name: new RegExp(`Box ${stamp}`) }).click();
  const panel = player.getByRole("region", { name: K.heading });
  await expect(panel.getByText(K.none)).toBeVisible();
  await panel.getByRole("button", { name: K.start }).click();

  // Default port mapping: the entry is host:port, and the container answers there with the team's flag.
  const entry = panel.getByTestId("container-entry");
  await expect(entry).toHaveText(/^[\w.-]+:\d+$/, { timeout: 30_000 });
  const address = (await entry.textContent())!;
  // The Start button is gone: the focus moves to the new container's details, and the start is said.
  await expect(panel.getByTestId("container-details")).toBeFocused();
  await expect(panel.getByRole("status").filter({ hasText: K.started })).toHaveCount(1);
  const timer = panel.getByRole("timer", { name: K.remaining });
  await expect(timer).toHaveText(/^01:59:\d\d$/);
  // The details list stays a definition list with its countdown in it (axe: no role on a list's items).
  expect(await ruleViolations(player, ["definition-list", "dlitem", "aria-allowed-role"])).toEqual([]);
  const first = (await timer.textContent())!;
  await expect(timer).not.toHaveText(first);
  await expect(panel.getByText(K.extendHint.replace("{{min}}", "10"))).toBeVisible();
  await expect(panel.getByRole("button", { name: K.extend })).toBeDisabled();
  // A disabled button looks disabled (the secondary style once looked the same either way).
  await expect(panel.getByRole("button", { name: K.extend })).toHaveCSS("opacity", "0.5");
  // The entry can be opened and copied.
  await expect(panel.getByRole("link", { name: K.open })).toHaveAttribute("href", `http://${address}`);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await panel.getByRole("button", { name: en.copy.copy }).click();
  await expect(panel.getByRole("button", { name: en.copy.copied })).toBeVisible();
  // Said to screen readers too (a focused button's new name is not read out), then gone with the label.
  await expect(panel.getByRole("status").filter({ hasText: en.copy.announced })).toHaveCount(1);
  await expect(panel.getByRole("button", { name: en.copy.copy })).toBeVisible({ timeout: 5_000 });
  await expect(panel.getByRole("status").filter({ hasText: en.copy.announced })).toHaveCount(0);
  expect(await player.evaluate(() => navigator.clipboard.readText())).toBe(address);
  const env = await player.request.get(`http://${address}/env`);
  expect(env.status()).toBe(200);
  expect(await env.text()).toMatch(/FLAGSTAFF_FLAG=flag\{.+\}/);

  // The admin sees it on /admin/instances.
  await admin.goto("/admin/instances");
  const row = admin.getByRole("row").filter({ hasText: teamName });
  await expect(row).toContainText(`Box ${stamp}`);
  await expect(row).toContainText(TEST_IMAGE);
  await expect(row).toContainText(I.state.Running);

  // Destroyed elsewhere (here by the admin; a teammate's click is the same) while the panel that started it
  // still shows it: its next action fails, and it reads the challenge again instead of keeping a dead entry.
  const destroyElsewhere = async () => {
    const instances = (await (await admin.request.get("/api/admin/instances")).json()) as { data: { containerGuid: string; team: { name: string } }[] };
    const guid = instances.data.find((i) => i.team.name === teamName)!.containerGuid;
    expect((await admin.request.delete(`/api/admin/instances/${guid}`)).status()).toBe(200);
  };
  await destroyElsewhere();
  // Destroy asks first (the confirmation names what is lost); confirmed, the refusal is said in the panel.
  const confirm = player.getByRole("dialog", { name: K.destroyTitle });
  await panel.getByRole("button", { name: K.destroy }).click();
  await expect(confirm).toContainText(K.destroyConfirm);
  await confirm.getByRole("button", { name: K.destroy }).click();
  const refusedAt = Date.now();
  await expect(confirm).toHaveCount(0);
  await expect(panel.getByText(K.none)).toBeVisible();
  await expect(panel.getByTestId("container-entry")).toHaveCount(0);
  // What was held back: the start's and the removal's notes to the team.
  await expect.poll(() => held).toBeGreaterThanOrEqual(2);

  // The player starts another (one operation per 10 seconds: the cooldown is waited out); reopening the
  // challenge shows it; the player destroys it.
  await player.waitForTimeout(Math.max(0, refusedAt + 10_500 - Date.now()));
  await panel.getByRole("button", { name: K.start }).click();
  await expect(panel.getByTestId("container-entry")).toHaveText(/^[\w.-]+:\d+$/, { timeout: 30_000 });
  const second = (await panel.getByTestId("container-entry").textContent())!;
  const startedAt = Date.now();
  // Extend says it worked, with the new expiry. Extension opens 10 minutes before a 2-hour container's end,
  // which the test cannot wait for: this page is told a wider renewal window, and its extension is answered
  // with the new expiry the platform would give (the server side is the containers integration test's).
  const EXTENSION = 2 * HOUR;
  await player.route(/\/api\/config$/, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...((await response.json()) as object), renewalWindow: 24 * 60 } });
  });
  let extendedTo = 0;
  await player.route(`**/api/game/${gameId}/container/${challengeId}/extend`, async (route) => {
    const detail = (await (await player.request.get(`/api/game/${gameId}/challenges/${challengeId}`)).json()) as { context: { closeTime: number; instanceEntry: string } };
    extendedTo = detail.context.closeTime + EXTENSION;
    await route.fulfill({ json: { status: "Running", startedAt, expectStopAt: extendedTo, entry: detail.context.instanceEntry } });
  });
  await player.reload();
  await expect(panel.getByTestId("container-entry")).toHaveText(second);
  const expiresAt = panel.locator("dt", { hasText: K.expiresAt }).locator("+ dd");
  const expiryBefore = await expiresAt.textContent();
  await panel.getByRole("button", { name: K.extend }).click();
  const extended = panel.getByRole("status").filter({ hasText: K.extended.split("{{")[0]! });
  await expect(extended).toBeVisible();
  expect(extendedTo).toBeGreaterThan(0);
  await expect(expiresAt).not.toHaveText(expiryBefore!);
  await expect(extended).toHaveText(K.extended.replace("{{time}}", (await expiresAt.textContent())!));
  await player.unroute(`**/api/game/${gameId}/container/${challengeId}/extend`);
  await player.waitForTimeout(Math.max(0, startedAt + 10_500 - Date.now()));
  // Cancelling the confirmation keeps the container; confirming destroys it.
  await panel.getByRole("button", { name: K.destroy }).click();
  await confirm.getByRole("button", { name: en.teams.cancel }).click();
  await expect(confirm).toHaveCount(0);
  await expect(panel.getByTestId("container-entry")).toHaveText(second);
  await panel.getByRole("button", { name: K.destroy }).click();
  await confirm.getByRole("button", { name: K.destroy }).click();
  await expect(panel.getByText(K.none)).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByRole("button", { name: K.start })).toBeEnabled();
  // The Destroy button is gone: the focus is on Start container, and the destruction is said.
  await expect(panel.getByRole("button", { name: K.start })).toBeFocused();
  await expect(panel.getByRole("status").filter({ hasText: K.destroyed })).toHaveCount(1);
  for (const gone of [address, second]) {
    await expect.poll(async () => (await player.request.get(`http://${gone}/env`).catch(() => null))?.status() ?? 0, { timeout: 20_000 }).not.toBe(200);
  }

  await admin.reload();
  await expect(admin.getByRole("row").filter({ hasText: teamName })).toHaveCount(0);

  // The monitor's events say who started and who destroyed each: the admin's removal names no player, the
  // player's names them.
  await admin.goto(`/games/${gameId}/monitor/events?containers=shown`);
  const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? "");
  await expect(admin.getByText(fill(en.monitor.event.ContainerStart, { team: teamName, user: userName, challenge: `Box ${stamp}` }), { exact: true })).toHaveCount(2);
  await expect(admin.getByText(fill(en.monitor.event.ContainerRemoved, { team: teamName, challenge: `Box ${stamp}` }), { exact: true })).toHaveCount(1);
  await expect(admin.getByText(fill(en.monitor.event.ContainerDestroy, { team: teamName, user: userName, challenge: `Box ${stamp}` }), { exact: true })).toHaveCount(1);
  await context.close();
});

test("on a touch screen the container's Copy and Open controls are at least 44 px", async ({ adminApi: admin, browser }) => {
  test.setTimeout(60_000);
  const stamp = Date.now().toString(36);
  const { gameId, challengeId } = await containerChallenge(admin, `Tbox ${stamp}`, { title: `Touch boxes ${stamp}` });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const player = await context.newPage();
  await registerUser(player);
  const team = (await (await player.request.post("/api/team", { data: { name: `T${stamp}`.slice(0, 20) } })).json()) as { id: number };
  expect((await player.request.post(`/api/game/${gameId}`, { data: { teamId: team.id } })).status()).toBe(200);
  expect((await player.request.post(`/api/game/${gameId}/container/${challengeId}`)).status()).toBe(200);
  await player.goto(`/games/${gameId}/challenges?challenge=${challengeId}`);
  const panel = player.getByRole("region", { name: K.heading });
  await expect(panel.getByTestId("container-entry")).toHaveText(/^[\w.-]+:\d+$/);
  for (const control of [panel.getByRole("button", { name: en.copy.copy }), panel.getByRole("link", { name: K.open })]) {
    const box = (await control.boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(43.5);
  }
  expect(await smallTargets(player)).toEqual([]);
  await removeTeamContainer(admin, team.id);
  await context.close();
});

test("a container the game's end removes first shows that end as its expiry and offers no extension; in practice mode, its own (ja-JP)", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  // The default lifetime (120 minutes) runs past this game's end.
  const { gameId, challengeId } = await containerChallenge(admin, `Endbox ${stamp}`, { title: `Ends first ${stamp}`, end: Date.now() + 20 * 60_000, practiceMode: false });
  const context = await browser.newContext({ locale: "ja-JP" });
  const player = await context.newPage();
  await registerUser(player);
  const team = (await (await player.request.post("/api/team", { data: { name: `E${stamp}`.slice(0, 20) } })).json()) as { id: number };
  expect((await player.request.post(`/api/game/${gameId}`, { data: { teamId: team.id } })).status()).toBe(200);
  expect((await player.request.post(`/api/game/${gameId}/container/${challengeId}`)).status()).toBe(200);
  const { renewalWindow } = (await (await player.request.get("/api/config")).json()) as { renewalWindow: number };

  await player.goto(`/games/${gameId}/challenges?challenge=${challengeId}`);
  const panel = player.getByRole("region", { name: ja.container.heading });
  await expect(panel.getByTestId("container-entry")).toHaveText(/^[\w.-]+:\d+$/, { timeout: 30_000 });
  // The list's second definition is the expiry (entry, expiry, time left).
  const expiry = panel.getByRole("definition").nth(1);
  await expect(panel.getByText(ja.container.removedAtEnd)).toBeVisible();
  await expect(panel.getByRole("button", { name: ja.container.extend, exact: true })).toBeDisabled();
  const atEnd = await expiry.textContent();
  // Twenty minutes at most (HH:mm:ss), not the two hours of the container's own expiry.
  await expect(panel.getByRole("timer")).toHaveText(/^00:(0\d|1\d|20):\d\d$/);

  // In practice mode the end removes nothing: the container's own expiry is shown, and when it may be extended.
  expect((await admin.put(`/api/edit/games/${gameId}`, { data: { practiceMode: true } })).status()).toBe(200);
  await player.reload();
  await expect(panel.getByText(ja.container.extendHint.replace("{{min}}", String(renewalWindow)))).toBeVisible({ timeout: 15_000 });
  await expect(panel.getByText(ja.container.removedAtEnd)).toHaveCount(0);
  await expect(expiry).not.toHaveText(atEnd!);

  await removeTeamContainer(admin, team.id);
  await context.close();
});

test("a container that fails to start says so, and the message stays while the panel reads the challenge again", async ({ adminApi: admin, browser }) => {
  const stamp = Date.now().toString(36);
  const { gameId, challengeId } = await containerChallenge(admin, `Broken box ${stamp}`, { title: `Broken ${stamp}` }, "flagstaff-test/broken:latest");
  const context = await browser.newContext();
  const player = await context.newPage();
  await registerUser(player);
  const team = await player.request.post("/api/team", { data: { name: `X${stamp}`.slice(0, 20) } });
  expect((await player.request.post(`/api/game/${gameId}`, { data: { teamId: ((await team.json()) as { id: number }).id } })).status()).toBe(200);
  await player.goto(`/games/${gameId}/challenges`);
  await player.getByRole("button", { name: new RegExp(`Broken box ${stamp}`) }).click();
  const panel = player.getByRole("region", { name: K.heading });
  // After a failure the panel reads the challenge again at once and 3 s later: the message outlives both.
  let rereads = 0;
  player.on("response", (response) => {
    if (new URL(response.url()).pathname === `/api/game/${gameId}/challenges/${challengeId}`) rereads++;
  });
  await panel.getByRole("button", { name: K.start }).click();
  const failure = panel.getByRole("alert");
  await expect(failure).toBeVisible({ timeout: 30_000 });
  const message = await failure.textContent();
  const before = rereads;
  await expect.poll(() => rereads - before, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  await expect(failure).toHaveText(message!);
  await expect(panel.getByText(K.none)).toBeVisible();
  await context.close();
});

test("an admin runs a test container from the challenge editor and opens the Traffic page", async ({ adminPage: admin }) => {
  test.setTimeout(60_000);
  const now = Date.now();
  const stamp = now.toString(36);
  const game = await admin.request.post("/api/edit/games", { data: { title: `Tests ${stamp}`, start: now - HOUR, end: now + 2 * HOUR } });
  const gameId = ((await game.json()) as { id: number }).id;
  const created = await admin.request.post(`/api/edit/games/${gameId}/challenges`, { data: { title: `Probe ${stamp}`, category: "Misc", type: "DynamicContainer" } });
  const challengeId = ((await created.json()) as { id: number }).id;
  expect((await admin.request.put(`/api/edit/games/${gameId}/challenges/${challengeId}`, { data: { containerImage: TEST_IMAGE, exposePort: 80, flagTemplate: "flag{[TEAM_HASH]}" } })).status()).toBe(200);

  await admin.goto(`/admin/games/${gameId}/challenges/${challengeId}`);
  const panel = admin.getByRole("region", { name: en.testContainer.heading });
  await expect(panel.getByText(en.testContainer.none)).toBeVisible();
  await panel.getByRole("button", { name: en.testContainer.start }).click();
  const entry = panel.getByTestId("test-container-entry");
  await expect(entry).toHaveText(/^[\w.-]+:\d+$/, { timeout: 30_000 });
  await expect(panel.getByText("flag{TestTeamHash}")).toBeVisible();
  const env = await admin.request.get(`http://${await entry.textContent()}/env`);
  expect(await env.text()).toContain("FLAGSTAFF_TEAM_ID=admin");
  // The page loaded while the container was still starting (its first read answers Pending, no entry): the
  // panel says it is starting and reads again until the entry shows, without a reload.
  const address = await entry.textContent();
  await admin.route(
    `**/api/edit/games/${gameId}/challenges/${challengeId}`,
    async (route) => {
      const response = await route.fetch();
      const detail = (await response.json()) as { testContainer: { status: string; entry: string } | null };
      expect(detail.testContainer?.status).toBe("Running");
      await route.fulfill({ response, json: { ...detail, testContainer: { ...detail.testContainer, status: "Pending", entry: "" } } });
    },
    { times: 1 },
  );
  await admin.reload();
  await expect(panel.getByTestId("test-container-starting")).toHaveText(en.testContainer.starting);
  await expect(entry).toHaveText(address!, { timeout: 10_000 });
  await expect(panel.getByTestId("test-container-starting")).toHaveCount(0);
  await panel.getByRole("button", { name: en.testContainer.stop }).click();
  await expect(panel.getByText(en.testContainer.none)).toBeVisible({ timeout: 30_000 });

  await admin.goto(`/games/${gameId}/monitor/traffic`);
  await expect(admin.getByText(en.traffic.noChallenges)).toBeVisible();
});

test("the Traffic page refreshes its lists every 10 seconds and keeps the selection", async ({ adminPage: admin }) => {
  test.setTimeout(60_000);
  const now = Date.now();
  const stamp = now.toString(36);
  const game = await admin.request.post("/api/edit/games", { data: { title: `Captures ${stamp}`, start: now - HOUR, end: now + 2 * HOUR } });
  const gameId = ((await game.json()) as { id: number }).id;
  const captured = async (title: string) => {
    const created = await admin.request.post(`/api/edit/games/${gameId}/challenges`, { data: { title, category: "Misc", type: "DynamicContainer" } });
    const id = ((await created.json()) as { id: number }).id;
    const updated = await admin.request.put(`/api/edit/games/${gameId}/challenges/${id}`, { data: { containerImage: TEST_IMAGE, enableTrafficCapture: true } });
    expect(updated.status(), await updated.text()).toBe(200);
  };
  await captured(`First ${stamp}`);

  // The page's clock runs as usual; the test jumps it to the lists' next refresh instead of waiting 10 s.
  await admin.clock.install();
  await admin.goto(`/games/${gameId}/monitor/traffic`);
  const list = admin.getByRole("region", { name: en.traffic.challenges });
  const first = list.getByRole("button", { name: new RegExp(`First ${stamp}`) });
  await first.click();
  await expect(first).toHaveAttribute("aria-pressed", "true");
  await expect(admin.getByText(en.traffic.noTeams)).toBeVisible();

  // A challenge set to capture after the page loaded shows up with the next refresh (rules.md §15: 10 s).
  await captured(`Second ${stamp}`);
  await admin.clock.fastForward(10_000);
  await expect(list.getByRole("button", { name: new RegExp(`Second ${stamp}`) })).toBeVisible();
  await expect(first).toHaveAttribute("aria-pressed", "true");
  await expect(admin.getByText(en.traffic.noTeams)).toBeVisible();
});
