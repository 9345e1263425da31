import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { signRequest, type AgentContainer, type ListCapturesResponse } from "../../app/core/agent-protocol.ts";
import { cleanup, createBody, run, signedProxyUrl, startAgent, waitFor, type TestAgent } from "./helpers.ts";

let t: TestAgent;
let echo: AgentContainer;
let work: string;

beforeAll(async () => {
  t = await startAgent({ captureIdleMs: 60_000 }, { proxyMaxConnections: 3, proxyMaxConnectionMs: 2500 });
  work = await mkdtemp(join(tmpdir(), "flagstaff-proxy-"));
  const created = await t.call<AgentContainer>("POST", "/containers", createBody({ proxy: true, exposePort: 7 }));
  expect(created.status).toBe(201);
  echo = created.body;
});

afterAll(async () => {
  await t.stop();
  await cleanup(t.config);
  await rm(work, { recursive: true, force: true });
});

/** Opens a proxied WebSocket; resolves once open, or rejects with the HTTP status of the refusal. */
function open(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.binaryType = "nodebuffer";
    ws.once("open", () => resolve(ws));
    ws.once("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, body })));
    });
    ws.once("error", reject);
  });
}

/** Sends bytes and collects the echoed frames until `expected` bytes came back. */
function roundTrip(ws: WebSocket, data: Buffer): Promise<Buffer[]> {
  return new Promise((resolve) => {
    const frames: Buffer[] = [];
    let got = 0;
    const onMessage = (frame: Buffer) => {
      frames.push(frame);
      got += frame.length;
      if (got >= data.length) {
        ws.off("message", onMessage);
        resolve(frames);
      }
    };
    ws.on("message", onMessage);
    ws.send(data);
  });
}

const closed = (ws: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve) => ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() })));

describe("WebSocket proxy", () => {
  it("relays a TCP echo in frames of at most 4 KiB and logs the bytes", async () => {
    const ws = await open(await signedProxyUrl(t.agent.url, t.config.secret, echo.instanceId));
    const hello = await roundTrip(ws, Buffer.from("hello flagstaff\n"));
    expect(Buffer.concat(hello).toString()).toBe("hello flagstaff\n");
    const big = Buffer.alloc(20_000, 0x61);
    const frames = await roundTrip(ws, big);
    expect(Buffer.concat(frames).equals(big)).toBe(true);
    expect(frames.every((f) => f.length <= 4096)).toBe(true);
    const done = closed(ws);
    ws.close();
    await done;
    const entry = await waitFor(async () => t.log.find("proxy.closed").find((e) => e.fields.instanceId === echo.instanceId));
    expect(entry.fields).toMatchObject({ sent: 16 + 20_000, received: 16 + 20_000, reason: "client closed" });
  });

  it("accepts the signature in headers as well", async () => {
    const path = `/proxy/${echo.instanceId}`;
    const headers = await signRequest(t.config.secret, { method: "GET", path });
    const ws = await open(t.agent.url.replace(/^http/, "ws") + path, headers);
    expect(Buffer.concat(await roundTrip(ws, Buffer.from("x\n"))).toString()).toBe("x\n");
    ws.close();
  });

  it("refuses unsigned, replayed and unknown targets", async () => {
    const base = t.agent.url.replace(/^http/, "ws");
    await expect(open(`${base}/proxy/${echo.instanceId}`)).rejects.toMatchObject({ status: 401 });
    const url = await signedProxyUrl(t.agent.url, t.config.secret, echo.instanceId);
    const ws = await open(url);
    ws.close();
    await expect(open(url)).rejects.toMatchObject({ status: 401 });
    await expect(open(await signedProxyUrl(t.agent.url, t.config.secret, randomUUID()))).rejects.toMatchObject({ status: 404 });
  });

  it("answers 204 to a signed request without an upgrade", async () => {
    expect((await t.call("GET", `/proxy/${echo.instanceId}`)).status).toBe(204);
    expect((await t.call("GET", `/proxy/${randomUUID()}`)).status).toBe(404);
  });

  it("limits connections per container", async () => {
    const sockets = [];
    for (let i = 0; i < 3; i++) sockets.push(await open(await signedProxyUrl(t.agent.url, t.config.secret, echo.instanceId)));
    await expect(open(await signedProxyUrl(t.agent.url, t.config.secret, echo.instanceId))).rejects.toMatchObject({ status: 400 });
    const ends = sockets.map(closed);
    for (const ws of sockets) ws.close();
    await Promise.all(ends);
    await waitFor(async () => t.agent.proxy.connections(echo.instanceId) === 0);
    const again = await open(await signedProxyUrl(t.agent.url, t.config.secret, echo.instanceId));
    again.close();
  });

  it("cuts a connection at the time cap", async () => {
    const ws = await open(await signedProxyUrl(t.agent.url, t.config.secret, echo.instanceId));
    const startedAt = Date.now();
    const end = await closed(ws);
    expect(end).toEqual({ code: 1008, reason: "time limit" });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(2400);
  });

  it("answers 418 when the container's port does not accept connections", async () => {
    // Nothing listens on port 9 in the test image.
    const created = await t.call<AgentContainer>("POST", "/containers", createBody({ proxy: true, exposePort: 9 }));
    expect(created.status).toBe(201);
    const refusal = await open(await signedProxyUrl(t.agent.url, t.config.secret, created.body.instanceId)).catch((e: { status: number; body: string }) => e);
    expect(refusal).toMatchObject({ status: 418 });
    expect(JSON.parse((refusal as { body: string }).body)).toMatchObject({ error: "proxy.connect_failed" });
  });

  it("closes proxied connections when the container is destroyed", async () => {
    const created = (await t.call<AgentContainer>("POST", "/containers", createBody({ proxy: true, exposePort: 7 }))).body;
    const ws = await open(await signedProxyUrl(t.agent.url, t.config.secret, created.instanceId));
    const end = closed(ws);
    expect((await t.call("DELETE", `/containers/${created.instanceId}`)).status).toBe(204);
    await end;
    expect(t.agent.proxy.connections(created.instanceId)).toBe(0);
  });
});

