import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_HEADER_SIGNATURE, signRequest, type AgentContainer, type AgentHealth, type ListContainersResponse } from "../../app/core/agent-protocol.ts";
import { BROKEN_IMAGE, TEST_IMAGE, cleanup, containersOf, createBody, docker, startAgent, type TestAgent } from "./helpers.ts";

let t: TestAgent;

beforeAll(async () => {
  t = await startAgent({ capacity: 6 });
});

afterAll(async () => {
  await t.stop();
  await cleanup(t.config);
});

describe("creating containers", () => {
  it("applies limits, labels, env, network and publishes the port on the publish host", async () => {
    const body = createBody({ cpuCount: 5, memoryLimit: 64, storageLimit: 256, extraFlagEnvNames: ["CHALLENGE_FLAG"] });
    const { status, body: created } = await t.call<AgentContainer>("POST", "/containers", body);
    expect(status).toBe(201);
    expect(created).toMatchObject({
      instanceId: body.instanceId,
      image: TEST_IMAGE,
      state: "running",
      port: 80,
      publicIp: "127.0.0.1",
      expectStopAt: body.expectStopAt,
      // vfs cannot limit a container's size
      storageLimited: false,
      capture: false,
      teamId: "12",
      challengeId: 34,
      gameId: 56,
    });
    expect(created.name).toMatch(/^busybox_[0-9a-f]{16}$/);
    expect(created.entry).toBe(`127.0.0.1:${created.publicPort}`);

    const inspect = await docker.getContainer(created.containerId).inspect();
    expect(inspect.HostConfig.NanoCpus).toBe(500_000_000);
    expect(inspect.HostConfig.Memory).toBe(64 * 1024 * 1024);
    expect(inspect.HostConfig.PidsLimit).toBe(128);
    expect(inspect.HostConfig.NetworkMode).toBe("flagstaff-open");
    expect(inspect.NetworkSettings.Ports["80/tcp"]).toEqual([{ HostIp: "127.0.0.1", HostPort: String(created.publicPort) }]);
    expect(inspect.NetworkSettings.Networks["flagstaff-open"]?.IPAddress).toBe(created.ip);
    expect(inspect.Config.Labels).toMatchObject({
      "flagstaff.instance": body.instanceId,
      "flagstaff.team": "12",
      "flagstaff.user": body.userId,
      "flagstaff.challenge": "34",
      "flagstaff.game": "56",
      "flagstaff.agent": t.config.agentId,
    });
    expect(inspect.Config.Env).toEqual(
      expect.arrayContaining([
        "FLAGSTAFF_TEAM_ID=12",
        `FLAGSTAFF_USER_ID=${body.userId}`,
        "FLAGSTAFF_CHALLENGE_ID=34",
        "FLAGSTAFF_GAME_ID=56",
        `FLAGSTAFF_FLAG=${body.flag}`,
        `CHALLENGE_FLAG=${body.flag}`,
      ]),
    );

    // The service answers on the published port, and the process inside sees the flag.
    const page = await fetch(`http://${created.entry}/env`);
    expect(page.status).toBe(200);
    const env = await page.text();
    expect(env).toContain(`FLAGSTAFF_FLAG=${body.flag}`);
    expect(env).toContain(`CHALLENGE_FLAG=${body.flag}`);
    expect(env).toContain("FLAGSTAFF_TEAM_ID=12");

    const again = await t.call<AgentContainer>("GET", `/containers/${body.instanceId}`);
    expect(again.status).toBe(200);
    expect(again.body.containerId).toBe(created.containerId);

    // Asking again for the same instance returns the running container (a retried call makes no second one).
    const repeat = await t.call<AgentContainer>("POST", "/containers", body);
    expect(repeat.status).toBe(200);
    expect(repeat.body.containerId).toBe(created.containerId);
  });

  it("gives a static container no flag and uses the isolated network without publishing in proxy mode", async () => {
    const body = createBody({ flag: undefined, gameId: undefined, teamId: "admin", networkMode: "Isolated", proxy: true });
    const { status, body: created } = await t.call<AgentContainer>("POST", "/containers", body);
    expect(status).toBe(201);
    expect(created).toMatchObject({ publicIp: null, publicPort: null, entry: body.instanceId, gameId: null, teamId: "admin" });
    const inspect = await docker.getContainer(created.containerId).inspect();
    expect(inspect.HostConfig.NetworkMode).toBe("flagstaff-isolated");
    expect(inspect.HostConfig.PortBindings ?? {}).toEqual({});
    expect(inspect.Config.Env!.some((line) => line.startsWith("FLAGSTAFF_FLAG="))).toBe(false);
    expect(inspect.Config.Env!.some((line) => line.startsWith("FLAGSTAFF_GAME_ID="))).toBe(false);
    const network = await docker.getNetwork("flagstaff-isolated").inspect();
    expect(network.Options?.["com.docker.network.bridge.enable_ip_masquerade"]).toBe("false");
    expect(network.Internal).toBe(false);
  });

  it("fails for an image that does not stay up and leaves no container", async () => {
    const before = (await containersOf(t.config.agentId)).length;
    const { status, body } = await t.call<{ error: string; message: string }>("POST", "/containers", createBody({ image: BROKEN_IMAGE }));
    expect(status).toBe(400);
    expect(body.error).toBe("agent.not_running");
    expect(body.message).toMatch(/exited/);
    expect((await containersOf(t.config.agentId)).length).toBe(before);
  });

  it("fails for an image that cannot be found or pulled", async () => {
    const { status, body } = await t.call<{ error: string }>("POST", "/containers", createBody({ image: "127.0.0.1:1/flagstaff-missing:latest" }));
    expect(status).toBe(400);
    expect(body.error).toBe("agent.image_unavailable");
  });

  it("refuses malformed requests", async () => {
    const bad = [
      { ...createBody(), instanceId: "not-a-uuid" },
      { ...createBody(), cpuCount: 0 },
      { ...createBody(), memoryLimit: 1.5 },
      { ...createBody(), networkMode: "Host" },
      { ...createBody(), image: "UPPER/case" },
      { ...createBody(), extraFlagEnvNames: ["FLAGSTAFF_OTHER"] },
      { ...createBody(), expectStopAt: Date.now() - 1000 },
    ];
    for (const body of bad) {
      const { status, body: error } = await t.call<{ error: string }>("POST", "/containers", body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(error.error).toBe("agent.invalid_body");
    }
  });

  it("applies the documented proxy limits by default", () => {
    expect(t.agent.proxy.limits).toEqual({ maxConnections: 32, maxConnectionMs: 30 * 60_000, chunkBytes: 4096 });
  });

  it("reports health with capacity, running count and the storage driver", async () => {
    const { status, body } = await t.call<AgentHealth>("GET", "/health");
    expect(status).toBe(200);
    expect(body).toMatchObject({ agentId: t.config.agentId, capacity: 6, accepting: true, proxyConnections: 0 });
    expect(body.running).toBe((await containersOf(t.config.agentId)).length);
    expect(body.docker).toMatchObject({ reachable: true, storageDriver: "vfs", storageQuota: false, error: null });
    expect(body.docker.cpus).toBeGreaterThan(0);
  });

  it("refuses containers beyond its capacity with 503", async () => {
    const running = (await t.call<ListContainersResponse>("GET", "/containers")).body.containers.length;
    const made: string[] = [];
    for (let i = running; i < 6; i++) {
      const body = createBody();
      expect((await t.call("POST", "/containers", body)).status).toBe(201);
      made.push(body.instanceId);
    }
    const full = await t.call<{ error: string }>("POST", "/containers", createBody());
    expect(full.status).toBe(503);
    expect(full.body.error).toBe("agent.full");
    expect((await t.call<AgentHealth>("GET", "/health")).body.accepting).toBe(false);
    for (const id of made) expect((await t.call("DELETE", `/containers/${id}`)).status).toBe(204);
  });
});

describe("listing, extending and destroying", () => {
  it("lists, extends and destroys a container", async () => {
    const body = createBody();
    const created = (await t.call<AgentContainer>("POST", "/containers", body)).body;
    const list = await t.call<ListContainersResponse>("GET", "/containers");
    expect(list.body.containers.find((c) => c.instanceId === body.instanceId)).toMatchObject({ state: "running", entry: created.entry });

    const later = body.expectStopAt + 120 * 60_000;
    const extended = await t.call<AgentContainer>("POST", `/containers/${body.instanceId}/extend`, { expectStopAt: later });
    expect(extended.status).toBe(200);
    expect(extended.body.expectStopAt).toBe(later);

    expect((await t.call("DELETE", `/containers/${body.instanceId}`)).status).toBe(204);
    await expect(docker.getContainer(created.containerId).inspect()).rejects.toMatchObject({ statusCode: 404 });
    expect((await t.call("DELETE", `/containers/${body.instanceId}`)).status).toBe(404);
    expect((await t.call("POST", `/containers/${body.instanceId}/extend`, { expectStopAt: later })).status).toBe(404);
    expect((await t.call("GET", `/containers/${body.instanceId}`)).status).toBe(404);
    expect(t.log.find("container.destroyed").some((e) => e.fields.instanceId === body.instanceId && e.fields.reason === "request")).toBe(true);
  });

  it("answers 404 for unknown routes and instances", async () => {
    expect((await t.call("GET", "/nothing")).status).toBe(404);
    expect((await t.call("DELETE", `/containers/${randomUUID()}`)).status).toBe(404);
    expect((await t.call("GET", "/proxy/not-a-uuid")).status).toBe(404);
  });

  it("answers 400 in its error shape for a signed path with a broken escape, and logs no internal error", async () => {
    const internalBefore = t.log.find("agent.internal").length;
    for (const [method, path] of [
      ["GET", "/containers/%E0%A4%A"],
      ["DELETE", "/containers/%"],
      ["POST", "/containers/%zz/extend"],
      ["GET", "/captures/1/2/%E0%A4%A"],
      ["GET", "/%/health"],
    ] as const) {
      const { status, body } = await t.call<{ error: string; message: string }>(method, path, method === "POST" ? { expectStopAt: Date.now() + 60_000 } : undefined);
      expect(status, `${method} ${path}`).toBe(400);
      expect(body, `${method} ${path}`).toEqual({ error: "agent.invalid_path", message: "path segments must be percent-encoded UTF-8" });
    }
    expect(t.log.find("agent.internal")).toHaveLength(internalBefore);
    // The agent still answers.
    expect((await t.call("GET", "/health")).status).toBe(200);
  });
});

describe("the host's network", () => {
  // Chromium takes any address change on the host for a network change and fails its requests in flight
  // (ERR_NETWORK_CHANGED); the test engine's machine gets no generated address on new interfaces
  // (scripts/dockerd.sh). A container's veth pair must leave the host's addresses as they were.
  it("keeps its addresses while a container runs and after it ends", async () => {
    // Every IPv6 address of every interface, up or down, as the kernel's netlink reports them to Chromium
    // (IPv4 addresses are only set by hand: on Docker's bridges, when they are made).
    const addresses = () =>
      (existsSync("/proc/net/if_inet6") ? readFileSync("/proc/net/if_inet6", "utf8") : "")
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const [address, , , , , name] = line.trim().split(/\s+/);
          return `${name} ${address}`;
        })
        .sort();
    const before = addresses();
    const body = createBody();
    expect((await t.call("POST", "/containers", body)).status).toBe(201);
    // IPv6 duplicate address detection takes about a second before a link-local address shows.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(addresses()).toEqual(before);
    expect((await t.call("DELETE", `/containers/${body.instanceId}`)).status).toBe(204);
    expect(addresses()).toEqual(before);
  });
});

