import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  NonceCache,
  verifyRequest,
  type AgentContainer,
  type AgentEvent,
  type KnownInstancesRequest,
  type ListContainersResponse,
} from "../../app/core/agent-protocol.ts";
import type { AgentConfig } from "../src/config.ts";
import type { KnownInstancesProvider } from "../src/platform.ts";
import { cleanup, containersOf, createBody, docker, startAgent, testConfig, waitFor, type TestAgent } from "./helpers.ts";

const configs: AgentConfig[] = [];
const agents: TestAgent[] = [];

async function start(overrides: Partial<AgentConfig> = {}, options: Parameters<typeof startAgent>[1] = {}) {
  const t = await startAgent(overrides, options);
  agents.push(t);
  if (!configs.some((c) => c.agentId === t.config.agentId)) configs.push(t.config);
  return t;
}

afterEach(async () => {
  for (const t of agents.splice(0)) await t.stop();
  for (const config of configs.splice(0)) await cleanup(config);
});

describe("expiry", () => {
  it("reaps containers past expectStopAt and keeps extended ones", async () => {
    const t = await start({ reapIntervalMs: 200 });
    const short = createBody({ expectStopAt: Date.now() + 2500 });
    const extended = createBody({ expectStopAt: Date.now() + 4500 });
    const long = createBody();
    const [a, b, c] = await Promise.all([short, extended, long].map((body) => t.call<AgentContainer>("POST", "/containers", body)));
    expect([a!.status, b!.status, c!.status]).toEqual([201, 201, 201]);
    expect((await t.call("POST", `/containers/${extended.instanceId}/extend`, { expectStopAt: Date.now() + 10 * 60_000 })).status).toBe(200);

    await waitFor(async () => (await containersOf(t.config.agentId)).length === 2, 10_000);
    // Past the extended container's original expiry (its label) plus a few reaper passes.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, extended.expectStopAt + 800 - Date.now())));
    const left = (await containersOf(t.config.agentId)).map((x) => x.Labels["flagstaff.instance"]).sort();
    expect(left).toEqual([extended.instanceId, long.instanceId].sort());
    expect(t.log.find("container.destroyed").map((e) => [e.fields.instanceId, e.fields.reason])).toEqual([[short.instanceId, "expired"]]);
    const list = await t.call<ListContainersResponse>("GET", "/containers");
    expect(list.body.containers.map((x) => x.instanceId).sort()).toEqual(left);
  });

  it("removes a container that stopped behind its back", async () => {
    const t = await start({ reapIntervalMs: 200 });
    const body = createBody();
    const created = (await t.call<AgentContainer>("POST", "/containers", body)).body;
    await docker.getContainer(created.containerId).kill();
    await waitFor(async () => (await t.call("GET", `/containers/${body.instanceId}`)).status === 404, 10_000);
    expect(await containersOf(t.config.agentId)).toHaveLength(0);
    expect(t.log.find("container.destroyed").at(-1)?.fields).toMatchObject({ instanceId: body.instanceId, reason: "exited" });
  });
});

describe("the platform's word on every pass", () => {
  it("reaps a running container the platform drops, keeps the others, and keeps all while it cannot answer", async () => {
    let known: Set<string> | null = null;
    const provider: KnownInstancesProvider = {
      known: async () => {
        if (!known) throw new Error("platform down");
        return new Set(known);
      },
    };
    const t = await start({ reapIntervalMs: 200 }, { knownInstances: provider });
    const dropped = createBody();
    const kept = createBody();
    await t.call("POST", "/containers", dropped);
    await t.call("POST", "/containers", kept);
    // Several passes while the platform cannot answer: nothing is removed, and only the first failure
    // (at adoption, none here) would be logged.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await containersOf(t.config.agentId)).toHaveLength(2);
    expect(t.log.find("platform.unreachable")).toHaveLength(0);

    known = new Set([kept.instanceId]);
    await waitFor(async () => (await containersOf(t.config.agentId)).length === 1, 10_000);
    expect((await containersOf(t.config.agentId)).map((c) => c.Labels["flagstaff.instance"])).toEqual([kept.instanceId]);
    expect(t.log.find("container.destroyed").map((e) => [e.fields.instanceId, e.fields.reason])).toEqual([[dropped.instanceId, "unknown"]]);
    expect((await t.call("GET", `/containers/${kept.instanceId}`)).status).toBe(200);
  });
});