describe("traffic capture", () => {
  it("writes a gzip pcap that tshark parses: metadata first, then both directions per connection", async () => {
    const body = createBody({
      proxy: true,
      exposePort: 7,
      capture: { challengeId: 34, challengeTitle: "Echo", participationId: 77, teamId: 12, teamName: "Blue Team" },
    });
    const created = (await t.call<AgentContainer>("POST", "/containers", body)).body;
    expect(created.capture).toBe(true);
    const one = await open(await signedProxyUrl(t.agent.url, t.config.secret, body.instanceId, "203.0.113.7"));
    const two = await open(await signedProxyUrl(t.agent.url, t.config.secret, body.instanceId, "2001:db8::5"));
    await roundTrip(one, Buffer.from("first\n"));
    await roundTrip(two, Buffer.from("second\n"));
    await roundTrip(one, Buffer.alloc(5000, 0x62));
    const ends = [closed(one), closed(two)];
    one.close();
    two.close();
    await Promise.all(ends);
    // Destroying the container finishes its file.
    expect((await t.call("DELETE", `/containers/${body.instanceId}`)).status).toBe(204);

    const listed = await t.call<ListCapturesResponse>("GET", "/captures");
    expect(listed.status).toBe(200);
    const capture = listed.body.captures.find((c) => c.instanceId === body.instanceId);
    expect(capture).toBeDefined();
    expect(capture!.key).toMatch(new RegExp(`^34/77/${created.containerId.slice(0, 12)}-[0-9a-f]{16}\\.pcap$`));
    expect(capture!.dropped).toBe(0);

    const headers = await signRequest(t.config.secret, { method: "GET", path: `/captures/${capture!.key}` });
    const download = await fetch(`${t.agent.url}/captures/${capture!.key}`, { headers });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/gzip");
    const gz = Buffer.from(await download.arrayBuffer());
    expect(gz.length).toBe(capture!.size);
    const file = join(work, "capture.pcap");
    await writeFile(file, gunzipSync(gz));

    const { stdout } = await run("tshark", [
      "-r", file,
      "-T", "fields", "-E", "separator=|",
      "-e", "eth.src", "-e", "ipv6.src", "-e", "udp.srcport", "-e", "ipv6.dst", "-e", "udp.dstport", "-e", "udp.payload",
    ]);
    const rows = stdout.trim().split("\n").map((line) => line.split("|"));
    expect(rows.length).toBe(capture!.packets);
    const [meta, ...traffic] = rows;
    expect(meta!.slice(0, 5)).toEqual(["00:11:00:11:00:11", "::", "65535", "::ffff:203.0.113.7", meta![4]]);
    expect(JSON.parse(Buffer.from(meta![5]!, "hex").toString())).toEqual({
      Challenge: "Echo",
      ChallengeId: 34,
      Team: "Blue Team",
      TeamId: 12,
      ContainerId: created.containerId,
      Flag: body.flag,
    });
    const server = `::ffff:${created.ip}`;
    const firstPort = meta![4]!;
    const payloadFrom = (src: string, port: string) =>
      Buffer.concat(traffic.filter((r) => r[1] === src && r[2] === port).map((r) => Buffer.from(r[5]!, "hex"))).toString();
    expect(Number(firstPort)).toBeGreaterThanOrEqual(10001);
    expect(payloadFrom("::ffff:203.0.113.7", firstPort)).toBe(`first\n${"b".repeat(5000)}`);
    const secondPort = traffic.find((r) => r[1] === "2001:db8::5")![2]!;
    expect(secondPort).not.toBe(firstPort);
    expect(payloadFrom("2001:db8::5", secondPort)).toBe("second\n");
    // Replies go from the container's address and service port to each connection's synthetic port.
    const replies = traffic.filter((r) => r[1] === server);
    expect(replies.every((r) => r[2] === "7")).toBe(true);
    expect(new Set(replies.map((r) => r[4]))).toEqual(new Set([firstPort, secondPort]));
    expect(traffic.every((r) => Buffer.from(r[5]!, "hex").length <= 4096)).toBe(true);

    // The platform deletes what it collected.
    const del = await t.call("DELETE", `/captures/${capture!.key}`);
    expect(del.status).toBe(204);
    expect((await t.call("GET", `/captures/${capture!.key}`)).status).toBe(404);
    expect((await t.call<ListCapturesResponse>("GET", "/captures")).body.captures.some((c) => c.key === capture!.key)).toBe(false);
  });

  it("closes a file after the idle time and starts a new one for later traffic", async () => {
    const idle = await startAgent({ captureIdleMs: 400 });
    try {
      const body = createBody({
        proxy: true,
        exposePort: 7,
        capture: { challengeId: 35, challengeTitle: "Idle", participationId: 78, teamId: 13, teamName: "Red" },
      });
      await idle.call("POST", "/containers", body);
      const ws = await open(await signedProxyUrl(idle.agent.url, idle.config.secret, body.instanceId));
      await roundTrip(ws, Buffer.from("one\n"));
      const first = await waitFor(async () => (await idle.call<ListCapturesResponse>("GET", "/captures")).body.captures.length === 1 || undefined, 5000);
      expect(first).toBe(true);
      // The same connection after the idle close writes into a new file.
      await roundTrip(ws, Buffer.from("two\n"));
      ws.close();
      await waitFor(async () => (await idle.call<ListCapturesResponse>("GET", "/captures")).body.captures.length === 2 || undefined, 5000);
      const captures = (await idle.call<ListCapturesResponse>("GET", "/captures")).body.captures;
      expect(captures.map((c) => c.packets)).toEqual([3, 3]);
    } finally {
      await idle.stop();
      await cleanup(idle.config);
    }
  });

  it("captures nothing for containers without a capture request", async () => {
    const list = (await t.call<ListCapturesResponse>("GET", "/captures")).body.captures;
    expect(list.some((c) => c.instanceId === echo.instanceId)).toBe(false);
  });
});
