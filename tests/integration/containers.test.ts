import { and, eq, isNull, like, ne } from "drizzle-orm";
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { challenges, containers, gameEvents, gameInstances, logs, participations, trafficCaptures } from "~/.server/db/schema";
import type { AgentsEnv } from "~/.server/agents";
import { sweepCaptures, UNKNOWN_CAPTURE_DROP_MS } from "~/.server/services/captures";
import { createPlayerContainer } from "~/.server/services/containers";
import { requirePlayer } from "~/.server/services/player-challenges";
import { signRequest } from "~/core/agent-protocol";
import type { ChallengeDetail, ChallengeEditDetail } from "~/core/schemas/challenge";
import type { GameInfo } from "~/core/schemas/game";
import { createGame, type ErrorBody, HOUR, join, newAdmin, teamWithMembers, updateGame } from "./game-helpers";
import { BASE, Client, db, unique } from "./helpers";

const TEST_IMAGE = "flagstaff-test/busybox:latest";
const BROKEN_IMAGE = "flagstaff-test/broken:latest";
const SECRET = (env as unknown as { FLAGSTAFF_AGENT_SECRET: string }).FLAGSTAFF_AGENT_SECRET;

type Info = { status: string; startedAt: number; expectStopAt: number; entry: string };
type Admin = Awaited<ReturnType<typeof newAdmin>>;

const agent = inject("containerAgent");

beforeAll(() => {
  // Never skipped: without a Docker engine and the agent, every container test fails with the reason.
  if (agent.error || !agent.agentId) throw new Error(`container agent unavailable: ${agent.error ?? "not started"}`);
});

async function newChallenge(admin: Client, gameId: number, type: string, fields: Record<string, unknown> = {}): Promise<ChallengeEditDetail> {
  const r = await admin.json<ChallengeEditDetail>(`/api/edit/games/${gameId}/challenges`, { method: "POST", body: { title: unique("c"), category: "Web", type } });
  if (r.status !== 200) throw new Error(`create challenge failed: ${r.status} ${JSON.stringify(r.body)}`);
  const u = await admin.json<ChallengeEditDetail>(`/api/edit/games/${gameId}/challenges/${r.body.id}`, { method: "PUT", body: fields });
  if (u.status !== 200) throw new Error(`update challenge failed: ${u.status} ${JSON.stringify(u.body)}`);
  return u.body;
}

/** An enabled DynamicContainer challenge running the test image (HTTP on 80, TCP echo on 7). */
const containerChallenge = (admin: Client, gameId: number, fields: Record<string, unknown> = {}) =>
  newChallenge(admin, gameId, "DynamicContainer", { containerImage: TEST_IMAGE, exposePort: 80, memoryLimit: 32, cpuCount: 2, flagTemplate: "flag{[TEAM_HASH]}", isEnabled: true, ...fields });

async function acceptedPlayer(gameId: number) {
  const { captain, team } = await teamWithMembers(0);
  const r = await join(captain.client, gameId, { teamId: team.id });
  if (r.status !== 200) throw new Error(`join failed: ${r.status} ${JSON.stringify(r.body)}`);
  const participation = (await db().select().from(participations).where(and(eq(participations.teamId, team.id), eq(participations.gameId, gameId))).get())!;
  return { client: captain.client, team, participation, userId: captain.id };
}

async function setup(fields: Record<string, unknown> = {}): Promise<{ admin: Admin; game: GameInfo }> {
  const admin = await newAdmin();
  const game = await createGame(admin.client, { acceptWithoutReview: true, ...fields });
  return { admin, game };
}

const start = (client: Client, gameId: number, cid: number) => client.json<Info & ErrorBody>(`/api/game/${gameId}/container/${cid}`, { method: "POST" });
const destroy = (client: Client, gameId: number, cid: number) => client.json<ErrorBody>(`/api/game/${gameId}/container/${cid}`, { method: "DELETE" });
const extend = (client: Client, gameId: number, cid: number) => client.json<Info & ErrorBody>(`/api/game/${gameId}/container/${cid}/extend`, { method: "POST" });

/** Lets the next container operation of these instances through the 10-second cooldown. */
const resetCooldown = (participationId: number) =>
  db().update(gameInstances).set({ lastContainerOperation: 0 }).where(eq(gameInstances.participationId, participationId)).run();

const liveRow = (id: string) => db().select().from(containers).where(eq(containers.id, id)).get();

/**
 * Opens the proxy WebSocket of an instance, sends `payload` and collects what comes back until `done`
 * says so, the socket closes or the time is up.
 */
async function throughProxy(path: string, payload: string, done: (text: string) => boolean, timeoutMs = 10_000): Promise<string> {
  const res = await exports.default.fetch(`${BASE}${path}`, { headers: { Upgrade: "websocket" } });
  if (res.status !== 101 || !res.webSocket) throw new Error(`proxy upgrade answered ${res.status}: ${await res.text()}`);
  const ws = res.webSocket;
  ws.accept();
  const decoder = new TextDecoder();
  let text = "";
  const result = new Promise<string>((resolve) => {
    const timer = setTimeout(() => resolve(text), timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      resolve(text);
    };
    let queue: Promise<void> = Promise.resolve();
    ws.addEventListener("message", (e) => {
      const data = e.data as ArrayBuffer | Blob | string;
      queue = queue.then(async () => {
        text += typeof data === "string" ? data : decoder.decode(new Uint8Array(data instanceof Blob ? await data.arrayBuffer() : data), { stream: true });
        if (done(text)) finish();
      });
    });
    ws.addEventListener("close", () => void queue.then(finish));
    ws.addEventListener("error", finish);
  });
  ws.send(new TextEncoder().encode(payload));
  const out = await result;
  try {
    ws.close(1000, "done");
  } catch {
    // Already closed by the other side.
  }
  return out;
}

