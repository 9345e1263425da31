import { eq } from "drizzle-orm";
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { sha256Hex } from "~/.server/auth/session";
import { users } from "~/.server/db/schema";
import { announceChallengeChange, announceContainerChange } from "~/.server/services/sockets";
import { HUB_HEADERS, parseRelayFrames, type RelayItem, RELAY_TOKEN_HEADER } from "~/core/protocol";
import { reauthorizeGameSocket } from "~/core/socket-access";
import { AdminHub } from "../../workers/admin-hub/admin-hub";
import { createGame, join, newAdmin, room, seedPlayers, teamWithMembers, updateGame, userIdOf } from "./game-helpers";
import { Client, db, newUser, PASSWORD } from "./helpers";
import { waitForMailLink } from "../support/mail-reader";

async function openSocket(client: Awaited<ReturnType<typeof newUser>>["client"], path: string) {
  const res = await client.fetch(path, { headers: { upgrade: "websocket" } });
  return res;
}

describe("hub sockets", () => {
  it("lets admins subscribe to the admin hub and delivers published messages", async () => {
    const { client, userName } = await newUser();
    expect((await openSocket(client, "/hub/admin")).status).toBe(403);
    await db().update(users).set({ role: "Admin" }).where(eq(users.userName, userName));
    const res = await openSocket(client, "/hub/admin");
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const received: { type: string; data: unknown; seq: number }[] = [];
    const got = new Promise<void>((resolve) => {
      ws.addEventListener("message", (e) => {
        received.push(JSON.parse(e.data as string));
        if (received.length === 2) resolve();
      });
    });
    ws.accept();
    const stub = env.ADMIN_HUB.get(env.ADMIN_HUB.idFromName("admin"));
    // Wait for the hello before publishing.
    await new Promise((r) => setTimeout(r, 50));
    const sent = await stub.publish("admin", "log", { time: 1, name: "x", level: "Information", ip: null, msg: "hello", status: null });
    expect(sent).toBeGreaterThanOrEqual(1);
    await got;
    expect(received[0]).toMatchObject({ type: "hello", data: { channel: "admin" } });
    expect(received[1]).toMatchObject({ type: "log", data: { msg: "hello" } });
    expect(received[1]!.seq).toBeGreaterThan(received[0]!.seq);
    ws.close(1000);
    // A closed socket is no longer sent to: a publish reaches exactly the sockets still open.
    const after = { time: 2, name: "x", level: "Information" as const, ip: null, msg: "after", status: null };
    await expect.poll(async () => (await stub.publish("admin", "log", after)) - (await stub.connectionCount("admin")), { timeout: 2000, interval: 50 }).toBe(0);
  });

  it("stores sequence numbers within a quarter second, and a restarted object continues past them with a gap", async () => {
    const stub = env.ADMIN_HUB.get(env.ADMIN_HUB.idFromName(`seq-${crypto.randomUUID()}`));
    const log = { time: 1, name: "x", level: "Information" as const, ip: null, msg: "m", status: null };
    for (let i = 0; i < 3; i++) await stub.publish("admin", "log", log);
    const stored = () => runInDurableObject(stub, (_instance, state) => state.storage.get<number>("seq:admin"));
    await expect.poll(stored, { timeout: 2000, interval: 50 }).toBe(3);
    // A new instance on the same storage (the object after a crash or a reset) may have lost the last
    // numbers of its predecessor: it starts far enough past the stored one that every client sees a gap.
    await runInDurableObject(stub, async (_instance, state) => {
      const restarted = new AdminHub(state, env);
      await restarted.publish("admin", "log", log);
    });
    await expect.poll(stored, { timeout: 2000, interval: 50 }).toBe(3 + 100_000 + 1);
  });

  it("greets with when the channel's last message for all was sent, kept across a restart", async () => {
    const stub = env.ADMIN_HUB.get(env.ADMIN_HUB.idFromName(`last-at-${crypto.randomUUID()}`));
    const greeting = async (hub: { fetch(request: Request): Promise<Response> }) => {
      const res = await hub.fetch(new Request("http://hub/", { headers: { upgrade: "websocket", [HUB_HEADERS.channel]: "admin" } }));
      const ws = res.webSocket!;
      const hello = new Promise<{ type: string; seq: number; data: { lastAt?: number } }>((resolve) => ws.addEventListener("message", (e) => resolve(JSON.parse(e.data as string)), { once: true }));
      ws.accept();
      const got = await hello;
      ws.close(1000);
      return got;
    };
    expect((await greeting(stub)).data.lastAt).toBe(0);
    const log = { time: 1, name: "x", level: "Information" as const, ip: null, msg: "m", status: null };
    const before = Date.now();
    await stub.publish("admin", "log", log);
    const after = Date.now();
    const lastAt = (await greeting(stub)).data.lastAt!;
    expect(lastAt).toBeGreaterThanOrEqual(before);
    expect(lastAt).toBeLessThanOrEqual(after);
    // Stored with the sequence numbers: an instance on the same storage (after hibernation) says the same.
    await expect.poll(() => runInDurableObject(stub, (_instance, state) => state.storage.get<number>("lastAt:admin")), { timeout: 2000, interval: 50 }).toBe(lastAt);
    const restarted = await runInDurableObject(stub, (_instance, state) => greeting(new AdminHub(state, env)));
    expect(restarted.data.lastAt).toBe(lastAt);
    // A message for board readers only (a hidden game's delta) takes no number but counts; a team's does not.
    type Publisher = { publishMany(messages: { channel: "admin"; type: "log"; data: typeof log; teamId?: number; boardReadersOnly?: boolean }[]): Promise<number> };
    const publishAs = (m: { teamId?: number; boardReadersOnly?: boolean }) =>
      runInDurableObject(stub, (instance) => (instance as unknown as Publisher).publishMany([{ channel: "admin", type: "log", data: log, ...m }]));
    const seqBefore = (await greeting(stub)).seq;
    await publishAs({ teamId: 1 });
    expect((await greeting(stub)).data.lastAt).toBe(lastAt);
    const beforeReaders = Date.now();
    await publishAs({ boardReadersOnly: true });
    const afterReaders = await greeting(stub);
    expect(afterReaders.seq).toBe(seqBefore);
    expect(afterReaders.data.lastAt).toBeGreaterThan(lastAt);
    expect(afterReaders.data.lastAt).toBeGreaterThanOrEqual(beforeReaders);
  });

  it("refuses anonymous admin sockets and unknown games", async () => {
    const { client } = await newUser();
    expect((await openSocket(client, "/hub/game/999999")).status).toBe(404);
    const plain = await client.fetch("/hub/admin");
    expect(plain.status).toBe(404);
  });
});

