/**
 * Node side of the container tests: a real container agent (container-agent/src/main.ts) on loopback,
 * talking to the private test dockerd (container-agent/scripts/dockerd.sh, images from test-image.sh).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { removeAgentContainers } from "../../scripts/lib/local-agent.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const TEST_DOCKER_HOST = "unix:///tmp/flagstaff-docker.sock";
export const TEST_IMAGE = "flagstaff-test/busybox:latest";
export const BROKEN_IMAGE = "flagstaff-test/broken:latest";

function socketPathOf(dockerHost: string): string {
  if (!dockerHost.startsWith("unix://")) throw new Error(`the container tests need a unix socket DOCKER_HOST, got ${dockerHost}`);
  return dockerHost.slice("unix://".length);
}

/** One Docker Engine API call over the unix socket. */
export function dockerApi(dockerHost: string, method: string, path: string, timeoutMs = 10_000): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request({ socketPath: socketPathOf(dockerHost), method, path, timeout: timeoutMs }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (part: string) => (body += part));
      res.on("end", () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on("timeout", () => req.destroy(new Error(`docker ${method} ${path} timed out`)));
    req.on("error", fail);
    req.end();
  });
}

/** Why the engine cannot serve the tests, or null when it answers and has the test image. */
export async function dockerProblem(dockerHost: string): Promise<string | null> {
  try {
    const ping = await dockerApi(dockerHost, "GET", "/_ping", 5_000);
    if (ping.status !== 200) return `dockerd at ${dockerHost} answered /_ping with ${ping.status}`;
    const image = await dockerApi(dockerHost, "GET", `/images/${encodeURIComponent(TEST_IMAGE)}/json`);
    if (image.status !== 200) return `the test image ${TEST_IMAGE} is missing: run container-agent/scripts/test-image.sh with DOCKER_HOST=${dockerHost}`;
    return null;
  } catch (error) {
    return `no Docker engine answers at ${dockerHost} (${error instanceof Error ? error.message : String(error)}): start it with container-agent/scripts/dockerd.sh (as root)`;
  }
}

export interface RunningAgent {
  url: string;
  agentId: string;
  stop: () => Promise<void>;
}

/** Starts an agent and resolves once it listens; its containers are removed when it is stopped. */
export async function startAgent(opts: { port: number; secret: string; dockerHost: string; extraEnv?: Record<string, string> }): Promise<RunningAgent> {
  const agentId = `flagstaff-test-${randomBytes(4).toString("hex")}`;
  const dataDir = mkdtempSync(join(tmpdir(), "flagstaff-agent-"));
  // Only what the agent needs: never the caller's FLAGSTAFF_* settings.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    DOCKER_HOST: opts.dockerHost,
    FLAGSTAFF_AGENT_SECRET: opts.secret,
    FLAGSTAFF_AGENT_ID: agentId,
    FLAGSTAFF_AGENT_HOST: "127.0.0.1",
    FLAGSTAFF_AGENT_PORT: String(opts.port),
    FLAGSTAFF_AGENT_DATA_DIR: dataDir,
    FLAGSTAFF_AGENT_CAPTURE_IDLE_MS: "1000",
    FLAGSTAFF_AGENT_REAP_INTERVAL_MS: "5000",
    ...opts.extraEnv,
  };
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, "container-agent", "src", "main.ts")], {
    cwd: join(ROOT, "container-agent"),
    env: env as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (part: Buffer) => {
    output = (output + part.toString("utf8")).slice(-20_000);
    // FLAGSTAFF_TEST_AGENT_LOG=1 shows the agent's JSON log lines while the tests run.
    if (process.env.FLAGSTAFF_TEST_AGENT_LOG === "1") process.stderr.write(part);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`the container agent did not start within 30 s:\n${output}`)), 30_000);
    const check = () => {
      if (output.includes("agent.listening")) {
        clearTimeout(timer);
        child.stdout!.off("data", check);
        ready();
      }
    };
    child.stdout!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`the container agent exited with ${code}:\n${output}`));
    });
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((done) => child.once("exit", done));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    // Containers outlive their agent by design; the tests leave none behind.
    try {
      removeAgentContainers(agentId, opts.dockerHost);
    } catch {
      // No engine: the tests that needed it have failed with the reason.
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url: `http://127.0.0.1:${opts.port}`, agentId, stop };
}