/** The container's environment, read from the test image's HTTP server through the proxy. */
async function containerEnv(path: string): Promise<Record<string, string>> {
  const raw = await throughProxy(path, "GET /env HTTP/1.0\r\nHost: test\r\n\r\n", (t) => t.includes("FLAGSTAFF_CHALLENGE_ID=") && t.trimEnd().split("\n").length > 8);
  const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
  return Object.fromEntries(
    body
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

describe("player containers", () => {
  it("starts a team container with the limits and the team's flag in its environment, then destroys it", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    // A monitor watches the game's events live.
    const socket = await admin.client.fetch(`/hub/game/${game.id}/monitor`, { headers: { upgrade: "websocket" } });
    expect(socket.status).toBe(101);
    const events: { type: string; values: string[]; team: string | null }[] = [];
    socket.webSocket!.addEventListener("message", (e) => {
      const m = JSON.parse(e.data as string) as { type: string; data: { type: string; values: string[]; team: string | null } };
      if (m.type === "event") events.push(m.data);
    });
    socket.webSocket!.accept();

    // The team never opened the challenge: starting assigns its flag.
    const r = await start(p.client, game.id, c.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe("Running");
    expect(r.body.entry).toMatch(/^[0-9a-f-]{36}$/);
    const lifetime = r.body.expectStopAt - r.body.startedAt;
    expect(lifetime).toBeGreaterThan(119 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(120 * 60_000 + 5_000);

    const row = (await liveRow(r.body.entry))!;
    expect(row.agentId).toBe(agent.agentId);
    expect(row.containerId).toMatch(/^[0-9a-f]{64}$/);
    expect(row.participationId).toBe(p.participation.id);
    const instance = (await db().select().from(gameInstances).where(eq(gameInstances.id, row.instanceId!)).get())!;
    expect(instance.flag).toMatch(/^flag\{.+\}$/);

    const vars = await containerEnv(`/api/proxy/${r.body.entry}`);
    expect(vars.FLAGSTAFF_FLAG).toBe(instance.flag);
    expect(vars.FLAGSTAFF_TEAM_ID).toBe(String(p.team.id));
    expect(vars.FLAGSTAFF_CHALLENGE_ID).toBe(String(c.id));
    expect(vars.FLAGSTAFF_GAME_ID).toBe(String(game.id));
    expect(vars.FLAGSTAFF_USER_ID).toMatch(/^[0-9a-f-]{36}$/);

    // The player's view of the challenge shows the entry and the close time.
    const detail = await p.client.json<ChallengeDetail>(`/api/game/${game.id}/challenges/${c.id}`);
    expect(detail.body.context.instanceEntry).toBe(r.body.entry);
    expect(detail.body.context.closeTime).toBe(r.body.expectStopAt);

    // A second start while it runs is refused.
    await resetCooldown(p.participation.id);
    const again = await start(p.client, game.id, c.id);
    expect(again.status).toBe(400);
    expect(again.body.title).toBe("The container is already running");

    await resetCooldown(p.participation.id);
    expect((await destroy(p.client, game.id, c.id)).status).toBe(200);
    expect((await liveRow(r.body.entry))!.status).toBe("Destroyed");
    const stored = await db().select().from(gameEvents).where(eq(gameEvents.gameId, game.id)).all();
    expect(stored.map((e) => e.type).sort()).toEqual(["ContainerDestroy", "ContainerStart"]);
    expect(stored[0]!.values).toEqual([String(c.id), c.title]);
    // The player who destroyed it is the event's user.
    expect(stored.find((e) => e.type === "ContainerDestroy")!.userId).toBe(p.userId);
    await expect.poll(() => events.map((e) => e.type)).toEqual(["ContainerStart", "ContainerDestroy"]);
    expect(events[0]).toMatchObject({ values: [String(c.id), c.title], team: p.team.name });
    // The monitor's "hide container events", however a tool spells true; a word that is no flag is refused.
    for (const flag of ["true", "True", "TRUE", "1"]) {
      const hidden = await admin.client.json<{ type: string }[]>(`/api/game/${game.id}/events?hideContainer=${flag}`);
      expect(hidden.body.map((e) => e.type), flag).toEqual([]);
    }
    expect((await admin.client.json<{ type: string }[]>(`/api/game/${game.id}/events?hideContainer=False`)).body).toHaveLength(2);
    expect((await admin.client.json(`/api/game/${game.id}/events?hideContainer=yes`)).status).toBe(400);
    socket.webSocket!.close(1000);
    // Destroyed: the proxy forgets it.
    expect((await exports.default.fetch(`${BASE}/api/proxy/${r.body.entry}`)).status).toBe(404);
    const none = await destroy(p.client, game.id, c.id);
    expect(none.status).toBe(400);
    expect(none.body.title).toBe("No running container");
  });

  it("lets a team recreate its container after destroying it, with the same flag", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    const first = await start(p.client, game.id, c.id);
    expect(first.status).toBe(200);
    const flag1 = (await containerEnv(`/api/proxy/${first.body.entry}`)).FLAGSTAFF_FLAG;
    await resetCooldown(p.participation.id);
    expect((await destroy(p.client, game.id, c.id)).status).toBe(200);
    await resetCooldown(p.participation.id);
    const second = await start(p.client, game.id, c.id);
    expect(second.status).toBe(200);
    expect(second.body.entry).not.toBe(first.body.entry);
    const flag2 = (await containerEnv(`/api/proxy/${second.body.entry}`)).FLAGSTAFF_FLAG;
    expect(flag2).toBeTruthy();
    expect(flag2).toBe(flag1);
    await resetCooldown(p.participation.id);
    expect((await destroy(p.client, game.id, c.id)).status).toBe(200);
  });

  it("allows one operation per instance per 10 seconds (429)", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    expect((await start(p.client, game.id, c.id)).status).toBe(200);
    const quick = await destroy(p.client, game.id, c.id);
    expect(quick.status).toBe(429);
    expect(quick.body.title).toMatch(/^Operation too frequent/);
    expect(Number(quick.res.headers.get("retry-after"))).toBeGreaterThan(0);
    await resetCooldown(p.participation.id);
    expect((await destroy(p.client, game.id, c.id)).status).toBe(200);
  });

  it("tells teammates who start at the same moment that the container is running, not to wait for the cooldown", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const { captain, team, members } = await teamWithMembers(2);
    for (const player of [captain, ...members]) expect((await join(player.client, game.id, { teamId: team.id })).status).toBe(200);
    const answers = await Promise.all([captain, ...members].map((player) => start(player.client, game.id, c.id)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
    for (const refused of answers.filter((a) => a.status === 400)) expect(refused.body.title).toBe("The container is already running");
    const participation = (await db().select().from(participations).where(and(eq(participations.teamId, team.id), eq(participations.gameId, game.id))).get())!;
    const rows = await db().select().from(containers).where(eq(containers.participationId, participation.id)).all();
    expect(rows.map((r) => r.status)).toEqual(["Running"]);
    await resetCooldown(participation.id);
    expect((await destroy(captain.client, game.id, c.id)).status).toBe(200);
  });

  it("extends only inside the renewal window before expiry", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    const r = await start(p.client, game.id, c.id);
    expect(r.status).toBe(200);
    await resetCooldown(p.participation.id);
    const early = await extend(p.client, game.id, c.id);
    expect(early.status).toBe(400);
    expect(early.body.title).toBe("You can extend it 10 mins before it expires");

    const soon = Date.now() + 5 * 60_000;
    await db().update(containers).set({ expectStopAt: soon }).where(eq(containers.id, r.body.entry)).run();
    const ok = await extend(p.client, game.id, c.id);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.expectStopAt).toBe(soon + 120 * 60_000);
    expect((await liveRow(r.body.entry))!.expectStopAt).toBe(soon + 120 * 60_000);
    // The extension counts as the instance's operation for the cooldown.
    expect((await destroy(p.client, game.id, c.id)).status).toBe(429);
    await resetCooldown(p.participation.id);
    expect((await destroy(p.client, game.id, c.id)).status).toBe(200);
    await resetCooldown(p.participation.id);
    const gone = await extend(p.client, game.id, c.id);
    expect(gone.status).toBe(400);
    expect(gone.body.title).toBe("No running container");
  });

  it("tells the team's open pages when its container starts, is extended or destroyed (by a member or by the challenge's end), and no other team's", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const { captain, team, members } = await teamWithMembers(1);
    for (const player of [captain, ...members]) expect((await join(player.client, game.id, { teamId: team.id })).status).toBe(200);
    const other = await acceptedPlayer(game.id);
    const participation = (await db().select().from(participations).where(and(eq(participations.teamId, team.id), eq(participations.gameId, game.id))).get())!;
    /** The `containerChanged` messages a socket of the game got. */
    const watch = async (client: Client) => {
      const res = await client.fetch(`/hub/game/${game.id}`, { headers: { upgrade: "websocket" } });
      expect(res.status).toBe(101);
      const got: unknown[] = [];
      res.webSocket!.addEventListener("message", (e) => {
        const m = JSON.parse(e.data as string) as { type: string; data: unknown };
        if (m.type === "containerChanged") got.push(m.data);
      });
      res.webSocket!.accept();
      return { got, close: () => res.webSocket!.close(1000) };
    };
    const [teammate, stranger] = [await watch(members[0]!.client), await watch(other.client)];
    const told = (n: number) => expect.poll(() => teammate.got, { timeout: 3_000, interval: 20 }).toEqual(Array.from({ length: n }, () => ({ challengeId: c.id })));

    const r = await start(captain.client, game.id, c.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await told(1);
    await db().update(containers).set({ expectStopAt: Date.now() + 5 * 60_000 }).where(eq(containers.id, r.body.entry)).run();
    await resetCooldown(participation.id);
    expect((await extend(captain.client, game.id, c.id)).status).toBe(200);
    await told(2);
    await resetCooldown(participation.id);
    expect((await destroy(captain.client, game.id, c.id)).status).toBe(200);
    await told(3);
    await resetCooldown(participation.id);
    expect((await start(members[0]!.client, game.id, c.id)).status).toBe(200);
    await told(4);
    // Disabled by the organisers: the containers go, and the team hears it.
    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/${c.id}`, { method: "PUT", body: { isEnabled: false } })).status).toBe(200);
    await told(5);
    expect(stranger.got).toEqual([]);
    teammate.close();
    stranger.close();
  });

  it("applies the team container limit: refuses, or destroys the oldest with auto-destroy", { timeout: 90_000 }, async () => {
    const { admin, game } = await setup({ containerCountLimit: 1 });
    const a = await containerChallenge(admin.client, game.id);
    const b = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    const first = await start(p.client, game.id, a.id);
    expect(first.status).toBe(200);
    const refused = await start(p.client, game.id, b.id);
    expect(refused.status).toBe(400);
    expect(refused.body.title).toBe("Container number limit exceeded");

    const policy = async (autoDestroyOnLimitReached: boolean) =>
      expect((await admin.client.json("/api/admin/config", { method: "PUT", body: { containerPolicy: { autoDestroyOnLimitReached } } })).status).toBe(200);
    await policy(true);
    try {
      const second = await start(p.client, game.id, b.id);
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect((await liveRow(first.body.entry))!.status).toBe("Destroyed");
      const live = await db()
        .select()
        .from(containers)
        .where(and(eq(containers.participationId, p.participation.id), ne(containers.status, "Destroyed")))
        .all();
      expect(live.map((x) => x.id)).toEqual([second.body.entry]);
      await resetCooldown(p.participation.id);
      expect((await destroy(p.client, game.id, b.id)).status).toBe(200);
    } finally {
      await policy(false);
    }
  });

  it("refuses other teams, non-container challenges, non-players and games that have not started", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const owner = await acceptedPlayer(game.id);
    const other = await acceptedPlayer(game.id);
    const r = await start(owner.client, game.id, c.id);
    expect(r.status).toBe(200);
    // Another team addresses only its own instance: nothing runs there, and the owner's container stays.
    const foreign = await destroy(other.client, game.id, c.id);
    expect(foreign.status).toBe(400);
    expect(foreign.body.title).toBe("No running container");
    expect((await extend(other.client, game.id, c.id)).status).toBe(400);
    expect((await liveRow(r.body.entry))!.status).toBe("Running");

    const stat = await newChallenge(admin.client, game.id, "StaticAttachment");
    await admin.client.json(`/api/edit/games/${game.id}/challenges/${stat.id}/flags`, { method: "POST", body: [{ flag: "flag{x}" }] });
    await admin.client.json(`/api/edit/games/${game.id}/challenges/${stat.id}`, { method: "PUT", body: { isEnabled: true } });
    const notContainer = await start(owner.client, game.id, stat.id);
    expect(notContainer.status).toBe(400);
    expect(notContainer.body.title).toBe("This is not a container challenge");

    const outsider = await teamWithMembers(0);
    expect((await start(outsider.captain.client, game.id, c.id)).status).toBe(403);
    expect((await start(owner.client, game.id, 999_999_999)).status).toBe(404);

    const later = await createGame(admin.client, { acceptWithoutReview: true, start: Date.now() + 3_600_000, end: Date.now() + 7_200_000 });
    const lc = await containerChallenge(admin.client, later.id);
    const early = await start(owner.client, later.id, lc.id);
    expect(early.status).toBe(400);

    // Disabling the challenge destroys its team containers.
    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/${c.id}`, { method: "PUT", body: { isEnabled: false } })).status).toBe(200);
    expect((await liveRow(r.body.entry))!.status).toBe("Destroyed");
  });

  it("fails cleanly when the image cannot start: 400, no row, no container", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id, { containerImage: BROKEN_IMAGE });
    const p = await acceptedPlayer(game.id);
    const r = await start(p.client, game.id, c.id);
    expect(r.status).toBe(400);
    expect(r.body.title).toBe("The container could not be started: try again in a few seconds, and tell the organisers if it keeps failing");
    expect(await db().select().from(containers).where(eq(containers.challengeId, c.id)).all()).toEqual([]);
  });

  it("starts nothing for a challenge disabled while the start was under way (after its checks, before its row)", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    const userId = (await p.client.json<{ userId: string }>("/api/account/profile")).body.userId;
    const player = await requirePlayer(db(), game.id, userId, Date.now());
    // The disable (and its destroy pass, which finds nothing yet) lands just before the start writes its row.
    let disabled = false;
    const racing = new Proxy(db(), {
      get(target, prop, receiver) {
        if (prop !== "all" || disabled) return Reflect.get(target, prop, receiver);
        return async (...args: Parameters<typeof target.all>) => {
          disabled = true;
          await target.update(challenges).set({ isEnabled: false }).where(eq(challenges.id, c.id)).run();
          return target.all(...args);
        };
      },
    });
    const log = async () => undefined;
    try {
      await expect(createPlayerContainer({ db: racing, now: Date.now(), env, log }, { db: racing, log }, player, c.id, userId)).rejects.toMatchObject({ code: "challenge.not_found" });
      expect(disabled).toBe(true);
      expect(await db().select().from(containers).where(and(eq(containers.challengeId, c.id), ne(containers.status, "Destroyed"))).all()).toEqual([]);
    } finally {
      // Whatever a failing run started goes with the challenge.
      await admin.client.json(`/api/edit/games/${game.id}/challenges/${c.id}`, { method: "DELETE" });
    }
  });

  it("answers the contract's statuses for an unreachable agent and releases the instance instead of leaving it stuck", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    const ghostId = await ghostContainer(p, game.id, c.id);

    const list = await admin.client.json<{ data: { containerGuid: string; agentReachable: boolean; agentId: string }[] }>("/api/admin/instances");
    const listed = list.body.data.find((x) => x.containerGuid === ghostId)!;
    expect(listed.agentReachable).toBe(false);
    expect(listed.agentId).toBe("agent-that-went-away");

    // api.md §1 has no 503: extending is refused with the reason, the row stays (the container may still run).
    const ext = await extend(p.client, game.id, c.id);
    expect(ext.status).toBe(400);
    expect(ext.body).toEqual({ title: "The container host cannot be reached; try again later", status: 400 });
    expect((await liveRow(ghostId))!.status).toBe("Running");
    // The proxy: a valid id without an upgrade is 204 (rules.md §9.2); the upgrade cannot reach the TCP service: 418.
    expect((await exports.default.fetch(`${BASE}/api/proxy/${ghostId}`)).status).toBe(204);
    const upgrade = await exports.default.fetch(`${BASE}/api/proxy/${ghostId}`, { headers: { Upgrade: "websocket", "accept-language": "zh-CN" } });
    expect(upgrade.status).toBe(418);
    expect(await upgrade.json()).toEqual({ title: "无法连接容器主机，请稍后重试", status: 418 });

    // Destroying releases the instance: 200 with the reason, and a Warning for the admins.
    const del = await destroy(p.client, game.id, c.id);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ title: "Instance released; its container host did not remove the container now and will remove it on its own", status: 200 });
    expect((await liveRow(ghostId))!.status).toBe("Destroyed");
    await expect.poll(() => warningsAbout(ghostId)).toEqual([expect.stringContaining("agent agent-that-went-away could not be reached")]);

    // Not stuck: the team starts a new container on the agent that answers.
    await resetCooldown(p.participation.id);
    const fresh = await start(p.client, game.id, c.id);
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect((await liveRow(fresh.body.entry))!.agentId).toBe(agent.agentId);
    await resetCooldown(p.participation.id);
    expect((await destroy(p.client, game.id, c.id)).status).toBe(200);
  });

  it("refuses a start with 400 when no agent can take it: players are told it could not be started, admins that no host is available", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    const ja = new Client({ lang: "ja-JP" });
    ja.cookie = admin.client.cookie;
    await withAgents(deadAgentUrl(), async () => {
      const r = await start(p.client, game.id, c.id);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ title: "The container could not be started: try again in a few seconds, and tell the organisers if it keeps failing", status: 400 });
      const test = await ja.json<ErrorBody>(`/api/edit/games/${game.id}/challenges/${c.id}/container`, { method: "POST" });
      expect(test.status).toBe(400);
      // The admin is told why: no container host to take it.
      expect(test.body).toEqual({ title: "使用できるコンテナホストがありません。コンテナエージェントと Docker エンジンが動いているか確認してください（詳細は管理ログにあります）", status: 400 });
    });
    // Nothing stays behind, and the reason is in the admin log.
    expect(await db().select().from(containers).where(eq(containers.challengeId, c.id)).all()).toEqual([]);
    await expect.poll(() => warningsAbout(`challenge #${c.id} (`)).toEqual([expect.stringContaining("no container agent is reachable"), expect.stringContaining("no container agent is reachable")]);
  });

  it("answers 400 to an extension the agent refuses and releases a container whose agent answers an error", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    const r = await start(p.client, game.id, c.id);
    expect(r.status).toBe(200);
    const soon = Date.now() + 5 * 60_000;
    await db().update(containers).set({ expectStopAt: soon }).where(eq(containers.id, r.body.entry)).run();
    await resetCooldown(p.participation.id);
    const ext = await whileAgentRefuses(admin.client, () => extend(p.client, game.id, c.id));
    expect(ext.status).toBe(400);
    expect(ext.body).toEqual({ title: "The container could not be extended; try again later", status: 400 });
    expect((await liveRow(r.body.entry))!).toMatchObject({ status: "Running", expectStopAt: soon });

    await resetCooldown(p.participation.id);
    const del = await whileAgentRefuses(admin.client, () => destroy(p.client, game.id, c.id));
    expect(del.status).toBe(200);
    expect(del.body.title).toMatch(/^Instance released/);
    expect((await liveRow(r.body.entry))!.status).toBe("Destroyed");
    await expect
      .poll(() => warningsAbout(r.body.entry))
      .toEqual([expect.stringMatching(/not extended: the agent answered 401 agent\.signature_/), expect.stringMatching(/released without its agent: .*the agent answered 401/)]);
    // Released, not removed: the agent still runs it until expiry (removed here so the test leaves nothing).
    expect((await agentCall("GET", `/containers/${r.body.entry}`)).status).toBe(200);
    expect((await agentCall("DELETE", `/containers/${r.body.entry}`)).status).toBe(204);
  });

  it("counts starts made at the same moment against the team limit: only the room left is given", { timeout: 120_000 }, async () => {
    const { admin, game } = await setup({ containerCountLimit: 3 });
    const challenges = await Promise.all([0, 1, 2, 3, 4, 5].map(() => containerChallenge(admin.client, game.id)));
    const { captain, team, members } = await teamWithMembers(5);
    const players = [captain, ...members];
    for (const player of players) expect((await join(player.client, game.id, { teamId: team.id })).status).toBe(200);
    const participation = (await db().select().from(participations).where(and(eq(participations.teamId, team.id), eq(participations.gameId, game.id))).get())!;
    // Opened beforehand, so the starts below race through the same steps.
    for (const [i, ch] of challenges.entries()) expect((await players[i]!.client.json(`/api/game/${game.id}/challenges/${ch.id}`)).status).toBe(200);
    expect((await start(captain.client, game.id, challenges[0]!.id)).status).toBe(200);
    // Two slots left, five teammates asking at once (each for another challenge).
    const answers = await Promise.all(members.map((m, i) => start(m.client, game.id, challenges[i + 1]!.id)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 400, 400, 400]);
    for (const refused of answers.filter((a) => a.status === 400)) expect(refused.body.title).toBe("Container number limit exceeded");
    const live = await db().select().from(containers).where(and(eq(containers.participationId, participation.id), ne(containers.status, "Destroyed"))).all();
    expect(live).toHaveLength(3);
    for (const row of live) expect((await admin.client.json(`/api/admin/instances/${row.id}`, { method: "DELETE" })).status).toBe(200);
  });

  it("with auto-destroy, keeps the team's oldest container when the new one cannot start, and replaces it once the new one runs", { timeout: 90_000 }, async () => {
    const { admin, game } = await setup({ containerCountLimit: 1 });
    const a = await containerChallenge(admin.client, game.id);
    const b = await containerChallenge(admin.client, game.id);
    const c = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    const first = await start(p.client, game.id, a.id);
    expect(first.status).toBe(200);
    const policy = async (autoDestroyOnLimitReached: boolean) =>
      expect((await admin.client.json("/api/admin/config", { method: "PUT", body: { containerPolicy: { autoDestroyOnLimitReached } } })).status).toBe(200);
    await policy(true);
    try {
      const failed = await withAgents(deadAgentUrl(), () => start(p.client, game.id, b.id));
      expect(failed.status).toBe(400);
      expect(failed.body.title).toBe("The container could not be started: try again in a few seconds, and tell the organisers if it keeps failing");
      // The failed start cost the team nothing: its container still runs, on the agent too.
      expect((await liveRow(first.body.entry))!.status).toBe("Running");
      expect((await agentGet(`/containers/${first.body.entry}`)).status).toBe(200);

      // At the limit, one replacement at a time: while another start of the team is under way, this one waits.
      const inFlight = await ghostContainer(p, game.id, c.id, "Pending");
      await resetCooldown(p.participation.id);
      const busy = await start(p.client, game.id, b.id);
      expect(busy.status).toBe(400);
      expect(busy.body.title).toBe("Another container of your team is starting: try again in a few seconds");
      expect((await liveRow(first.body.entry))!.status).toBe("Running");
      await db().delete(containers).where(eq(containers.id, inFlight)).run();

      await resetCooldown(p.participation.id);
      const second = await start(p.client, game.id, b.id);
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      // Replaced once the new one runs: back at the limit when the call returns.
      expect((await liveRow(first.body.entry))!.status).toBe("Destroyed");
      expect((await agentGet(`/containers/${first.body.entry}`)).status).toBe(404);
      const live = await db().select().from(containers).where(and(eq(containers.participationId, p.participation.id), ne(containers.status, "Destroyed"))).all();
      expect(live.map((x) => x.id)).toEqual([second.body.entry]);
      await resetCooldown(p.participation.id);
      expect((await destroy(p.client, game.id, b.id)).status).toBe(200);
    } finally {
      await policy(false);
    }
  });

  it("does not spend the 10-second cooldown on a start that failed", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    await withAgents(deadAgentUrl(), async () => {
      for (let i = 0; i < 2; i++) {
        const r = await start(p.client, game.id, c.id);
        expect(r.status, `try ${i + 1}`).toBe(400);
        expect(r.body.title).toBe("The container could not be started: try again in a few seconds, and tell the organisers if it keeps failing");
      }
    });
    // The agent is back: the team starts at once, and that start does count.
    const r = await start(p.client, game.id, c.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await destroy(p.client, game.id, c.id)).status).toBe(429);
    await resetCooldown(p.participation.id);
    expect((await destroy(p.client, game.id, c.id)).status).toBe(200);
  });

  it("releases an expired container: the detail no longer shows it, it cannot be extended, and the team starts a new one at once", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    const old = await start(p.client, game.id, c.id);
    expect(old.status).toBe(200);
    // Expired a moment ago; neither the agent (its own expiry is later) nor the grace period has removed it.
    await db().update(containers).set({ expectStopAt: Date.now() - 1_000 }).where(eq(containers.id, old.body.entry)).run();
    const detail = await p.client.json<ChallengeDetail>(`/api/game/${game.id}/challenges/${c.id}`);
    expect(detail.body.context).toMatchObject({ closeTime: null, instanceEntry: null });
    // Nor can it be extended back to life: it is released.
    await resetCooldown(p.participation.id);
    const late = await extend(p.client, game.id, c.id);
    expect(late.status).toBe(400);
    expect(late.body.title).toBe("No running container");
    expect((await liveRow(old.body.entry))!.status).toBe("Destroyed");

    await resetCooldown(p.participation.id);
    const fresh = await start(p.client, game.id, c.id);
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.body.entry).not.toBe(old.body.entry);
    expect((await liveRow(old.body.entry))!.status).toBe("Destroyed");
    expect((await agentGet(`/containers/${old.body.entry}`)).status).toBe(404);
    const again = await p.client.json<ChallengeDetail>(`/api/game/${game.id}/challenges/${c.id}`);
    expect(again.body.context).toMatchObject({ closeTime: fresh.body.expectStopAt, instanceEntry: fresh.body.entry });
    await resetCooldown(p.participation.id);
    expect((await destroy(p.client, game.id, c.id)).status).toBe(200);
  });
});

