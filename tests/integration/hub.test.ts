import { eq } from "drizzle-orm";
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { users } from "~/.server/db/schema";
import { AdminHub } from "../../workers/admin-hub/admin-hub";
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
});