describe("restart", () => {
  it("re-adopts running containers with their extended expiry, and reaps those the platform no longer knows", async () => {
    const first = await start();
    const kept = createBody({ proxy: true, exposePort: 7 });
    const forgotten = createBody();
    const keptView = (await first.call<AgentContainer>("POST", "/containers", kept)).body;
    await first.call("POST", "/containers", forgotten);
    const extendedTo = kept.expectStopAt + 60 * 60_000;
    await first.call("POST", `/containers/${kept.instanceId}/extend`, { expectStopAt: extendedTo });
    await first.stop();
    // Containers outlive the agent.
    expect(await containersOf(first.config.agentId)).toHaveLength(2);

    const asked: string[][] = [];
    const provider: KnownInstancesProvider = {
      known: async (ids) => {
        asked.push([...ids].sort());
        return new Set([kept.instanceId]);
      },
    };
    const second = await start({ agentId: first.config.agentId, dataDir: first.config.dataDir }, { knownInstances: provider });
    expect(asked).toEqual([[kept.instanceId, forgotten.instanceId].sort()]);
    const list = (await second.call<ListContainersResponse>("GET", "/containers")).body.containers;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      instanceId: kept.instanceId,
      containerId: keptView.containerId,
      entry: kept.instanceId,
      ip: keptView.ip,
      port: 7,
      expectStopAt: extendedTo,
      state: "running",
    });
    expect(second.log.find("container.destroyed")).toEqual([
      expect.objectContaining({ fields: expect.objectContaining({ instanceId: forgotten.instanceId, reason: "unknown" }) }),
    ]);
    expect((await containersOf(first.config.agentId)).map((c) => c.Labels["flagstaff.instance"])).toEqual([kept.instanceId]);
    // The adopted container is fully managed: it can be destroyed.
    expect((await second.call("DELETE", `/containers/${kept.instanceId}`)).status).toBe(204);
    expect(await containersOf(first.config.agentId)).toHaveLength(0);
  });

  it("keeps every container when the platform cannot be asked", async () => {
    const first = await start();
    const a = createBody();
    const b = createBody();
    await first.call("POST", "/containers", a);
    await first.call("POST", "/containers", b);
    await first.stop();
    // Nothing listens on port 9: the callback fails.
    const second = await start({ agentId: first.config.agentId, dataDir: first.config.dataDir, platformUrl: "http://127.0.0.1:9" }, { knownInstances: undefined });
    const list = (await second.call<ListContainersResponse>("GET", "/containers")).body.containers;
    expect(list.map((c) => c.instanceId).sort()).toEqual([a.instanceId, b.instanceId].sort());
    expect(second.log.find("platform.unreachable")).toHaveLength(1);
    expect(second.log.find("container.destroyed")).toHaveLength(0);
  });
});

describe("platform callbacks", () => {
  let platform: Server | null = null;
  afterEach(async () => {
    await new Promise<void>((resolve) => (platform ? platform.close(() => resolve()) : resolve()));
    platform = null;
  });

  it("asks the platform over signed HTTP and reports state changes", async () => {
    const secret = testConfig().secret;
    const nonces = new NonceCache();
    const events: AgentEvent[] = [];
    const refused: string[] = [];
    let knownIds = new Set<string>();
    platform = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const verdict = await verifyRequest(secret, { method: req.method!, target: req.url!, headers: req.headers, body }, { nonces });
      if (!verdict.ok) {
        refused.push(verdict.reason);
        res.writeHead(401).end();
        return;
      }
      const payload = JSON.parse(body.toString()) as unknown;
      if (req.url === "/api/agent/instances") {
        const ask = payload as KnownInstancesRequest;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ known: ask.instanceIds.filter((id) => knownIds.has(id)) }));
        return;
      }
      if (req.url === "/api/agent/events") {
        events.push(payload as AgentEvent);
        res.writeHead(204).end();
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => platform!.listen(0, "127.0.0.1", resolve));
    const platformUrl = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;

    const first = await start({ platformUrl }, { knownInstances: undefined, events: undefined });
    const a = createBody();
    const b = createBody();
    await first.call("POST", "/containers", a);
    await first.call("POST", "/containers", b);
    await waitFor(async () => events.filter((e) => e.type === "container.started").length === 2);
    expect(events.find((e) => e.type === "container.started")).toMatchObject({ agentId: first.config.agentId, container: { instanceId: a.instanceId, state: "running" } });
    await first.stop();

    knownIds = new Set([b.instanceId]);
    const second = await start({ platformUrl, agentId: first.config.agentId, dataDir: first.config.dataDir }, { knownInstances: undefined, events: undefined });
    await waitFor(async () => events.some((e) => e.type === "container.destroyed"));
    expect(events.filter((e) => e.type === "container.destroyed")).toEqual([
      expect.objectContaining({ instanceId: a.instanceId, reason: "unknown", agentId: first.config.agentId }),
    ]);
    const list = (await second.call<ListContainersResponse>("GET", "/containers")).body.containers;
    expect(list.map((c) => c.instanceId)).toEqual([b.instanceId]);
    expect(refused).toEqual([]);
    // Extended expiry survives in the state file.
    await second.call("POST", `/containers/${b.instanceId}/extend`, { expectStopAt: b.expectStopAt + 1000 });
    const state = JSON.parse(await readFile(join(first.config.dataDir, "state.json"), "utf8")) as { expectStopAt: Record<string, number> };
    expect(state.expectStopAt[b.instanceId]).toBe(b.expectStopAt + 1000);
  });
});

describe("many cycles", () => {
  it("leaves no orphan after 100 create/destroy cycles, 4 at a time", async () => {
    const t = await start({ capacity: 8 });
    const cycles = 100;
    const parallel = 4;
    let next = 0;
    let failures = 0;
    const started = Date.now();
    const worker = async () => {
      while (next < cycles) {
        next += 1;
        const body = createBody();
        const created = await t.call<AgentContainer>("POST", "/containers", body);
        if (created.status !== 201) failures += 1;
        const destroyed = await t.call("DELETE", `/containers/${body.instanceId}`);
        if (destroyed.status !== 204) failures += 1;
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
    const elapsed = Date.now() - started;
    expect(failures).toBe(0);
    expect(await containersOf(t.config.agentId)).toHaveLength(0);
    expect((await t.call<ListContainersResponse>("GET", "/containers")).body.containers).toHaveLength(0);
    expect(t.log.find("container.created")).toHaveLength(cycles);
    expect(t.log.find("container.destroyed")).toHaveLength(cycles);
    // No container of any name prefix was left by this agent on the engine.
    const all = await docker.listContainers({ all: true });
    expect(all.filter((c) => c.Labels["flagstaff.agent"] === t.config.agentId)).toHaveLength(0);
    process.stdout.write(`100 create/destroy cycles (4 parallel): ${(elapsed / 1000).toFixed(1)} s\n`);
  }, 180_000);
});