/** Inserts a container of the team (Running unless told) on an agent that no longer exists; returns its id. */
async function ghostContainer(p: Awaited<ReturnType<typeof acceptedPlayer>>, gameId: number, challengeId: number, status: "Running" | "Pending" = "Running"): Promise<string> {
  // Open the challenge so the instance exists.
  await p.client.json(`/api/game/${gameId}/challenges/${challengeId}`);
  const instance = (await db().select().from(gameInstances).where(and(eq(gameInstances.participationId, p.participation.id), eq(gameInstances.challengeId, challengeId))).get())!;
  const id = crypto.randomUUID();
  const now = Date.now();
  await db()
    .insert(containers)
    .values({ id, image: TEST_IMAGE, status, entry: id, startedAt: now, expectStopAt: now + 5 * 60_000, agentId: "agent-that-went-away", challengeId, instanceId: instance.id, participationId: p.participation.id })
    .run();
  return id;
}

/** Messages of the Warning log records that mention `text`. */
const warningsAbout = async (text: string) =>
  (await db().select({ message: logs.message }).from(logs).where(and(eq(logs.level, "Warning"), like(logs.message, `%${text}%`))).orderBy(logs.id).all()).map((l) => l.message);

/** The reasons of the admin log's "removed by agent" records of a container. */
const removalReasons = async (id: string) =>
  (await db().select({ params: logs.messageParams }).from(logs).where(eq(logs.messageKey, "containerRemovedByAgent")).orderBy(logs.id).all())
    .map((l) => l.params as { id?: string; reason?: string } | null)
    .filter((p) => p?.id === id)
    .map((p) => p!.reason);

