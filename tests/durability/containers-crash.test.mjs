// Crash durability of containers: the real `npm start` server with its container agent (on the private
// test Docker engine) is killed with SIGKILL — launcher, workerd and agent — while players' containers
// are being created, then started again on the same data. Afterwards no container is orphaned (every
// container of this agent belongs to a live row, every Running row has its container) and no team is
// stuck: each can use or start its container. Needs the built app and the test engine
// (container-agent/scripts/dockerd.sh, test-image.sh; `npm test` prepares both).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { localAgentId, removeAgentContainers } from "../../scripts/lib/local-agent.mjs";
import { ADMIN, Client, freePort, killHard, openD1, startServer, stopServer } from "./server.mjs";

const DOCKER_HOST = process.env.FLAGSTAFF_TEST_DOCKER_HOST ?? "unix:///tmp/flagstaff-docker.sock";
const IMAGE = "flagstaff-test/busybox:latest";
const TEAMS = 6;
const HOUR = 3_600_000;

const dataDir = mkdtempSync(join(tmpdir(), "flagstaff-ccrash-"));
const agentId = localAgentId(dataDir);
let server = null;

const docker = (...args) => execFileSync("docker", args, { env: { ...process.env, DOCKER_HOST }, encoding: "utf8", timeout: 20_000 });

/** This agent's containers on the engine: instance id → running? */
function agentContainers() {
  const out = docker("ps", "-a", "--filter", `label=flagstaff.agent=${agentId}`, "--format", '{{.Label "flagstaff.instance"}} {{.State}}');
  return new Map(
    out
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [instance, state] = line.split(" ");
        return [instance, state === "running"];
      }),
  );
}

function liveRows(challengeId) {
  const db = openD1(dataDir);
  const rows = db.prepare("SELECT id, status, participation_id AS pid FROM containers WHERE challenge_id = ? AND status <> 'Destroyed'").all(challengeId);
  db.close();
  return rows;
}

afterAll(async () => {
  if (server) await stopServer(server);
  try {
    removeAgentContainers(agentId, DOCKER_HOST);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

const serverEnv = { DOCKER_HOST, FLAGSTAFF_DOCKER_HOST: DOCKER_HOST, FLAGSTAFF_AGENT_REAP_INTERVAL_MS: "1000" };

describe("crash durability of the container agent (SIGKILL while containers are created)", () => {
  it("leaves no orphan container and no stuck instance", { timeout: 240_000 }, async () => {
    const port = await freePort();
    server = await startServer({ dataDir, port, env: serverEnv });
    expect(server.output()).toContain("Containers are enabled");

    const admin = new Client(server.base);
    await admin.ok("/api/account/login", { method: "POST", body: ADMIN });
    const now = Date.now();
    const game = await admin.ok("/api/edit/games", { method: "POST", body: { title: `CCrash ${now}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true } });
    const challenge = await admin.ok(`/api/edit/games/${game.id}/challenges`, { method: "POST", body: { title: "Boxes", category: "Pwn", type: "StaticContainer" } });
    await admin.ok(`/api/edit/games/${game.id}/challenges/${challenge.id}/flags`, { method: "POST", body: [{ flag: "flag{box}" }] });
    await admin.ok(`/api/edit/games/${game.id}/challenges/${challenge.id}`, {
      method: "PUT",
      body: { containerImage: IMAGE, exposePort: 80, memoryLimit: 32, cpuCount: 1, isEnabled: true },
    });
    const players = [];
    for (let i = 0; i < TEAMS; i++) {
      const c = new Client(server.base);
      const userName = `ccrash${now.toString(36).slice(-4)}${i}`;
      await c.ok("/api/account/register", { method: "POST", body: { userName, password: "Passw0rd!x", email: `${userName}@example.com` } });
      const team = await c.ok("/api/team", { method: "POST", body: { name: `Box team ${i}` } });
      await c.ok(`/api/game/${game.id}`, { method: "POST", body: { teamId: team.id } });
      await c.ok(`/api/game/${game.id}/challenges/${challenge.id}`);
      players.push(c);
    }

    // Every team asks for its container at once; the runtime dies as soon as the first one is answered.
    const path = `/api/game/${game.id}/container/${challenge.id}`;
    let killed = null;
    const started = await Promise.all(
      players.map((c) =>
        c.json(path, { method: "POST" }).then(
          (r) => {
            if (r.status === 200 && !killed) killed = killHard(server);
            return r.status;
          },
          () => "lost",
        ),
      ),
    );
    await (killed ?? killHard(server));
    expect(started).toContain(200);
    console.log(`container crash test: answers before the kill ${JSON.stringify(started)}; engine holds ${agentContainers().size} of this agent's containers`);

    // Restart on the same data: the agent (same id) re-adopts what the platform knows and removes the rest.
    server = await startServer({ dataDir, port, env: serverEnv });
    for (const c of [admin, ...players]) c.base = server.base;
    await admin.ok("/api/account/login", { method: "POST", body: ADMIN });

    const deadline = Date.now() + 60_000;
    let state = null;
    while (Date.now() < deadline) {
      const onEngine = agentContainers();
      const rows = liveRows(challenge.id);
      const live = new Set(rows.map((r) => r.id));
      const orphans = [...onEngine.keys()].filter((id) => !live.has(id));
      const phantoms = rows.filter((r) => r.status === "Running" && onEngine.get(r.id) !== true).map((r) => r.id);
      const pending = rows.filter((r) => r.status === "Pending").map((r) => r.id);
      state = { orphans, phantoms, pending, rows: rows.length, onEngine: onEngine.size };
      if (orphans.length === 0 && phantoms.length === 0 && pending.length === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const agentLog = join(dataDir, "agent", "agent.log");
    if (state.orphans.length + state.phantoms.length + state.pending.length > 0 && existsSync(agentLog)) {
      console.log(`agent log (end):\n${readFileSync(agentLog, "utf8").slice(-4000)}`);
    }
    expect(state.orphans, "containers on the engine without a live row").toEqual([]);
    expect(state.phantoms, "Running rows without a running container").toEqual([]);
    expect(state.pending, "rows stuck in Pending").toEqual([]);

    // No team is stuck: each can start its container now (or already has it running).
    for (const c of players) {
      const r = await c.json(path, { method: "POST" });
      expect([200, 400], `POST container after restart → ${r.status} ${JSON.stringify(r.body)}`).toContain(r.status);
    }
    const rows = liveRows(challenge.id);
    expect(rows.filter((r) => r.status !== "Running"), "rows stuck in Pending").toEqual([]);
    expect(rows.length).toBe(TEAMS);
    expect(new Set(rows.map((r) => r.pid)).size).toBe(TEAMS);
    const onEngine = agentContainers();
    for (const row of rows) expect(onEngine.get(row.id), `container of ${row.id} runs`).toBe(true);

    // Destroying them leaves the engine clean.
    // One operation per instance per 10 s (rules.md): a team that just started its container waits.
    for (const c of players) {
      const until = Date.now() + 30_000;
      let r = await c.json(path, { method: "DELETE" });
      while (r.status === 429 && Date.now() < until) {
        await new Promise((done) => setTimeout(done, 1000));
        r = await c.json(path, { method: "DELETE" });
      }
      expect(r.status, `DELETE container → ${r.status} ${JSON.stringify(r.body)}`).toBe(200);
    }
    const cleanBy = Date.now() + 30_000;
    while (Date.now() < cleanBy && agentContainers().size > 0) await new Promise((r) => setTimeout(r, 500));
    expect(agentContainers().size).toBe(0);
  });
});
