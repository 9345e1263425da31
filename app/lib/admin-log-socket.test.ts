import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { adminHubUrl, backoffDelay, connectAdminLogs } from "./admin-log-socket";
import { FakeSocket } from "./fake-socket";

describe("adminHubUrl and backoffDelay", () => {
  it("builds the socket address from the page address", () => {
    expect(adminHubUrl({ protocol: "https:", host: "ctf.example" })).toBe("wss://ctf.example/hub/admin");
    expect(adminHubUrl({ protocol: "http:", host: "127.0.0.1:8790" })).toBe("ws://127.0.0.1:8790/hub/admin");
  });

  it("doubles up to the cap with bounded jitter", () => {
    const mid = () => 0.5;
    expect([0, 1, 2, 3, 10].map((a) => backoffDelay(a, 1000, 30_000, mid))).toEqual([1000, 2000, 4000, 8000, 30_000]);
    expect(backoffDelay(0, 1000, 30_000, () => 0)).toBe(800);
    expect(backoffDelay(0, 1000, 30_000, () => 0.999999)).toBe(1200);
    expect(backoffDelay(1000, 1000, 30_000, mid)).toBe(30_000);
  });
});

describe("connectAdminLogs", () => {
  beforeEach(() => {
    FakeSocket.instances = [];
    vi.useFakeTimers();
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    vi.stubGlobal("WebSocket", FakeSocket);
    vi.stubGlobal("window", { location: { protocol: "http:", host: "h" } });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it("delivers log messages only, reconnects with growing delays and resets after a connection", () => {
    const logs: string[] = [];
    const states: string[] = [];
    const stop = connectAdminLogs({ onLog: (l) => logs.push(l.msg), onState: (s) => states.push(s), baseDelayMs: 100, maxDelayMs: 1000 });
    const first = FakeSocket.instances[0]!;
    expect(first.url).toBe("ws://h/hub/admin");
    first.serverOpen();
    first.serverSend(JSON.stringify({ type: "hello", seq: 0, data: { channel: "admin" } }));
    first.serverSend(JSON.stringify({ type: "log", seq: 1, data: { msg: "one" } }));
    first.serverSend("not json");
    expect(logs).toEqual(["one"]);

    first.serverDrop();
    expect(states).toEqual(["connecting", "open", "closed"]);
    vi.advanceTimersByTime(99);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);
    FakeSocket.instances[1]!.serverDrop();
    vi.advanceTimersByTime(199);
    expect(FakeSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    const third = FakeSocket.instances[2]!;
    third.serverOpen();
    third.serverDrop();
    // Connected once: the delay starts again from the base.
    vi.advanceTimersByTime(100);
    expect(FakeSocket.instances).toHaveLength(4);

    stop();
    expect(FakeSocket.instances[3]!.closedWith).toBe(1000);
    vi.advanceTimersByTime(10_000);
    expect(FakeSocket.instances).toHaveLength(4);
  });

  it("pings while open", () => {
    connectAdminLogs({ onLog: () => {}, pingMs: 1000 });
    const ws = FakeSocket.instances[0]!;
    ws.serverOpen();
    vi.advanceTimersByTime(2500);
    expect(ws.sent).toEqual(["ping", "ping"]);
  });
});