const agentEnv = env as unknown as { FLAGSTAFF_AGENTS: string; FLAGSTAFF_AGENT_SECRET: string };
const deadAgentUrl = () => agentEnv.FLAGSTAFF_AGENTS.split(",")[1]!;

/** Runs `act` while the Worker knows only these agents (the bindings are read per request). */
async function withAgents<T>(agents: string, act: () => Promise<T>): Promise<T> {
  const saved = agentEnv.FLAGSTAFF_AGENTS;
  agentEnv.FLAGSTAFF_AGENTS = agents;
  try {
    return await act();
  } finally {
    agentEnv.FLAGSTAFF_AGENTS = saved;
  }
}

let spelling = 0;

/**
 * Runs `act` while the test agent refuses the Worker's signature (401, as after a secret changed on one
 * side), with the Worker still believing the agent healthy, so calls meet the agent's error answer rather
 * than its absence. The Worker caches health per base URL for 10 s and marks a URL unreachable after a
 * refused signature; each run therefore names the agent with a fresh spelling of its address (leading
 * zeros in the port), checks its health with the right secret first, and leaves the real URL untouched.
 */
async function whileAgentRefuses<T>(admin: Client, act: () => Promise<T>): Promise<T> {
  const url = new URL(agentEnv.FLAGSTAFF_AGENTS.split(",")[0]!);
  spelling += 1;
  const secret = agentEnv.FLAGSTAFF_AGENT_SECRET;
  return withAgents(`${url.protocol}//${url.hostname}:${"0".repeat(spelling)}${url.port}`, async () => {
    const health = await admin.json<{ agentId: string; reachable: boolean }[]>("/api/admin/agents");
    expect(health.body).toEqual([expect.objectContaining({ agentId: agent.agentId, reachable: true })]);
    agentEnv.FLAGSTAFF_AGENT_SECRET = "x".repeat(64);
    try {
      return await act();
    } finally {
      agentEnv.FLAGSTAFF_AGENT_SECRET = secret;
    }
  });
}

