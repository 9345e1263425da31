// Container start → entry ready through the platform (POST /api/game/{id}/container/{cid}), with a
// private container agent on loopback driving the Docker engine at DOCKER_HOST.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { HOST, request, waitForUrl } from "./net.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const DOCKER_HOST = process.env.DOCKER_HOST ?? "unix:///tmp/flagstaff-docker.sock";
export const IMAGE = "flagstaff-test/busybox:latest";

function docker(method, path) {
  const socketPath = DOCKER_HOST.replace(/^unix:\/\//, "");
  return new Promise((resolveCall) => {
    const req = http.request({ socketPath, path, method, timeout: 5_000 }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolveCall({ status: res.statusCode, body }));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolveCall({ status: 0, body: "" }));
    req.end();
  });
}

/** Whether a Docker engine answers at DOCKER_HOST (unix sockets only) and has the test image (built when missing). */
export async function dockerReady() {
  if (!DOCKER_HOST.startsWith("unix://")) return { ok: false, why: `DOCKER_HOST ${DOCKER_HOST} is not a local unix socket` };
  if ((await docker("GET", "/_ping")).status !== 200) return { ok: false, why: `no Docker engine at ${DOCKER_HOST}` };
  if ((await docker("GET", `/images/${IMAGE}/json`)).status !== 200) {
    const built = spawnSync(join(ROOT, "container-agent", "scripts", "test-image.sh"), [], { env: { ...process.env, DOCKER_HOST }, stdio: "ignore" });
    if (built.status !== 0) return { ok: false, why: `test image ${IMAGE} missing and could not be built` };
  }
  return { ok: true };
}

export async function startAgent(port) {
  const secret = randomBytes(32).toString("hex");
  const agentId = `bench-${process.pid}-${Date.now().toString(36)}`;
  const dataDir = mkdtempSync(join(tmpdir(), "flagstaff-bench-agent-"));
  const child = spawn(process.execPath, [join(ROOT, "container-agent", "src", "main.ts")], {
    cwd: join(ROOT, "container-agent"),
    env: {
      ...process.env,
      DOCKER_HOST,
      FLAGSTAFF_AGENT_SECRET: secret,
      FLAGSTAFF_AGENT_ID: agentId,
      FLAGSTAFF_AGENT_HOST: HOST,
      FLAGSTAFF_AGENT_PORT: String(port),
      FLAGSTAFF_AGENT_PUBLISH_HOST: HOST,
      FLAGSTAFF_AGENT_DATA_DIR: dataDir,
      FLAGSTAFF_AGENT_LOG_LEVEL: "error",
    },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const url = `http://${HOST}:${port}`;
  await waitForUrl(`${url}/health`, 20_000).catch((e) => {
    throw new Error(`${e.message}; agent: ${stderr.slice(0, 400)}`);
  });
  return {
    url,
    secret,
    agentId,
    async stop() {
      // Containers outlive the agent by design: remove the ones it labelled for this run.
      const filters = encodeURIComponent(JSON.stringify({ label: [`flagstaff.agent=${agentId}`] }));
      const list = await docker("GET", `/containers/json?all=1&filters=${filters}`);
      for (const c of list.status === 200 ? JSON.parse(list.body) : []) await docker("DELETE", `/containers/${c.Id}?force=1`);
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts `runs` containers for different teams; returns start → entry ready times (ms). */
export async function measureContainerStarts({ base, gameId, challengeId, teams, runs }) {
  const times = [];
  for (const team of teams.slice(0, runs)) {
    const t0 = performance.now();
    const res = await request(`${base}/api/game/${gameId}/container/${challengeId}`, { method: "POST", headers: { cookie: team.cookie }, timeoutMs: 30_000 });
    if (res.status !== 200) throw new Error(`container start answered ${res.status}: ${res.body.slice(0, 200)}`);
    const info = JSON.parse(res.body);
    const entry = String(info.entry ?? "");
    const m = /^([\d.]+):(\d+)$/.exec(entry);
    if (!m || (m[1] !== HOST && m[1] !== "localhost")) throw new Error(`container entry ${entry} is not a loopback host:port`);
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        const probe = await request(`http://${HOST}:${m[2]}/env`, { timeoutMs: 1_000 });
        if (probe.status === 200) break;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error(`entry ${entry} not ready after 15 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
    times.push(performance.now() - t0);
    await request(`${base}/api/game/${gameId}/container/${challengeId}`, { method: "DELETE", headers: { cookie: team.cookie } }).catch(() => undefined);
  }
  return times;
}
