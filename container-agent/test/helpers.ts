/** Shared pieces of the agent tests: a real agent on a real Docker engine, and a signing client. */
import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import Dockerode from "dockerode";
import { signPathWithQuery, signRequest, type CreateContainerRequest } from "../../app/core/agent-protocol.ts";
import { Agent, type AgentOptions } from "../src/agent.ts";
import { parseDockerHost, type AgentConfig } from "../src/config.ts";
import { MemoryLogger } from "../src/log.ts";

export const run = promisify(execFile);
export const DOCKER_HOST = process.env.DOCKER_HOST ?? "unix:///tmp/flagstaff-docker.sock";
export const docker = new Dockerode(parseDockerHost(DOCKER_HOST));
export const TEST_IMAGE = "flagstaff-test/busybox:latest";
export const BROKEN_IMAGE = "flagstaff-test/broken:latest";
export const SECRET = randomBytes(32).toString("hex");

export interface TestAgent {
  agent: Agent;
  log: MemoryLogger;
  config: AgentConfig;
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

export function testConfig(overrides: Partial<AgentConfig> = {}): AgentConfig {
  return {
    agentId: `test-${randomBytes(4).toString("hex")}`,
    secret: SECRET,
    host: "127.0.0.1",
    port: 0,
    publishHost: "127.0.0.1",
    publicHost: "127.0.0.1",
    capacity: 64,
    pidsLimit: 128,
    dataDir: join(tmpdir(), `flagstaff-agent-test-${randomBytes(4).toString("hex")}`),
    docker: parseDockerHost(DOCKER_HOST),
    registryAuth: null,
    platformUrl: null,
    customNetwork: "flagstaff-custom",
    reapIntervalMs: 60_000,
    captureIdleMs: 30_000,
    logLevel: "silent",
    tls: null,
    ...overrides,
  };
}

/** Signed JSON call to an agent. */
export async function signedCall<T>(url: string, secret: string, method: string, path: string, body?: unknown) {
  const text = body === undefined ? "" : JSON.stringify(body);
  const headers = await signRequest(secret, { method, path, body: text });
  const response = await fetch(url + path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : text,
  });
  const raw = await response.text();
  return { status: response.status, body: (raw ? JSON.parse(raw) : null) as T };
}

export async function startAgent(
  overrides: Partial<AgentConfig> = {},
  options: Omit<AgentOptions, "config" | "log"> = {},
): Promise<TestAgent> {
  const config = testConfig(overrides);
  const log = new MemoryLogger();
  const agent = await Agent.start({ config, log, knownInstances: null, runningCheckMs: 200, ...options });
  return {
    agent,
    log,
    config,
    call: (method, path, body) => signedCall(agent.url, config.secret, method, path, body),
    stop: () => agent.stop(),
  };
}

/** Removes every container of the agent and its data folder. */
export async function cleanup(config: AgentConfig): Promise<void> {
  const left = await docker.listContainers({ all: true, filters: { label: [`flagstaff.agent=${config.agentId}`] } });
  await Promise.all(left.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => {})));
  await rm(config.dataDir, { recursive: true, force: true });
}

export async function containersOf(agentId: string) {
  return docker.listContainers({ all: true, filters: { label: [`flagstaff.agent=${agentId}`] } });
}

export function createBody(overrides: Partial<CreateContainerRequest> = {}): CreateContainerRequest {
  return {
    instanceId: randomUUID(),
    image: TEST_IMAGE,
    cpuCount: 5,
    memoryLimit: 64,
    storageLimit: 256,
    exposePort: 80,
    networkMode: "Open",
    proxy: false,
    expectStopAt: Date.now() + 10 * 60_000,
    teamId: "12",
    userId: randomUUID(),
    challengeId: 34,
    gameId: 56,
    flag: `flag{${randomBytes(8).toString("hex")}}`,
    ...overrides,
  };
}

export async function signedProxyUrl(agentUrl: string, secret: string, instanceId: string, client?: string): Promise<string> {
  const path = `/proxy/${instanceId}${client ? `?client=${encodeURIComponent(client)}` : ""}`;
  return agentUrl.replace(/^http/, "ws") + (await signPathWithQuery(secret, { method: "GET", path }));
}

export async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 10_000, stepMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}