describe("admin containers", () => {
  it("completes every cleanup when the agent answers an error: 200, the change made, the rows released, a Warning logged", { timeout: 120_000 }, async () => {
    const { admin, game } = await setup({ containerCountLimit: 0 });
    const [instanceOf, disabled, deleted, inGame] = await Promise.all([0, 1, 2, 3].map(() => containerChallenge(admin.client, game.id)));
    const p = await acceptedPlayer(game.id);
    const entries: string[] = [];
    for (const ch of [instanceOf!, disabled!, deleted!, inGame!]) {
      const r = await start(p.client, game.id, ch.id);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      entries.push(r.body.entry);
    }
    const test = await admin.client.json<Info>(`/api/edit/games/${game.id}/challenges/${inGame!.id}/container`, { method: "POST" });
    expect(test.status).toBe(200);
    const released = [...entries, test.body.entry];

    const instance = await whileAgentRefuses(admin.client, () => admin.client.json<ErrorBody>(`/api/admin/instances/${entries[0]}`, { method: "DELETE" }));
    expect(instance.status).toBe(200);
    expect(instance.body.title).toMatch(/^Instance released/);
    expect((await liveRow(entries[0]!))!.status).toBe("Destroyed");

    const testStop = await whileAgentRefuses(admin.client, () => admin.client.json<ErrorBody>(`/api/edit/games/${game.id}/challenges/${inGame!.id}/container`, { method: "DELETE" }));
    expect(testStop.status).toBe(200);
    expect(testStop.body.title).toMatch(/^Instance released/);
    expect((await liveRow(test.body.entry))!.status).toBe("Destroyed");

    const off = await whileAgentRefuses(admin.client, () => admin.client.json<ChallengeEditDetail>(`/api/edit/games/${game.id}/challenges/${disabled!.id}`, { method: "PUT", body: { isEnabled: false } }));
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.isEnabled).toBe(false);
    expect((await liveRow(entries[1]!))!.status).toBe("Destroyed");

    const gone = await whileAgentRefuses(admin.client, () => admin.client.json(`/api/edit/games/${game.id}/challenges/${deleted!.id}`, { method: "DELETE" }));
    expect(gone.status).toBe(200);
    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/${deleted!.id}`)).status).toBe(404);
    expect(await liveRow(entries[2]!)).toBeUndefined();

    // The game's last team container, on an agent that answers an error: the game is deleted all the same.
    const game2 = await whileAgentRefuses(admin.client, () => admin.client.json(`/api/edit/games/${game.id}`, { method: "DELETE" }));
    expect(game2.status).toBe(200);
    expect((await admin.client.json(`/api/edit/games/${game.id}`)).status).toBe(404);

    expect(await liveRow(entries[3]!)).toBeUndefined();
    // One Warning per released container (a bulk removal names its containers in one record).
    for (const id of released) await expect.poll(() => warningsAbout(id)).toEqual([expect.stringContaining("the agent answered 401")]);
    // Released, not removed: the agents reap them at expiry; removed here so the test leaves nothing behind.
    for (const id of released) expect((await agentCall("DELETE", `/containers/${id}`)).status).toBe(204);
  });

  it("starts and stops a test container with the test flag, reachable only through proxy/noinst", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id, { isEnabled: false });
    const r = await admin.client.json<Info & { testFlag: string } & ErrorBody>(`/api/edit/games/${game.id}/challenges/${c.id}/container`, { method: "POST" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe("Running");
    expect(r.body.testFlag).toBe("flag{TestTeamHash}");
    const detail = await admin.client.json<ChallengeEditDetail>(`/api/edit/games/${game.id}/challenges/${c.id}`);
    expect(detail.body.testContainer).toMatchObject({ entry: r.body.entry, status: "Running", testFlag: r.body.testFlag });

    const vars = await containerEnv(`/api/proxy/noinst/${r.body.entry}`);
    expect(vars.FLAGSTAFF_TEAM_ID).toBe("admin");
    expect(vars.FLAGSTAFF_FLAG).toBe(r.body.testFlag);
    expect(vars.FLAGSTAFF_GAME_ID).toBeUndefined();
    // A new flag template does not change the flag the running container holds, nor the one shown for it.
    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/${c.id}`, { method: "PUT", body: { flagTemplate: "other{[TEAM_HASH]}" } })).status).toBe(200);
    const again = await admin.client.json<ChallengeEditDetail>(`/api/edit/games/${game.id}/challenges/${c.id}`);
    expect(again.body.testContainer?.testFlag).toBe(r.body.testFlag);
    // Test containers are not team instances.
    expect((await exports.default.fetch(`${BASE}/api/proxy/${r.body.entry}`)).status).toBe(404);
    expect((await exports.default.fetch(`${BASE}/api/proxy/noinst/${r.body.entry}`)).status).toBe(204);
    const instances = await admin.client.json<{ data: { containerGuid: string }[] }>("/api/admin/instances");
    expect(instances.body.data.some((x) => x.containerGuid === r.body.entry)).toBe(false);

    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/${c.id}/container`, { method: "DELETE" })).status).toBe(200);
    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/${c.id}/container`, { method: "DELETE" })).status).toBe(404);
    expect((await admin.client.json<ChallengeEditDetail>(`/api/edit/games/${game.id}/challenges/${c.id}`)).body.testContainer).toBeNull();

    const broken = await containerChallenge(admin.client, game.id, { isEnabled: false, containerImage: BROKEN_IMAGE });
    const failed = await admin.client.json<ErrorBody>(`/api/edit/games/${game.id}/challenges/${broken.id}/container`, { method: "POST" });
    expect(failed.status).toBe(400);
    // An admin's test start says why in the admin's language, then in the agent's words (players get the
    // plain "could not be started"). The broken image's command exits at once.
    expect(failed.body.title).toMatch(/^The container host could not start it: the container stopped right after it started \(check the image and its command\)\. The host says: container is not running \(exited, exit code \d+\)$/);
    const inJapanese = await admin.client.json<ErrorBody>(`/api/edit/games/${game.id}/challenges/${broken.id}/container`, { method: "POST", headers: { "accept-language": "ja-JP" } });
    expect(inJapanese.body.title).toMatch(/^コンテナホストが起動できませんでした：コンテナが起動直後に停止しました（イメージとそのコマンドを確認してください）。ホストからの詳細：container is not running/);
    expect(await db().select().from(containers).where(and(eq(containers.challengeId, broken.id), isNull(containers.instanceId))).all()).toEqual([]);
  });

  it("lists live team containers and destroys one", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    const r = await start(p.client, game.id, c.id);
    expect(r.status).toBe(200);
    const player = await p.client.json("/api/admin/instances");
    expect(player.status).toBe(403);
    type Row = { team: { id: number; name: string }; challenge: { id: number; title: string; category: string }; image: string; containerGuid: string; containerId: string; startedAt: number; expectStopAt: number; ip: string; port: number; agentReachable: boolean };
    const list = await admin.client.json<{ data: Row[]; length: number; total: number }>("/api/admin/instances");
    expect(list.status).toBe(200);
    expect(list.body.length).toBe(list.body.data.length);
    const row = list.body.data.find((x) => x.containerGuid === r.body.entry)!;
    expect(row).toMatchObject({ team: { id: p.team.id, name: p.team.name }, challenge: { id: c.id, title: c.title, category: "Web" }, image: TEST_IMAGE, expectStopAt: r.body.expectStopAt, port: 80, agentReachable: true });
    expect(row.containerId).toMatch(/^[0-9a-f]{64}$/);
    expect(row.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);

    expect((await admin.client.json(`/api/admin/instances/${r.body.entry}`, { method: "DELETE" })).status).toBe(200);
    expect((await admin.client.json(`/api/admin/instances/${r.body.entry}`, { method: "DELETE" })).status).toBe(404);
    const after = await admin.client.json<{ data: Row[] }>("/api/admin/instances");
    expect(after.body.data.some((x) => x.containerGuid === r.body.entry)).toBe(false);
    const events = await db().select().from(gameEvents).where(and(eq(gameEvents.gameId, game.id), eq(gameEvents.type, "ContainerDestroy"))).all();
    expect(events).toHaveLength(1);
    // Removed by an admin: no player is named (it used to name the player who had started it).
    expect(events[0]).toMatchObject({ userId: null, teamId: p.team.id });
    const listed = await admin.client.json<{ type: string; user: string | null; team: string | null }[]>(`/api/game/${game.id}/events`);
    expect(listed.body.find((e) => e.type === "ContainerDestroy")).toMatchObject({ user: null, team: p.team.name });
  });

  it("destroys a team's containers when it no longer takes part (suspended), and only that team's", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const suspended = await acceptedPlayer(game.id);
    const other = await acceptedPlayer(game.id);
    const mine = await start(suspended.client, game.id, c.id);
    const theirs = await start(other.client, game.id, c.id);
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect((await admin.client.json(`/api/admin/participation/${suspended.participation.id}/Suspended`, { method: "PUT" })).status).toBe(200);
    // The suspended team can no longer destroy it (every player call is refused), so the review does.
    expect((await destroy(suspended.client, game.id, c.id)).status).toBe(403);
    expect((await agentGet(`/containers/${mine.body.entry}`)).status).toBe(404);
    expect(await db().select().from(containers).where(and(eq(containers.participationId, suspended.participation.id), ne(containers.status, "Destroyed"))).all()).toEqual([]);
    expect((await agentGet(`/containers/${theirs.body.entry}`)).status).toBe(200);
    // Accepting a team again starts nothing by itself.
    expect((await admin.client.json(`/api/admin/participation/${other.participation.id}`, { method: "PUT", body: { status: "Accepted" } })).status).toBe(200);
    expect((await agentGet(`/containers/${theirs.body.entry}`)).status).toBe(200);
    await resetCooldown(other.participation.id);
    expect((await destroy(other.client, game.id, c.id)).status).toBe(200);
  });

  it("destroys a team's containers when an admin deletes the team (a captain cannot disband a team with results)", { timeout: 90_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const deleted = await acceptedPlayer(game.id);
    const disbanded = await acceptedPlayer(game.id);
    const mine = await start(deleted.client, game.id, c.id);
    const theirs = await start(disbanded.client, game.id, c.id);
    expect([mine.status, theirs.status]).toEqual([200, 200]);

    expect((await admin.client.json(`/api/admin/teams/${deleted.team.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await agentGet(`/containers/${mine.body.entry}`)).status).toBe(404);
    const events = await db().select().from(gameEvents).where(and(eq(gameEvents.gameId, game.id), eq(gameEvents.type, "ContainerDestroy"))).all();
    expect(events.map((e) => e.values)).toEqual([[String(c.id), c.title]]);
    expect((await agentGet(`/containers/${theirs.body.entry}`)).status).toBe(200);

    // After the end (practice mode on, containers still allowed) the team has results: its captain cannot
    // disband it (the board keeps them), and the containers run on until an admin deletes the team.
    expect((await updateGame(admin.client, game.id, { start: Date.now() - 2 * HOUR, end: Date.now() - 60_000 })).status).toBe(200);
    const disband = await disbanded.client.json<ErrorBody>(`/api/team/${disbanded.team.id}`, { method: "DELETE" });
    expect(disband.body.status, JSON.stringify(disband.body)).toBe(400);
    expect((await agentGet(`/containers/${theirs.body.entry}`)).status).toBe(200);
    expect((await admin.client.json(`/api/admin/teams/${disbanded.team.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await agentGet(`/containers/${theirs.body.entry}`)).status).toBe(404);
  });

  it("destroys a challenge's containers when it is deleted, and a game's when the game is deleted", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const doomed = await containerChallenge(admin.client, game.id);
    const c = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    const first = await start(p.client, game.id, doomed.id);
    expect(first.status).toBe(200);
    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/${doomed.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await agentGet(`/containers/${first.body.entry}`)).status).toBe(404);
    const r = await start(p.client, game.id, c.id);
    expect(r.status).toBe(200);
    expect((await agentGet(`/containers/${r.body.entry}`)).status).toBe(200);
    expect((await admin.client.json(`/api/edit/games/${game.id}`, { method: "DELETE" })).status).toBe(200);
    // Gone from the agent too.
    expect((await agentGet(`/containers/${r.body.entry}`)).status).toBe(404);
    // The row went with the game; the agent no longer knows the instance.
    const known = await signedPost("/api/agent/instances", { agentId: agent.agentId, instanceIds: [r.body.entry] });
    expect(known.status).toBe(200);
    expect(await known.json()).toEqual({ known: [] });
  });
});