describe("game notices over the game socket", () => {
  async function newAdminClient() {
    const admin = await newUser();
    await db().update(users).set({ role: "Admin" }).where(eq(users.userName, admin.userName));
    return admin.client;
  }

  async function createGameAs(admin: Awaited<ReturnType<typeof newAdminClient>>, fields: Record<string, unknown> = {}) {
    const now = Date.now();
    const r = await admin.json<{ id: number }>("/api/edit/games", {
      method: "POST",
      body: { title: "Live notices", start: now - 3_600_000, end: now + 3_600_000, ...fields },
    });
    expect(r.status).toBe(200);
    return r.body.id;
  }

  it("delivers a notice posted by an admin to an open socket", async () => {
    const admin = await newAdminClient();
    const gameId = await createGameAs(admin);
    const { client: player } = await newUser();
    const res = await openSocket(player, `/hub/game/${gameId}`);
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const frames: { type: string; data: { id?: number; type?: string; values?: string[] } }[] = [];
    const gotNotice = new Promise<void>((resolve) => {
      ws.addEventListener("message", (e) => {
        const frame = JSON.parse(e.data as string);
        frames.push(frame);
        if (frame.type === "notice") resolve();
      });
    });
    ws.accept();
    await new Promise((r) => setTimeout(r, 50));
    const posted = await admin.json<{ id: number }>(`/api/edit/games/${gameId}/notices`, { method: "POST", body: { content: "Flag format fixed" } });
    expect(posted.status).toBe(200);
    await gotNotice;
    const notice = frames.find((f) => f.type === "notice")!;
    expect(notice.data).toMatchObject({ id: posted.body.id, type: "Normal", values: ["Flag format fixed"] });
    // Deleting it tells the open page to drop it, with the next channel sequence number.
    expect((await admin.json(`/api/edit/games/${gameId}/notices/${posted.body.id}`, { method: "DELETE" })).status).toBe(200);
    const deadline = Date.now() + 5_000;
    while (!frames.some((f) => f.type === "noticeDeleted") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const deleted = frames.find((f) => f.type === "noticeDeleted") as { seq: number; data: { id: number } } | undefined;
    expect(deleted?.data).toEqual({ id: posted.body.id });
    expect(deleted!.seq).toBe((notice as unknown as { seq: number }).seq + 1);
    ws.close(1000);
  });

  it("opens a hidden game's socket only to monitors, admins and its players", async () => {
    const admin = await newAdminClient();
    const gameId = await createGameAs(admin, { hidden: true, acceptWithoutReview: true });
    expect((await openSocket(new Client(), `/hub/game/${gameId}`)).status).toBe(404);
    const { client: stranger } = await newUser();
    expect((await openSocket(stranger, `/hub/game/${gameId}`)).status).toBe(403);
    const adminSocket = await openSocket(admin, `/hub/game/${gameId}`);
    expect(adminSocket.status).toBe(101);
    adminSocket.webSocket!.accept();
    adminSocket.webSocket!.close(1000);
    const { client: monitor, userName } = await newUser();
    await db().update(users).set({ role: "Monitor" }).where(eq(users.userName, userName));
    const monitorSocket = await openSocket(monitor, `/hub/game/${gameId}`);
    expect(monitorSocket.status).toBe(101);
    monitorSocket.webSocket!.accept();
    monitorSocket.webSocket!.close(1000);
    const team = await stranger.json<{ id: number }>("/api/team", { method: "POST", body: { name: "Hidden players" } });
    expect((await stranger.json(`/api/game/${gameId}`, { method: "POST", body: { teamId: team.body.id } })).status).toBe(200);
    const playerSocket = await openSocket(stranger, `/hub/game/${gameId}`);
    expect(playerSocket.status).toBe(101);
    playerSocket.webSocket!.accept();
    playerSocket.webSocket!.close(1000);
  });

  it("closes a user's open sockets when their role no longer opens them, they are banned or deactivated, or the game is deleted", async () => {
    const admin = await newAdminClient();
    const gameId = await createGameAs(admin, { acceptWithoutReview: true });
    /** An accepted socket and the close code it gets (null while open). */
    const watch = async (client: Client, path: string) => {
      const res = await openSocket(client, path);
      expect(res.status, path).toBe(101);
      const ws = res.webSocket!;
      const state = { code: null as number | null };
      ws.addEventListener("close", (event) => {
        state.code = event.code;
      });
      ws.accept();
      return state;
    };
    const closeCode = (state: { code: number | null }) => expect.poll(() => state.code, { timeout: 3_000, interval: 20 });

    // An admin with the log feed and a game's monitor feed open is made a monitor, then a user.
    const staff = await newUser();
    await db().update(users).set({ role: "Admin" }).where(eq(users.userName, staff.userName));
    const staffId = await userIdOf(staff.client);
    const logs = await watch(staff.client, "/hub/admin");
    const monitor = await watch(staff.client, `/hub/game/${gameId}/monitor`);
    const otherAdmin = await watch(admin, "/hub/admin");
    expect((await admin.json(`/api/admin/users/${staffId}`, { method: "PUT", body: { role: "Monitor" } })).status).toBe(200);
    await closeCode(logs).toBe(4403);
    // The monitor feed stays: a monitor may read it. So does every other admin's log feed.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(monitor.code).toBeNull();
    expect(otherAdmin.code).toBeNull();
    expect((await admin.json(`/api/admin/users/${staffId}`, { method: "PUT", body: { role: "User" } })).status).toBe(200);
    await closeCode(monitor).toBe(4403);
    // Reopening is refused with the new role.
    expect((await openSocket(staff.client, `/hub/game/${gameId}/monitor`)).status).toBe(403);

    // A banned player's game feed closes; another player's stays.
    const banned = await newUser();
    const kept = await newUser();
    const bannedFeed = await watch(banned.client, `/hub/game/${gameId}`);
    const keptFeed = await watch(kept.client, `/hub/game/${gameId}`);
    expect((await admin.json(`/api/admin/users/${await userIdOf(banned.client)}`, { method: "PUT", body: { role: "Banned" } })).status).toBe(200);
    await closeCode(bannedFeed).toBe(4403);
    expect(keptFeed.code).toBeNull();

    // So does a deactivated player's (like a ban, deactivation ends their sessions at once).
    const deactivated = await newUser();
    const deactivatedFeed = await watch(deactivated.client, `/hub/game/${gameId}`);
    expect((await admin.json(`/api/admin/users/${await userIdOf(deactivated.client)}`, { method: "PUT", body: { emailConfirmed: false } })).status).toBe(200);
    await closeCode(deactivatedFeed).toBe(4403);
    expect(keptFeed.code).toBeNull();

    // Deleting the game closes every socket still open on it.
    expect((await admin.json(`/api/edit/games/${gameId}`, { method: "DELETE" })).status).toBe(200);
    await closeCode(keptFeed).toBe(4404);
    expect(otherAdmin.code).toBeNull();
  });
});

describe("the npm start socket relay's calls (workers/hub.ts)", () => {
  const TOKEN = "integration-relay-token-0123456789";
  const relayHeaders = (extra: Record<string, string> = {}) => ({ [RELAY_TOKEN_HEADER]: TOKEN, ...extra });

  it("answers the relay who owns a game socket, with the checks of a direct upgrade, and nobody without the token", async () => {
    const admin = (await newAdmin()).client;
    const game = await createGame(admin, { hidden: true, acceptWithoutReview: true });
    const [player] = await seedPlayers(game.id, 1);
    // A hidden game's board is for admins and monitors only.
    const asked = await player!.client.json<{ userId: string | null; teamId: number | null; boardReader: boolean }>(`/hub/game/${game.id}`, { headers: relayHeaders() });
    expect(asked.status).toBe(200);
    // The session, so that signing out closes the relay's socket of it too.
    const session = await sha256Hex(`${player!.userId}-session`);
    expect(asked.body).toEqual({ userId: player!.userId, teamId: player!.teamId, boardReader: false, staff: false, session });
    expect(asked.res.headers.get("cache-control")).toBe("no-store");
    expect((await admin.json(`/hub/game/${game.id}`, { headers: relayHeaders() })).body).toEqual({
      userId: await userIdOf(admin),
      teamId: null,
      boardReader: true,
      staff: true,
      session: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // A wrong or missing token is a plain request without an upgrade: not found.
    expect((await player!.client.fetch(`/hub/game/${game.id}`, { headers: { [RELAY_TOKEN_HEADER]: `${TOKEN}x` } })).status).toBe(404);
    expect((await player!.client.fetch(`/hub/game/${game.id}`)).status).toBe(404);
    // The refusals a direct upgrade gets: a hidden game to a stranger, another origin.
    const { client: stranger } = await newUser();
    expect((await stranger.json(`/hub/game/${game.id}`, { headers: relayHeaders() })).status).toBe(403);
    expect((await new Client().json(`/hub/game/${game.id}`, { headers: relayHeaders() })).status).toBe(404);
    expect((await player!.client.json(`/hub/game/${game.id}`, { headers: relayHeaders({ origin: "http://evil.example" }) })).status).toBe(403);
  });

  it("tells the relay's feed to close its sockets with 4404 when the game is deleted, then closes the feed", async () => {
    const admin = (await newAdmin()).client;
    const game = await createGame(admin);
    const res = await new Client().fetch(`/hub/game/${game.id}/relay`, { headers: relayHeaders({ upgrade: "websocket" }) });
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const texts: string[] = [];
    let closedWith: number | null = null;
    ws.addEventListener("message", (e) => texts.push(e.data as string));
    ws.addEventListener("close", (e) => {
      closedWith = e.code;
    });
    ws.accept();
    await expect.poll(() => texts.length, { timeout: 2000, interval: 20 }).toBe(1);
    expect((await admin.json(`/api/edit/games/${game.id}`, { method: "DELETE" })).status).toBe(200);
    await expect.poll(() => texts.length, { timeout: 2000, interval: 20 }).toBe(2);
    expect(parseRelayFrames(texts[1]!)).toEqual([{ closeAll: "game deleted", code: 4404 }]);
    await expect.poll(() => closedWith, { timeout: 2000, interval: 20 }).toBe(4404);
  });

  it("feeds the relay every game message once, routed: channel, team, board readers", async () => {
    const game = await createGame((await newAdmin()).client);
    const [a, b] = await seedPlayers(game.id, 2);
    expect((await new Client().fetch(`/hub/game/${game.id}/relay`, { headers: { upgrade: "websocket" } })).status).toBe(404);
    const res = await new Client().fetch(`/hub/game/${game.id}/relay`, { headers: relayHeaders({ upgrade: "websocket" }) });
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const texts: string[] = [];
    ws.addEventListener("message", (e) => texts.push(e.data as string));
    ws.accept();
    // A direct player socket of team b on the same room gets its own frames as before.
    const direct = await b!.client.fetch(`/hub/game/${game.id}`, { headers: { upgrade: "websocket" } });
    const directFrames: { type: string }[] = [];
    direct.webSocket!.addEventListener("message", (e) => directFrames.push(JSON.parse(e.data as string)));
    direct.webSocket!.accept();
    await expect.poll(() => texts.length, { timeout: 2000, interval: 20 }).toBe(1);
    const hello = JSON.parse(texts[0]!);
    expect(hello).toMatchObject({ type: "hello", data: { channel: "game" } });
    await runInDurableObject(room(game.id), async (instance) => {
      const hub = instance as unknown as { publishMany(m: unknown[]): Promise<number> };
      await hub.publishMany([
        { channel: "game", type: "notice", data: { id: 1 } },
        { channel: "game", type: "verdict", data: { submissionId: 5 }, teamId: a!.teamId },
        { channel: "game", type: "scoreboard", data: { version: 2 }, boardReadersOnly: true },
        { channel: "monitor", type: "event", data: { type: "Normal" } },
      ]);
    });
    // The three game messages of the call in one send.
    await expect.poll(() => texts.length, { timeout: 2000, interval: 20 }).toBe(2);
    const routed = parseRelayFrames(texts[1]!)!.map((item) => {
      if (!("route" in item)) throw new Error("not a routed frame");
      return item;
    });
    const seq = hello.seq + 1;
    expect(routed.map((r) => r.route)).toEqual([
      { seq, teamId: null, boardReadersOnly: false },
      { seq, teamId: a!.teamId, boardReadersOnly: false },
      { seq, teamId: null, boardReadersOnly: true },
    ]);
    expect(routed.map((r) => JSON.parse(r.frame))).toEqual([
      { type: "notice", seq, data: { id: 1 } },
      { type: "verdict", seq, data: { submissionId: 5 } },
      { type: "scoreboard", seq, data: { version: 2 } },
    ]);
    // Team b's direct socket: hello, the notice and the board delta (a board reader), not team a's verdict.
    await expect.poll(() => directFrames.map((f) => f.type), { timeout: 2000, interval: 20 }).toEqual(["hello", "notice", "scoreboard"]);
    // A user whose access changed: the relay is told to close that user's sockets, the direct one closes.
    const directClosed = new Promise<number>((resolve) => direct.webSocket!.addEventListener("close", (e) => resolve(e.code)));
    await runInDurableObject(room(game.id), async (instance) => {
      await (instance as unknown as { disconnectUser(userId: string, channels: string[]): Promise<number> }).disconnectUser(b!.userId, ["game"]);
    });
    await expect.poll(() => texts.length, { timeout: 2000, interval: 20 }).toBe(3);
    expect(parseRelayFrames(texts[2]!)).toEqual([{ closeUser: b!.userId, code: 4403 }]);
    expect(await directClosed).toBe(4403);
    ws.close(1000);
    direct.webSocket!.close(1000);
  });
});

// ── Sockets end with the access that opened them (rules.md §11) ──────────────────────────────────────

type Frame = { type: string; seq: number; data: { id?: number; values?: string[]; submissionId?: number } };

/** An open socket recording its frames and its close code (null while open); resolves after its hello. */
async function watchSocket(client: Client, path: string) {
  const res = await openSocket(client, path);
  expect(res.status, path).toBe(101);
  const ws = res.webSocket!;
  const socket = { ws, frames: [] as Frame[], code: null as number | null };
  ws.addEventListener("message", (e) => socket.frames.push(JSON.parse(e.data as string) as Frame));
  ws.addEventListener("close", (e) => {
    socket.code = e.code;
  });
  ws.accept();
  await expect.poll(() => socket.frames.length, { timeout: 3_000, interval: 10 }).toBeGreaterThan(0);
  return socket;
}
type Watched = Awaited<ReturnType<typeof watchSocket>>;

const closeCodeOf = (socket: Watched) => expect.poll(() => socket.code, { timeout: 3_000, interval: 20 });
const noticesOf = (socket: Watched) => socket.frames.filter((f) => f.type === "notice").map((f) => f.data.values?.[0]);

/** Posts a notice and waits until each of `open` got it (sockets still open get every notice). */
async function postNotice(admin: Client, gameId: number, content: string, open: Watched[]) {
  expect((await admin.json(`/api/edit/games/${gameId}/notices`, { method: "POST", body: { content } })).status).toBe(200);
  for (const socket of open) await expect.poll(() => noticesOf(socket), { timeout: 3_000, interval: 20 }).toContain(content);
}

/** Another signed-in session of a seeded player (a second browser). */
async function anotherSession(userId: string): Promise<Client> {
  const id = `${userId}-second-${crypto.randomUUID()}`;
  const now = Date.now();
  await env.DB.prepare("INSERT INTO sessions (id_hash, user_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)").bind(await sha256Hex(id), userId, now, now + 86_400_000).run();
  const client = new Client();
  client.cookie = `flagstaff_session=${id}`;
  return client;
}

async function asRole(role: "Monitor" | "Admin") {
  const user = await newUser();
  await db().update(users).set({ role }).where(eq(users.userName, user.userName));
  return { ...user, id: await userIdOf(user.client) };
}

/** Loads the game's room (an admin reads the board), so a change finds it running rather than asleep. */
async function loadRoom(admin: Client, gameId: number) {
  expect((await admin.fetch(`/api/game/${gameId}/scoreboard`)).status).toBe(200);
}

describe("live sockets end with the access that opened them", () => {
  it("signing out closes what that session opened, on every channel, and nothing else", async () => {
    const admin = (await newAdmin()).client;
    const game = await createGame(admin, { hidden: true });
    const [alice, bob] = await seedPlayers(game.id, 2);
    const aliceElsewhere = await anotherSession(alice!.userId);
    const signedOut = await watchSocket(alice!.client, `/hub/game/${game.id}`);
    const sameUser = await watchSocket(aliceElsewhere, `/hub/game/${game.id}`);
    const otherUser = await watchSocket(bob!.client, `/hub/game/${game.id}`);
    const monitor = await asRole("Monitor");
    const monitorGame = await watchSocket(monitor.client, `/hub/game/${game.id}`);
    const monitorFeed = await watchSocket(monitor.client, `/hub/game/${game.id}/monitor`);
    const staff = await asRole("Admin");
    const logs = await watchSocket(staff.client, "/hub/admin");
    const otherLogs = await watchSocket(admin, "/hub/admin");

    expect((await alice!.client.json("/api/account/logout", { method: "POST" })).status).toBe(200);
    await closeCodeOf(signedOut).toBe(4403);
    await postNotice(admin, game.id, "after alice signed out", [sameUser, otherUser, monitorGame]);
    expect(noticesOf(signedOut)).toEqual([]);
    // The REST answer to the same browser, and its socket's reopening.
    expect((await alice!.client.fetch(`/api/game/${game.id}/notices`)).status).toBe(401);
    expect((await openSocket(alice!.client, `/hub/game/${game.id}`)).status).toBe(404);

    expect((await monitor.client.json("/api/account/logout", { method: "POST" })).status).toBe(200);
    await closeCodeOf(monitorGame).toBe(4403);
    await closeCodeOf(monitorFeed).toBe(4403);
    expect((await staff.client.json("/api/account/logout", { method: "POST" })).status).toBe(200);
    await closeCodeOf(logs).toBe(4403);
    await postNotice(admin, game.id, "after the staff signed out", [sameUser, otherUser]);
    for (const socket of [sameUser, otherUser, otherLogs]) expect(socket.code).toBeNull();
  });

  it.each([
    ["Suspended", true],
    ["Suspended", false],
    ["Rejected", true],
    ["Pending", false],
  ] as const)("a hidden game's participation set to %s (room running: %s) closes its members' player sockets of that game only", async (status, running) => {
    const admin = (await newAdmin()).client;
    const game = await createGame(admin, { hidden: true });
    const elsewhere = await createGame(admin);
    const [alice, bob] = await seedPlayers(game.id, 2);
    if (running) await loadRoom(admin, game.id);
    const aliceSecond = await anotherSession(alice!.userId);
    const first = await watchSocket(alice!.client, `/hub/game/${game.id}`);
    const second = await watchSocket(aliceSecond, `/hub/game/${game.id}`);
    const otherGame = await watchSocket(alice!.client, `/hub/game/${elsewhere.id}`);
    const otherTeam = await watchSocket(bob!.client, `/hub/game/${game.id}`);

    expect((await admin.json(`/api/admin/participation/${alice!.participationId}/${status}`, { method: "PUT" })).status).toBe(200);
    await closeCodeOf(first).toBe(4403);
    await closeCodeOf(second).toBe(4403);
    await postNotice(admin, game.id, `after ${status}`, [otherTeam]);
    await postNotice(admin, elsewhere.id, `elsewhere after ${status}`, [otherGame]);
    expect(noticesOf(first)).toEqual([]);
    expect(otherTeam.code).toBeNull();
    expect(otherGame.code).toBeNull();
    // What REST answers the same users, and a reopened socket.
    for (const client of [alice!.client, aliceSecond]) expect((await client.fetch(`/api/game/${game.id}/notices`)).status).toBe(403);
    expect((await openSocket(aliceSecond, `/hub/game/${game.id}`)).status).toBe(403);
  });

  it("a public game's team that is no longer accepted keeps the notices and the board a visitor gets, not its verdicts", async () => {
    const admin = (await newAdmin()).client;
    const game = await createGame(admin);
    const [alice, bob] = await seedPlayers(game.id, 2);
    await loadRoom(admin, game.id);
    const aliceSocket = await watchSocket(alice!.client, `/hub/game/${game.id}`);
    const bobSocket = await watchSocket(bob!.client, `/hub/game/${game.id}`);
    expect((await admin.json(`/api/admin/participation/${alice!.participationId}/Suspended`, { method: "PUT" })).status).toBe(200);
    // REST: a visitor reads this game's notices and board.
    expect((await alice!.client.fetch(`/api/game/${game.id}/notices`)).status).toBe(200);
    expect((await alice!.client.fetch(`/api/game/${game.id}/scoreboard`)).status).toBe(200);
    await runInDurableObject(room(game.id), async (instance) => {
      const hub = instance as unknown as { publishMany(m: unknown[]): Promise<number> };
      await hub.publishMany([
        { channel: "game", type: "verdict", data: { submissionId: 1 }, teamId: alice!.teamId },
        { channel: "game", type: "verdict", data: { submissionId: 2 }, teamId: bob!.teamId },
        { channel: "game", type: "scoreboard", data: { version: 99 }, boardReadersOnly: true },
        { channel: "game", type: "notice", data: { id: 1, type: "Normal", values: ["for all"], time: 1 } },
      ]);
    });
    await expect.poll(() => bobSocket.frames.map((f) => f.type).slice(-3), { timeout: 3_000, interval: 20 }).toEqual(["verdict", "scoreboard", "notice"]);
    await expect.poll(() => noticesOf(aliceSocket), { timeout: 3_000, interval: 20 }).toEqual(["for all"]);
    expect(aliceSocket.frames.filter((f) => f.type === "verdict")).toEqual([]);
    expect(aliceSocket.frames.some((f) => f.type === "scoreboard")).toBe(true);
    expect(aliceSocket.code).toBeNull();
  });

  it("leaving a playing team, being kicked from it, or its deletion closes those members' sockets of its hidden game", async () => {
    const admin = (await newAdmin()).client;
    const game = await createGame(admin, { hidden: true, acceptWithoutReview: true });
    const { captain, team, members } = await teamWithMembers(2);
    const [kicked, leaver] = members;
    for (const user of [captain, kicked!, leaver!]) expect((await join(user.client, game.id, { teamId: team.id })).status).toBe(200);
    // Accepted in a running game locks the team: the admin unlocks it so that its members may go.
    expect((await admin.json(`/api/admin/teams/${team.id}`, { method: "PUT", body: { locked: false } })).status).toBe(200);
    const captainSocket = await watchSocket(captain.client, `/hub/game/${game.id}`);
    const kickedSocket = await watchSocket(kicked!.client, `/hub/game/${game.id}`);
    const leaverSocket = await watchSocket(leaver!.client, `/hub/game/${game.id}`);

    expect((await captain.client.json(`/api/team/${team.id}/kick/${kicked!.id}`, { method: "POST" })).status).toBe(200);
    await closeCodeOf(kickedSocket).toBe(4403);
    await loadRoom(admin, game.id);
    expect((await leaver!.client.json(`/api/team/${team.id}/leave`, { method: "POST" })).status).toBe(200);
    await closeCodeOf(leaverSocket).toBe(4403);
    await postNotice(admin, game.id, "the captain plays on", [captainSocket]);
    expect(captainSocket.code).toBeNull();
    expect((await admin.json(`/api/admin/teams/${team.id}`, { method: "DELETE" })).status).toBe(200);
    await closeCodeOf(captainSocket).toBe(4403);
  });

  it("a monitor made a user loses the hidden game's socket (its notices, board and challenge news), keeps a public game's", async () => {
    const admin = (await newAdmin()).client;
    const hidden = await createGame(admin, { hidden: true });
    const open = await createGame(admin);
    const [player] = await seedPlayers(hidden.id, 1);
    const monitor = await asRole("Monitor");
    const otherMonitor = await asRole("Monitor");
    const demotedHidden = await watchSocket(monitor.client, `/hub/game/${hidden.id}`);
    const demotedOpen = await watchSocket(monitor.client, `/hub/game/${open.id}`);
    const keptMonitor = await watchSocket(otherMonitor.client, `/hub/game/${hidden.id}`);
    const playerSocket = await watchSocket(player!.client, `/hub/game/${hidden.id}`);

    expect((await admin.json(`/api/admin/users/${monitor.id}`, { method: "PUT", body: { role: "User" } })).status).toBe(200);
    await closeCodeOf(demotedHidden).toBe(4403);
    expect((await monitor.client.fetch(`/api/game/${hidden.id}/scoreboard`)).status).toBe(403);
    expect((await openSocket(monitor.client, `/hub/game/${hidden.id}`)).status).toBe(403);
    await postNotice(admin, hidden.id, "for the hidden game", [keptMonitor, playerSocket]);
    await postNotice(admin, open.id, "for the public game", [demotedOpen]);
    expect(noticesOf(demotedHidden)).toEqual([]);
    for (const socket of [demotedOpen, keptMonitor, playerSocket]) expect(socket.code).toBeNull();
  });

  it("a game hidden under open sockets closes those who may no longer see it, and takes the board from its players", async () => {
    const admin = (await newAdmin()).client;
    const game = await createGame(admin);
    const [player] = await seedPlayers(game.id, 1);
    const { client: stranger } = await newUser();
    const monitor = await asRole("Monitor");
    await loadRoom(admin, game.id);
    const visitorSocket = await watchSocket(new Client(), `/hub/game/${game.id}`);
    const strangerSocket = await watchSocket(stranger, `/hub/game/${game.id}`);
    const playerSocket = await watchSocket(player!.client, `/hub/game/${game.id}`);
    const monitorSocket = await watchSocket(monitor.client, `/hub/game/${game.id}`);

    expect((await updateGame(admin, game.id, { hidden: true })).status).toBe(200);
    await closeCodeOf(visitorSocket).toBe(4403);
    await closeCodeOf(strangerSocket).toBe(4403);
    // Every board reader first heard that the board changed (an open board page refetches and is refused).
    for (const socket of [visitorSocket, playerSocket]) expect(socket.frames.some((f) => f.type === "scoreboard")).toBe(true);
    expect((await player!.client.fetch(`/api/game/${game.id}/scoreboard`)).status).toBe(403);
    const before = playerSocket.frames.length;
    await runInDurableObject(room(game.id), async (instance) => {
      const hub = instance as unknown as { publishMany(m: unknown[]): Promise<number> };
      await hub.publishMany([
        { channel: "game", type: "scoreboard", data: { version: 99 }, boardReadersOnly: true },
        { channel: "game", type: "notice", data: { id: 1, type: "Normal", values: ["still here"], time: 1 } },
      ]);
    });
    await expect.poll(() => noticesOf(playerSocket), { timeout: 3_000, interval: 20 }).toEqual(["still here"]);
    await expect.poll(() => monitorSocket.frames.map((f) => f.type).slice(-2), { timeout: 3_000, interval: 20 }).toEqual(["scoreboard", "notice"]);
    expect(playerSocket.frames.slice(before).map((f) => f.type)).toEqual(["notice"]);
    expect(playerSocket.code).toBeNull();
    expect(monitorSocket.code).toBeNull();
  });

  it("a password change, a reset by mail or an admin's batch import closes the user's sockets, and no one else's", async () => {
    const admin = (await newAdmin()).client;
    const game = await createGame(admin);
    const bystander = await watchSocket((await newUser()).client, `/hub/game/${game.id}`);

    const changer = await newUser();
    const changed = await watchSocket(changer.client, `/hub/game/${game.id}`);
    expect((await changer.client.json("/api/account/changepassword", { method: "PUT", body: { old: PASSWORD, new: "Chang3dPw" } })).status).toBe(200);
    await closeCodeOf(changed).toBe(4403);

    const forgetful = await newUser();
    const forgot = await watchSocket(forgetful.client, `/hub/game/${game.id}`);
    const email = `${forgetful.userName}@example.com`;
    expect((await new Client().json("/api/account/recovery", { method: "POST", body: { email } })).status).toBe(200);
    const link = await resetLinkTo(email);
    expect((await new Client().json("/api/account/passwordreset", { method: "POST", body: { ...link, password: "Rec0vered!" } })).status).toBe(200);
    await closeCodeOf(forgot).toBe(4403);

    const imported = await newUser();
    const importedFeed = await watchSocket(imported.client, `/hub/game/${game.id}`);
    const rows = [{ userName: imported.userName, password: "Imp0rtedPw", email: `${imported.userName}@example.com` }];
    expect((await admin.json<{ result: string }[]>("/api/admin/users", { method: "POST", body: rows })).body).toEqual([{ userName: imported.userName, result: "updated" }]);
    await closeCodeOf(importedFeed).toBe(4403);

    await postNotice(admin, game.id, "still open", [bystander]);
    expect(bystander.code).toBeNull();
  });

  it("orders the npm start relay to close a session's sockets and to check its sockets after a participation change", async () => {
    const admin = (await newAdmin()).client;
    const game = await createGame(admin, { hidden: true });
    const [alice, bob] = await seedPlayers(game.id, 2);
    await loadRoom(admin, game.id);
    const res = await new Client().fetch(`/hub/game/${game.id}/relay`, { headers: { "x-flagstaff-relay-token": "integration-relay-token-0123456789", upgrade: "websocket" } });
    expect(res.status).toBe(101);
    const items: RelayItem[] = [];
    res.webSocket!.addEventListener("message", (e) => {
      const text = e.data as string;
      if (!text.startsWith("{")) items.push(...(parseRelayFrames(text) ?? []));
    });
    res.webSocket!.accept();
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect((await admin.json(`/api/admin/participation/${alice!.participationId}/Suspended`, { method: "PUT" })).status).toBe(200);
    await expect.poll(() => items.filter((item) => "reauthorize" in item), { timeout: 3_000, interval: 20 }).toHaveLength(1);
    const order = items.find((item) => "reauthorize" in item) as { reauthorize: Parameters<typeof reauthorizeGameSocket>[1] };
    // The relay's sockets of alice close, bob's stay as they are.
    const holder = (userId: string, teamId: number) => ({ userId, teamId, staff: false, boardReader: false });
    expect(reauthorizeGameSocket(holder(alice!.userId, alice!.teamId), order.reauthorize)).toBeNull();
    const bobs = holder(bob!.userId, bob!.teamId);
    expect(reauthorizeGameSocket(bobs, order.reauthorize)).toBe(bobs);

    expect((await bob!.client.json("/api/account/logout", { method: "POST" })).status).toBe(200);
    await expect.poll(() => items.filter((item) => "closeSession" in item), { timeout: 3_000, interval: 20 }).toEqual([
      { closeSession: await sha256Hex(`${bob!.userId}-session`), code: 4403 },
    ]);
    res.webSocket!.close(1000);
  });
});

// ── Open challenge panels follow the organisers' and the team's changes (DECISIONS.md) ──────────────

describe("challenge and container changes over the game socket", () => {
  async function challengeOf(admin: Client, gameId: number, enabled: boolean) {
    const created = await admin.json<{ id: number }>(`/api/edit/games/${gameId}/challenges`, { method: "POST", body: { title: "Moving", category: "Misc", type: "StaticAttachment" } });
    expect(created.status).toBe(200);
    expect((await admin.json(`/api/edit/games/${gameId}/challenges/${created.body.id}/flags`, { method: "POST", body: [{ flag: "flag{moving}" }] })).status).toBe(200);
    if (enabled) expect((await admin.json(`/api/edit/games/${gameId}/challenges/${created.body.id}`, { method: "PUT", body: { isEnabled: true } })).status).toBe(200);
    return created.body.id;
  }
  const changedOf = (socket: Watched) => socket.frames.filter((f) => f.type === "challengeChanged");

  it("tells every page of a started game that an enabled challenge changed (limit, attachment), with the next number; nothing of a disabled one's edits, or before the start", async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    const [a, b] = await seedPlayers(game.id, 2);
    const open = await challengeOf(admin, game.id, true);
    const closed = await challengeOf(admin, game.id, false);
    const sockets = [await watchSocket(a!.client, `/hub/game/${game.id}`), await watchSocket(b!.client, `/hub/game/${game.id}`)];

    expect((await admin.json(`/api/edit/games/${game.id}/challenges/${closed}`, { method: "PUT", body: { submissionLimit: 3 } })).status).toBe(200);
    expect((await admin.json(`/api/edit/games/${game.id}/challenges/${open}`, { method: "PUT", body: { submissionLimit: 5 } })).status).toBe(200);
    for (const socket of sockets) await expect.poll(() => changedOf(socket).map((f) => f.data), { timeout: 3_000, interval: 20 }).toEqual([{ id: open }]);
    // A message for all: it takes the channel's next number, so a page that missed it sees a gap and resyncs.
    expect(changedOf(sockets[0]!)[0]!.seq).toBeGreaterThan(sockets[0]!.frames[0]!.seq);

    expect((await admin.json(`/api/edit/games/${game.id}/challenges/${open}/attachment`, { method: "POST", body: { attachmentType: "Remote", remoteUrl: "https://example.com/new.zip" } })).status).toBe(200);
    for (const socket of sockets) await expect.poll(() => changedOf(socket).map((f) => f.data), { timeout: 3_000, interval: 20 }).toEqual([{ id: open }, { id: open }]);

    // Before the start no page shows a challenge: an edit then moves nobody's feed (a notice after it arrives alone).
    expect((await updateGame(admin, game.id, { start: Date.now() + 1_800_000 })).status).toBe(200);
    expect((await admin.json(`/api/edit/games/${game.id}/challenges/${open}`, { method: "PUT", body: { submissionLimit: 6 } })).status).toBe(200);
    await postNotice(admin, game.id, "after the edit", sockets);
    for (const socket of sockets) expect(changedOf(socket)).toHaveLength(2);
    for (const socket of sockets) socket.ws.close(1000);
  });

  it("tells only the team's sockets that its container changed, and routes it to that team on the npm start relay's feed", async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    const [a, b] = await seedPlayers(game.id, 2);
    const feed = await new Client().fetch(`/hub/game/${game.id}/relay`, { headers: { [RELAY_TOKEN_HEADER]: "integration-relay-token-0123456789", upgrade: "websocket" } });
    const items: RelayItem[] = [];
    feed.webSocket!.addEventListener("message", (e) => {
      const text = e.data as string;
      if (!text.startsWith("{")) items.push(...(parseRelayFrames(text) ?? []));
    });
    feed.webSocket!.accept();
    const [mine, theirs] = [await watchSocket(a!.client, `/hub/game/${game.id}`), await watchSocket(b!.client, `/hub/game/${game.id}`)];

    await announceContainerChange(env, game.id, a!.teamId, 42);
    await expect.poll(() => mine.frames.filter((f) => f.type === "containerChanged").map((f) => f.data), { timeout: 3_000, interval: 20 }).toEqual([{ challengeId: 42 }]);
    await expect.poll(() => items.length, { timeout: 3_000, interval: 20 }).toBe(1);
    const routed = items[0] as { route: { seq: number; teamId: number | null; boardReadersOnly: boolean }; frame: string };
    expect(routed.route).toEqual({ seq: mine.frames[0]!.seq, teamId: a!.teamId, boardReadersOnly: false });
    expect(JSON.parse(routed.frame)).toEqual({ type: "containerChanged", seq: mine.frames[0]!.seq, data: { challengeId: 42 } });
    // A team's message takes no number: the other team's socket got nothing, and sees no gap after it.
    await announceChallengeChange({ env, db: db(), now: Date.now() }, game.id, 7);
    await expect.poll(() => theirs.frames.map((f) => f.type), { timeout: 3_000, interval: 20 }).toEqual(["hello", "challengeChanged"]);
    expect(theirs.frames[1]!.seq).toBe(theirs.frames[0]!.seq + 1);
    for (const socket of [mine, theirs]) socket.ws.close(1000);
    feed.webSocket!.close(1000);
  });
});

/** The reset link mailed to an address (the loopback SMTP server of tests/integration/mail-server.ts), once it came: recovery mails after its answer. */
async function resetLinkTo(address: string): Promise<{ rToken: string; email: string }> {
  const url = await waitForMailLink(`http://127.0.0.1:${inject("mailboxPort")}`, address, "/account/reset");
  const link = /token=([^&]+)&email=(.+)$/.exec(url.search);
  if (!link) throw new Error(`no reset link in: ${url.href}`);
  return { rToken: link[1]!, email: link[2]! };
}