describe("request signatures", () => {
  const post = async (headers: Record<string, string>, body: string) =>
    fetch(`${t.agent.url}/containers`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body });

  it("refuses unsigned, forged, expired and replayed requests", async () => {
    const body = JSON.stringify(createBody());
    const unsigned = await post({}, body);
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as { error: string }).error).toBe("agent.signature_missing");

    const wrongKey = await signRequest("another-secret-another-secret-0000", { method: "POST", path: "/containers", body });
    expect((await post(wrongKey, body)).status).toBe(401);

    const signed = await signRequest(t.config.secret, { method: "POST", path: "/containers", body });
    const tampered = await post(signed, body.replace('"cpuCount":5', '"cpuCount":50'));
    expect(tampered.status).toBe(401);
    expect(((await tampered.json()) as { error: string }).error).toBe("agent.signature_forged");

    const stale = await signRequest(t.config.secret, { method: "POST", path: "/containers", body, now: Date.now() - 61_000 });
    const expired = await post(stale, body);
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { error: string }).error).toBe("agent.signature_expired");

    const first = await post(signed, body);
    expect(first.status).toBe(201);
    const replay = await post(signed, body);
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { error: string }).error).toBe("agent.signature_replayed");

    // A signature for one path does not open another.
    const health = await signRequest(t.config.secret, { method: "GET", path: "/health" });
    const moved = await fetch(`${t.agent.url}/containers`, { headers: health });
    expect(moved.status).toBe(401);
    expect(health[AGENT_HEADER_SIGNATURE]).toMatch(/^[0-9a-f]{64}$/);

    // Only the signed request created a container.
    const list = await t.call<ListContainersResponse>("GET", "/containers");
    const created = JSON.parse(body) as { instanceId: string };
    expect(list.body.containers.filter((c) => c.instanceId === created.instanceId)).toHaveLength(1);
    expect(list.body.containers.every((c) => c.image === TEST_IMAGE)).toBe(true);
  });
});
