import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../app/core/agent-protocol.ts";
import { MemoryLogger } from "../src/log.ts";
import { HttpEventSink } from "../src/platform.ts";

const SECRET = "s".repeat(64);
const FAST = { firstDelayMs: 20, maxDelayMs: 100, giveUpAfterMs: 5_000 };

const destroyed = (instanceId: string, reason: "expired" | "request" = "expired"): AgentEvent => ({ type: "container.destroyed", agentId: "a", at: 1, instanceId, reason });

/** A platform stand-in answering each event with `answer(n)` (n counts its calls) and keeping what it took. */
function platform(answer: (call: number) => number) {
  const taken: AgentEvent[] = [];
  let calls = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const status = answer(++calls);
      if (status < 300) taken.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as AgentEvent);
      res.writeHead(status).end();
    });
  });
  return { server, taken, calls: () => calls };
}

function listen(server: Server, port = 0): Promise<number> {
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

async function until(check: () => boolean, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe("events to the platform", () => {
  it("are sent again until the platform answers, each instance's in order", async () => {
    // A port nobody listens on yet: the platform is down (restarting) when the containers expire.
    const probe = createServer();
    const port = await listen(probe);
    await new Promise((resolve) => probe.close(resolve));
    const log = new MemoryLogger();
    const sink = new HttpEventSink(`http://127.0.0.1:${port}`, SECRET, log, 2_000, FAST);
    sink.notify({ type: "capture.ready", agentId: "a", at: 1, capture: { key: "1/2/x.pcap", instanceId: "i1", challengeId: 1, participationId: 2, size: 1, packets: 1, dropped: 0, createdAt: 1 } });
    sink.notify(destroyed("i1"));
    sink.notify(destroyed("i2"));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(sink.pending).toBe(3);

    const up = platform(() => 204);
    servers.push(up.server);
    await listen(up.server, port);
    await until(() => sink.pending === 0);
    expect(up.taken.filter((e) => (e.type === "capture.ready" ? e.capture.instanceId : "instanceId" in e ? e.instanceId : "") === "i1").map((e) => e.type)).toEqual([
      "capture.ready",
      "container.destroyed",
    ]);
    expect(up.taken.filter((e) => e.type === "container.destroyed").map((e) => (e as { instanceId: string }).instanceId).sort()).toEqual(["i1", "i2"]);
    expect(log.find("platform.event_failed").length).toBeGreaterThan(0);
    expect(log.find("platform.event_delivered").length).toBeGreaterThan(0);
  });

  it("retries a 5xx answer and drops a refused event at once", async () => {
    const flaky = platform((call) => (call <= 2 ? 503 : 204));
    servers.push(flaky.server);
    const port = await listen(flaky.server);
    const sink = new HttpEventSink(`http://127.0.0.1:${port}`, SECRET, new MemoryLogger(), 2_000, FAST);
    sink.notify(destroyed("i3"));
    await until(() => sink.pending === 0);
    expect(flaky.calls()).toBe(3);
    expect(flaky.taken).toHaveLength(1);

    const refusing = platform(() => 400);
    servers.push(refusing.server);
    const log = new MemoryLogger();
    const refused = new HttpEventSink(`http://127.0.0.1:${await listen(refusing.server)}`, SECRET, log, 2_000, FAST);
    refused.notify(destroyed("i4"));
    await until(() => refused.pending === 0);
    expect(refusing.calls()).toBe(1);
    expect(log.find("platform.event_refused")).toHaveLength(1);
  });

  it("gives an event up, with a log line, after the retry window", async () => {
    const down = platform(() => 503);
    servers.push(down.server);
    const log = new MemoryLogger();
    const sink = new HttpEventSink(`http://127.0.0.1:${await listen(down.server)}`, SECRET, log, 2_000, { ...FAST, giveUpAfterMs: 300 });
    sink.notify(destroyed("i5"));
    sink.notify(destroyed("i5", "request"));
    await until(() => sink.pending === 0);
    expect(log.find("platform.event_dropped").map((entry) => entry.fields.instanceId)).toEqual(["i5", "i5"]);
  });
});
