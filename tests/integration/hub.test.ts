import { eq } from "drizzle-orm";
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { users } from "~/.server/db/schema";
import { parseRelayFrames, RELAY_TOKEN_HEADER } from "~/core/protocol";
import { AdminHub } from "../../workers/admin-hub/admin-hub";
import { createGame, newAdmin, room, seedPlayers, userIdOf } from "./game-helpers";
import { Client, db, newUser } from "./helpers";

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

  it("closes a user's open sockets when their role no longer opens them, they are banned, or the game is deleted", async () => {
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
    expect(asked.body).toEqual({ userId: player!.userId, teamId: player!.teamId, boardReader: false });
    expect(asked.res.headers.get("cache-control")).toBe("no-store");
    expect((await admin.json(`/hub/game/${game.id}`, { headers: relayHeaders() })).body).toEqual({ userId: await userIdOf(admin), teamId: null, boardReader: true });
    // A wrong or missing token is a plain request without an upgrade: not found.
    expect((await player!.client.fetch(`/hub/game/${game.id}`, { headers: { [RELAY_TOKEN_HEADER]: `${TOKEN}x` } })).status).toBe(404);
    expect((await player!.client.fetch(`/hub/game/${game.id}`)).status).toBe(404);
    // The refusals a direct upgrade gets: a hidden game to a stranger, another origin.
    const { client: stranger } = await newUser();
    expect((await stranger.json(`/hub/game/${game.id}`, { headers: relayHeaders() })).status).toBe(403);
    expect((await new Client().json(`/hub/game/${game.id}`, { headers: relayHeaders() })).status).toBe(404);
    expect((await player!.client.json(`/hub/game/${game.id}`, { headers: relayHeaders({ origin: "http://evil.example" }) })).status).toBe(403);
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