/** A signed call straight to the test agent (the first of FLAGSTAFF_AGENTS). */
async function agentCall(method: "GET" | "DELETE", path: string) {
  const base = (env as unknown as { FLAGSTAFF_AGENTS: string }).FLAGSTAFF_AGENTS.split(",")[0]!;
  return fetch(`${base}${path}`, { method, headers: await signRequest(SECRET, { method, path }) });
}

const agentGet = (path: string) => agentCall("GET", path);

async function signedPost(path: string, payload: unknown, secret = SECRET, headersOverride?: Record<string, string>) {
  const body = JSON.stringify(payload);
  const headers = headersOverride ?? (await signRequest(secret, { method: "POST", path, body }));
  return exports.default.fetch(`${BASE}${path}`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body });
}

describe("agent callbacks", () => {
  it("refuses unsigned, forged and replayed callbacks and answers signed ones", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    const r = await start(p.client, game.id, c.id);
    expect(r.status).toBe(200);
    const payload = { agentId: agent.agentId, instanceIds: [r.body.entry, crypto.randomUUID()] };

    const unsigned = await exports.default.fetch(`${BASE}/api/agent/instances`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
    expect(unsigned.status).toBe(401);
    expect((await signedPost("/api/agent/instances", payload, "x".repeat(64))).status).toBe(401);
    const body = JSON.stringify(payload);
    const headers = await signRequest(SECRET, { method: "POST", path: "/api/agent/instances", body });
    // Signed for another body: forged.
    expect((await signedPost("/api/agent/instances", { ...payload, instanceIds: [] }, SECRET, headers)).status).toBe(401);
    const ok = await signedPost("/api/agent/instances", payload, SECRET, headers);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ known: [r.body.entry] });
    expect((await signedPost("/api/agent/instances", payload, SECRET, headers)).status).toBe(401);
    const stale = await signRequest(SECRET, { method: "POST", path: "/api/agent/instances", body, now: Date.now() - 5 * 60_000 });
    expect((await signedPost("/api/agent/instances", payload, SECRET, stale)).status).toBe(401);

    // A forged "destroyed" event changes nothing; a signed one marks the row with its event.
    const event = { type: "container.destroyed", agentId: agent.agentId, at: Date.now(), instanceId: r.body.entry, reason: "expired" };
    expect((await signedPost("/api/agent/events", event, "y".repeat(64))).status).toBe(401);
    expect((await liveRow(r.body.entry))!.status).toBe("Running");
    expect((await signedPost("/api/agent/events", event)).status).toBe(204);
    expect((await liveRow(r.body.entry))!.status).toBe("Destroyed");
    // The agent's own reason is logged as it said it.
    expect(await removalReasons(r.body.entry)).toEqual(["expired"]);
    const events = await db().select().from(gameEvents).where(and(eq(gameEvents.gameId, game.id), eq(gameEvents.type, "ContainerDestroy"))).all();
    expect(events).toHaveLength(1);
    // The agent still runs it (the event was the test's): remove it through the admin path of its agent.
    await db().update(containers).set({ status: "Running" }).where(eq(containers.id, r.body.entry)).run();
    expect((await admin.client.json(`/api/admin/instances/${r.body.entry}`, { method: "DELETE" })).status).toBe(200);
  });
});

describe("containers of an ended game", () => {
  it("are no longer known to the agent when the game ended without practice mode; test containers and practice games keep theirs", { timeout: 90_000 }, async () => {
    const { admin, game } = await setup({ practiceMode: false });
    const c = await containerChallenge(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    const team = await start(p.client, game.id, c.id);
    expect(team.status, JSON.stringify(team.body)).toBe(200);
    const test = await admin.client.json<Info & ErrorBody>(`/api/edit/games/${game.id}/challenges/${c.id}/container`, { method: "POST" });
    expect(test.status, JSON.stringify(test.body)).toBe(200);
    const practice = await setup();
    const pc = await containerChallenge(practice.admin.client, practice.game.id);
    const pp = await acceptedPlayer(practice.game.id);
    const kept = await start(pp.client, practice.game.id, pc.id);
    expect(kept.status).toBe(200);
    const ask = async () => {
      const r = await signedPost("/api/agent/instances", { agentId: agent.agentId, instanceIds: [team.body.entry, test.body.entry, kept.body.entry] });
      expect(r.status).toBe(200);
      return ((await r.json()) as { known: string[] }).known.sort();
    };
    expect(await ask()).toEqual([team.body.entry, test.body.entry, kept.body.entry].sort());

    for (const g of [{ admin, id: game.id }, { admin: practice.admin, id: practice.game.id }]) {
      expect((await updateGame(g.admin.client, g.id, { start: Date.now() - 2 * HOUR, end: Date.now() - 60_000 })).status).toBe(200);
    }
    // The team can no longer destroy it (10002); the agent's next pass removes it, and the row follows.
    expect((await destroy(p.client, game.id, c.id)).status).toBe(400);
    expect(await ask()).toEqual([test.body.entry, kept.body.entry].sort());

    const gone = { type: "container.destroyed", agentId: agent.agentId, at: Date.now(), instanceId: team.body.entry, reason: "unknown" };
    expect((await signedPost("/api/agent/events", gone)).status).toBe(204);
    expect((await liveRow(team.body.entry))!.status).toBe("Destroyed");
    // The admin log says why: the platform let it go because the game ended without practice mode.
    expect(await removalReasons(team.body.entry)).toEqual(["gameEnded"]);

    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/${c.id}/container`, { method: "DELETE" })).status).toBe(200);
    expect((await practice.admin.client.json(`/api/admin/instances/${kept.body.entry}`, { method: "DELETE" })).status).toBe(200);
    expect((await admin.client.json(`/api/admin/instances/${team.body.entry}`, { method: "DELETE" })).status).toBe(404);
    // The agent itself still runs the team's container (the event above was the test's): remove it there.
    expect((await agentCall("DELETE", `/containers/${team.body.entry}`)).status).toBe(204);
  });
});

describe("proxy and traffic capture", () => {
  it("relays a TCP echo over the WebSocket and answers 404/204 for unknown and plain requests", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id, { exposePort: 7 });
    const p = await acceptedPlayer(game.id);
    const r = await start(p.client, game.id, c.id);
    expect(r.status).toBe(200);
    expect((await exports.default.fetch(`${BASE}/api/proxy/${r.body.entry}`)).status).toBe(204);
    const unknown = crypto.randomUUID();
    expect((await exports.default.fetch(`${BASE}/api/proxy/${unknown}`)).status).toBe(404);
    expect((await exports.default.fetch(`${BASE}/api/proxy/not-a-uuid`)).status).toBe(404);
    const message = `echo ${unique()}\n`;
    expect(await throughProxy(`/api/proxy/${r.body.entry}`, message, (t) => t.includes(message))).toContain(message);
    await resetCooldown(p.participation.id);
    expect((await destroy(p.client, game.id, c.id)).status).toBe(200);
  });

  it("answers 418 when the container's port refuses the connection", { timeout: 60_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id, { exposePort: 9 });
    const p = await acceptedPlayer(game.id);
    const r = await start(p.client, game.id, c.id);
    expect(r.status).toBe(200);
    const res = await exports.default.fetch(`${BASE}/api/proxy/${r.body.entry}`, { headers: { Upgrade: "websocket" } });
    expect(res.status).toBe(418);
    await resetCooldown(p.participation.id);
    expect((await destroy(p.client, game.id, c.id)).status).toBe(200);
  });

  it("leaves a capture of no container of its own on the agent until it is an hour old, then drops it unstored", { timeout: 90_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id, { exposePort: 7, enableTrafficCapture: true });
    const p = await acceptedPlayer(game.id);
    const r = await start(p.client, game.id, c.id);
    expect(r.status).toBe(200);
    const message = `not ours ${unique()}\n`;
    expect(await throughProxy(`/api/proxy/${r.body.entry}`, message, (t) => t.includes(message))).toContain(message);
    await resetCooldown(p.participation.id);
    expect((await destroy(p.client, game.id, c.id)).status).toBe(200);
    // The agent has the finished file; the platform then forgets the container (as another platform, whose
    // challenge and team ids are the same numbers, never knew it).
    const onAgent = async () => ((await (await agentGet("/captures")).json()) as { captures: { key: string; instanceId: string }[] }).captures.filter((f) => f.instanceId === r.body.entry);
    let files: { key: string }[] = [];
    for (let i = 0; i < 40 && files.length === 0; i++) {
      await new Promise((done) => setTimeout(done, 250));
      files = await onAgent();
    }
    expect(files.length).toBeGreaterThan(0);
    expect(files[0]!.key.startsWith(`${c.id}/${p.participation.id}/`)).toBe(true);
    await db().delete(containers).where(eq(containers.id, r.body.entry)).run();
    const deps = (now: number) => ({ db: db(), now, env: env as unknown as AgentsEnv, bucket: (env as unknown as { FILES: R2Bucket }).FILES });

    // Young: neither collected nor dropped.
    expect(await sweepCaptures(deps(Date.now()), true)).toBe(0);
    expect(await onAgent()).toHaveLength(files.length);
    expect((await admin.client.json<unknown[]>(`/api/game/captures/${c.id}`)).body).toEqual([]);

    // An hour after its creation it is dropped from the agent, still unstored.
    expect(await sweepCaptures(deps(Date.now() + UNKNOWN_CAPTURE_DROP_MS + 60_000), true)).toBe(0);
    expect(await onAgent()).toEqual([]);
    expect(await db().select().from(trafficCaptures).where(eq(trafficCaptures.challengeId, c.id)).all()).toEqual([]);
    expect((await (env as unknown as { FILES: R2Bucket }).FILES.list({ prefix: `capture/${c.id}/${p.participation.id}/` })).objects).toEqual([]);
    // The sweep and health check dated an hour ahead hold back no later one: the next test collects at once.
  });

  it("collects captured traffic into R2 and serves it to monitors, one file or all as .tar.gz", { timeout: 90_000 }, async () => {
    const { admin, game } = await setup();
    const c = await containerChallenge(admin.client, game.id, { exposePort: 7, enableTrafficCapture: true });
    const p = await acceptedPlayer(game.id);
    const r = await start(p.client, game.id, c.id);
    expect(r.status).toBe(200);
    expect((await liveRow(r.body.entry))!.captureEnabled).toBe(true);
    const message = `captured ${unique()}\n`;
    expect(await throughProxy(`/api/proxy/${r.body.entry}`, message, (t) => t.includes(message))).toContain(message);

    // The agent closes the file after 1 s idle (test setting); a monitor list call collects it.
    type Team = { id: number; teamId: number; name: string; count: number };
    let teams: Team[] = [];
    // Up to 40 s: on a loaded machine (the whole suite and more beside it) one wait of 20 s ran out once.
    for (let i = 0; i < 80 && teams.length === 0; i++) {
      await new Promise((done) => setTimeout(done, 500));
      teams = (await admin.client.json<Team[]>(`/api/game/captures/${c.id}`)).body;
    }
    expect(teams).toHaveLength(1);
    expect(teams[0]).toMatchObject({ id: p.participation.id, teamId: p.team.id, name: p.team.name });
    const challengesList = await admin.client.json<{ id: number; count: number }[]>(`/api/game/games/${game.id}/captures`);
    expect(challengesList.body).toEqual([expect.objectContaining({ id: c.id, count: teams[0]!.count })]);

    const files = (await admin.client.json<{ fileName: string; size: number; updateTime: number }[]>(`/api/game/captures/${c.id}/${p.participation.id}`)).body;
    expect(files.length).toBeGreaterThan(0);
    const file = files[0]!;
    expect(file.fileName).toMatch(/^[0-9a-f]{12}-[0-9a-f]+\.pcap$/);
    const stored = (await db().select().from(trafficCaptures).where(eq(trafficCaptures.fileName, file.fileName)).get())!;
    expect(stored.r2Key).toBe(`capture/${c.id}/${p.participation.id}/${file.fileName}`);
    const object = await (env as unknown as { FILES: R2Bucket }).FILES.get(stored.r2Key);
    expect(object).not.toBeNull();
    const gz = new Uint8Array(await object!.arrayBuffer());
    expect([gz[0], gz[1]]).toEqual([0x1f, 0x8b]);
    const pcap = new Uint8Array(await new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
    // Classic pcap magic (little-endian), and the relayed bytes inside.
    expect([...pcap.slice(0, 4)]).toEqual([0xd4, 0xc3, 0xb2, 0xa1]);
    expect(new TextDecoder().decode(pcap)).toContain(message.trim());

    const one = await admin.client.fetch(`/api/game/captures/${c.id}/${p.participation.id}/${file.fileName}`);
    expect(one.status).toBe(200);
    expect(one.headers.get("content-type")).toBe("application/vnd.tcpdump.pcap");
    expect(one.headers.get("content-encoding")).toBe("gzip");
    const served = new Uint8Array(await one.arrayBuffer());
    // Depending on the client the body arrives decoded or as stored; either way it is this pcap.
    const plain = served[0] === 0x1f ? new Uint8Array(await new Response(new Blob([served]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer()) : served;
    expect(plain).toEqual(pcap);
    // The listed size is the pcap's, the bytes the download gives (FileRecord.size), not the stored gzip's.
    expect(file.size).toBe(pcap.length);
    expect(stored.size).toBe(gz.length);

    const all = await admin.client.fetch(`/api/game/captures/${c.id}/${p.participation.id}/all`);
    expect(all.status).toBe(200);
    expect(all.headers.get("content-disposition")).toContain(`Capture-${c.id}-${p.participation.id}-`);
    const tar = new Uint8Array(await new Response(all.body!.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
    expect(new TextDecoder().decode(tar.slice(0, 100)).replace(/\0+$/, "")).toBe(files[0]!.fileName);
    expect([...tar.slice(512, 516)]).toEqual([0xd4, 0xc3, 0xb2, 0xa1]);
    expect(tar.slice(512, 512 + pcap.length)).toEqual(pcap);

    // Players are not monitors.
    expect((await p.client.json(`/api/game/captures/${c.id}`)).status).toBe(403);

    expect((await admin.client.json(`/api/game/captures/${c.id}/${p.participation.id}/${file.fileName}`, { method: "DELETE" })).status).toBe(200);
    expect(await (env as unknown as { FILES: R2Bucket }).FILES.head(stored.r2Key)).toBeNull();
    if (files.length > 1) expect((await admin.client.json(`/api/game/captures/${c.id}/${p.participation.id}/all`, { method: "DELETE" })).status).toBe(200);
    expect((await admin.client.json(`/api/game/captures/${c.id}/${p.participation.id}/all`, { method: "DELETE" })).status).toBe(404);
    expect((await admin.client.fetch(`/api/game/captures/${c.id}/${p.participation.id}/all`)).status).toBe(404);
    await resetCooldown(p.participation.id);
    expect((await destroy(p.client, game.id, c.id)).status).toBe(200);
  });

  it("reports the PlatformProxy port mapping in the client config", async () => {
    const config = await exports.default.fetch(`${BASE}/api/config`);
    expect(((await config.json()) as { portMapping: string }).portMapping).toBe("PlatformProxy");
  });
});
