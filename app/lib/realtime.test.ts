import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerMessage } from "~/core/protocol";
import { backoffDelay, connectHub, hubUrl, subscribeHub } from "./realtime";
import { FakeSocket } from "./fake-socket";

const hello = (seq: number, lastAt?: number) => ({ type: "hello", seq, data: { channel: "game:1", lastAt } });
const notice = (seq: number, id: number) => ({ type: "notice", seq, data: { id, type: "Normal", values: ["hi"], time: 1 } });

describe("hubUrl and backoffDelay", () => {
  it("builds the socket address from the page address", () => {
    expect(hubUrl("/hub/game/3", { protocol: "https:", host: "ctf.example" })).toBe("wss://ctf.example/hub/game/3");
    expect(hubUrl("/hub/admin", { protocol: "http:", host: "127.0.0.1:8790" })).toBe("ws://127.0.0.1:8790/hub/admin");
  });

  it("doubles from the base, stays within the cap, with ±20 % jitter", () => {
    expect([0, 1, 2, 3, 10].map((a) => backoffDelay(a, 1000, 30_000, () => 0.5))).toEqual([1000, 2000, 4000, 8000, 30_000]);
    expect(backoffDelay(0, 1000, 30_000, () => 0)).toBe(800);
    expect(backoffDelay(50, 1000, 30_000, () => 0.999999)).toBe(36_000);
  });
});

describe("connectHub", () => {
  let windowEvents: EventTarget;
  beforeEach(() => {
    FakeSocket.instances = [];
    vi.useFakeTimers();
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    vi.stubGlobal("WebSocket", FakeSocket);
    windowEvents = new EventTarget();
    vi.stubGlobal("window", {
      location: { protocol: "http:", host: "h" },
      addEventListener: windowEvents.addEventListener.bind(windowEvents),
      removeEventListener: windowEvents.removeEventListener.bind(windowEvents),
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it("stops for good when the server closes with 4403 (access changed) or 4404 (game deleted), and retries other closes", () => {
    for (const code of [4403, 4404]) {
      FakeSocket.instances = [];
      const states: string[] = [];
      const stop = connectHub("/hub/game/1", { onMessage: () => {}, onState: (s) => states.push(s) });
      FakeSocket.instances[0]!.serverOpen();
      FakeSocket.instances[0]!.serverClose(code);
      vi.advanceTimersByTime(120_000);
      expect(FakeSocket.instances).toHaveLength(1);
      expect(states).toEqual(["connecting", "open", "ended"]);
      stop();
    }
    FakeSocket.instances = [];
    const states: string[] = [];
    const stop = connectHub("/hub/game/1", { onMessage: () => {}, onState: (s) => states.push(s) });
    FakeSocket.instances[0]!.serverOpen();
    FakeSocket.instances[0]!.serverClose(1012);
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.instances).toHaveLength(2);
    expect(states).toEqual(["connecting", "open", "closed", "connecting"]);
    stop();
  });

  it("asks once for a resync when the feed ends for good, so the page shows what the API now says", () => {
    let resyncs = 0;
    const states: string[] = [];
    const stop = connectHub("/hub/game/1", { onMessage: () => {}, onResync: () => resyncs++, onState: (s) => states.push(s) });
    FakeSocket.instances[0]!.serverOpen();
    FakeSocket.instances[0]!.serverSend(hello(3));
    FakeSocket.instances[0]!.serverClose(4404);
    vi.advanceTimersByTime(120_000);
    // Coming back online does not open an ended feed either.
    windowEvents.dispatchEvent(new Event("online"));
    expect(resyncs).toBe(1);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(states.at(-1)).toBe("ended");
    stop();
  });

  it("after its access ended (signed out elsewhere), asks again as the cookies now say: goes on if let in, ends if refused", () => {
    // Let in again (a visitor of a public game): the new socket's greeting resyncs the page, and live goes on.
    let resyncs = 0;
    const states: string[] = [];
    const got: string[] = [];
    const stop = connectHub("/hub/game/1", { onMessage: (m) => got.push(m.type), onResync: () => resyncs++, onState: (s) => states.push(s) });
    FakeSocket.instances[0]!.serverOpen();
    FakeSocket.instances[0]!.serverSend(hello(3));
    FakeSocket.instances[0]!.serverClose(4403);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(FakeSocket.instances).toHaveLength(2);
    FakeSocket.instances[1]!.serverOpen();
    FakeSocket.instances[1]!.serverSend(hello(3));
    FakeSocket.instances[1]!.serverSend(notice(4, 1));
    expect(resyncs).toBe(1);
    expect(got).toEqual(["notice"]);
    expect(states).toEqual(["connecting", "open", "connecting", "connecting", "open"]);
    // Ended again later: asked again after a longer wait (the backoff is not reset by being let in).
    FakeSocket.instances[1]!.serverClose(4403);
    vi.advanceTimersByTime(1_999);
    expect(FakeSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(3);
    // Refused this time (closed before any greeting): the feed ends for good, with one resync.
    FakeSocket.instances[2]!.serverDrop();
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.instances).toHaveLength(3);
    expect(states.at(-1)).toBe("ended");
    expect(resyncs).toBe(2);
    stop();
  });

  it("drops a connection whose ping gets no answer and connects again", () => {
    const states: string[] = [];
    connectHub("/hub/game/1", { onMessage: () => {}, onState: (s) => states.push(s), pingMs: 1000, pongTimeoutMs: 500 });
    const first = FakeSocket.instances[0]!;
    first.serverOpen();
    vi.advanceTimersByTime(1000);
    expect(first.sent).toEqual(["ping"]);
    first.serverSend({ type: "pong", seq: 0, data: null });
    vi.advanceTimersByTime(1000);
    expect(first.sent).toEqual(["ping", "ping"]);
    // The second ping goes unanswered: the socket is closed and a new one opens after the backoff.
    vi.advanceTimersByTime(499);
    expect(states.at(-1)).toBe("open");
    vi.advanceTimersByTime(1);
    expect(states.at(-1)).toBe("closed");
    expect(first.readyState).toBe(3);
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.instances).toHaveLength(2);
    expect(states).toEqual(["connecting", "open", "closed", "connecting"]);
  });

  it("tries again at once when the browser comes back online", () => {
    connectHub("/hub/game/1", { onMessage: () => {}, baseDelayMs: 20_000 });
    FakeSocket.instances[0]!.close();
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.instances).toHaveLength(1);
    windowEvents.dispatchEvent(new Event("online"));
    expect(FakeSocket.instances).toHaveLength(2);
    // While connected, coming online again opens nothing more.
    FakeSocket.instances[1]!.serverOpen();
    windowEvents.dispatchEvent(new Event("online"));
    expect(FakeSocket.instances).toHaveLength(2);
  });

  it("says offline at once when the browser goes offline, retries nothing meanwhile, and reconnects at once when it is back", () => {
    let resyncs = 0;
    const states: string[] = [];
    const stop = connectHub("/hub/game/1", { onMessage: () => {}, onResync: () => resyncs++, onState: (s) => states.push(s) });
    FakeSocket.instances[0]!.serverOpen();
    FakeSocket.instances[0]!.serverSend(hello(3));
    windowEvents.dispatchEvent(new Event("offline"));
    // The open socket is dropped without waiting for an unanswered ping.
    expect(FakeSocket.instances[0]!.closedWith).toBeUndefined();
    expect(states.at(-1)).toBe("offline");
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(states.at(-1)).toBe("offline");
    windowEvents.dispatchEvent(new Event("online"));
    expect(FakeSocket.instances).toHaveLength(2);
    FakeSocket.instances[1]!.serverOpen();
    FakeSocket.instances[1]!.serverSend(hello(5));
    expect(states.at(-1)).toBe("open");
    // What was pushed while offline is read again.
    expect(resyncs).toBe(1);
    stop();
  });

  it("an ended feed stays ended when the browser goes offline", () => {
    const states: string[] = [];
    const stop = connectHub("/hub/game/1", { onMessage: () => {}, onState: (s) => states.push(s) });
    FakeSocket.instances[0]!.serverOpen();
    FakeSocket.instances[0]!.serverClose(4404);
    windowEvents.dispatchEvent(new Event("offline"));
    expect(states.at(-1)).toBe("ended");
    stop();
  });

  it("asks for a resync after a reconnect and after a seq gap, and delivers the rest", () => {
    const got: ServerMessage[] = [];
    let resyncs = 0;
    connectHub("/hub/game/1", { onMessage: (m) => got.push(m), onResync: () => resyncs++ });
    const first = FakeSocket.instances[0]!;
    first.serverOpen();
    first.serverSend(hello(4));
    first.serverSend(notice(5, 1));
    expect(resyncs).toBe(0);
    first.serverSend(notice(7, 2));
    expect(resyncs).toBe(1);
    first.close();
    vi.advanceTimersByTime(1000);
    const second = FakeSocket.instances[1]!;
    second.serverOpen();
    second.serverSend(hello(7));
    expect(resyncs).toBe(2);
    expect(got.map((m) => m.type)).toEqual(["notice", "notice"]);
  });

  it("asks for a resync when the first greeting says a message for all came after the data was read", () => {
    for (const [lastAt, expected] of [
      [999, 0],
      [1000, 1],
      [5000, 1],
      [undefined, 0],
    ] as const) {
      FakeSocket.instances = [];
      let resyncs = 0;
      const stop = connectHub("/hub/game/1", { onMessage: () => {}, onResync: () => resyncs++, since: 1000 });
      FakeSocket.instances[0]!.serverOpen();
      FakeSocket.instances[0]!.serverSend(hello(4, lastAt));
      expect(resyncs, `lastAt ${lastAt}`).toBe(expected);
      stop();
    }
  });
});

describe("subscribeHub", () => {
  beforeEach(() => {
    FakeSocket.instances = [];
    vi.useFakeTimers();
    vi.stubGlobal("WebSocket", FakeSocket);
    vi.stubGlobal("window", { location: { protocol: "http:", host: "h" } });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("shares one socket per path among listeners and closes it after the last one goes", () => {
    const a: string[] = [];
    const b: string[] = [];
    const stateB: string[] = [];
    const stopA = subscribeHub("/hub/game/9", { onMessage: (m) => a.push(m.type), onState: () => {} });
    const ws = FakeSocket.instances[0]!;
    ws.serverOpen();
    const stopB = subscribeHub("/hub/game/9", { onMessage: (m) => b.push(m.type), onState: (s) => stateB.push(s) });
    expect(FakeSocket.instances).toHaveLength(1);
    expect(stateB).toEqual(["open"]);
    ws.serverSend(hello(0));
    ws.serverSend(notice(1, 1));
    expect(a).toEqual(["notice"]);
    expect(b).toEqual(["notice"]);
    const other = subscribeHub("/hub/game/10", { onMessage: () => {}, onState: () => {} });
    expect(FakeSocket.instances).toHaveLength(2);
    other();

    stopA();
    stopB();
    // A page that mounts the next listener at once keeps the same socket.
    const stopC = subscribeHub("/hub/game/9", { onMessage: () => {}, onState: () => {} });
    vi.advanceTimersByTime(5000);
    expect(ws.closedWith).toBeNull();
    expect(FakeSocket.instances).toHaveLength(2);
    stopC();
    vi.advanceTimersByTime(5000);
    expect(ws.closedWith).toBe(1000);
  });

  it("resyncs each listener whose data was read before the channel's last message, on the greeting or on joining", async () => {
    vi.setSystemTime(10_000);
    const resyncs = { early: 0, late: 0, joined: 0, fresh: 0 };
    const on = (name: keyof typeof resyncs, since: number) => ({ onMessage: () => {}, onState: () => {}, onResync: () => resyncs[name]++, since });
    const stops = [subscribeHub("/hub/game/12", on("early", 1_000)), subscribeHub("/hub/game/12", on("late", 3_000))];
    const ws = FakeSocket.instances[0]!;
    ws.serverOpen();
    // The channel's last message for all was sent at 2,000: after the early listener's read, before the late one's.
    ws.serverSend(hello(7, 2_000));
    expect(resyncs).toEqual({ early: 1, late: 0, joined: 0, fresh: 0 });

    // A message for all arrives at 10,000 (this page's clock is the server's here); a verdict for one team
    // (the same number) does not count as one.
    ws.serverSend(notice(8, 1));
    vi.setSystemTime(20_000);
    ws.serverSend({ type: "verdict", seq: 8, data: { submissionId: 1, challengeId: 1, status: "Accepted" } });
    stops.push(subscribeHub("/hub/game/12", on("joined", 9_000)), subscribeHub("/hub/game/12", on("fresh", 10_001)));
    await Promise.resolve();
    expect(resyncs).toEqual({ early: 1, late: 0, joined: 1, fresh: 0 });
    // A hidden game's board delta reaches board readers without a new number: it counts.
    vi.setSystemTime(30_000);
    ws.serverSend({ type: "scoreboard", seq: 8, data: { version: 2 } });
    const reader = { n: 0 };
    stops.push(subscribeHub("/hub/game/12", { onMessage: () => {}, onState: () => {}, onResync: () => reader.n++, since: 25_000 }));
    await Promise.resolve();
    expect(reader.n).toBe(1);
    for (const stop of stops) stop();
  });

  it("keeps an ended feed ended for its listeners, and asks anew for a page that subscribes after they left", () => {
    const states: string[] = [];
    const stopA = subscribeHub("/hub/game/11", { onMessage: () => {}, onState: (s) => states.push(s) });
    FakeSocket.instances[0]!.serverOpen();
    FakeSocket.instances[0]!.serverClose(4403);
    const late: string[] = [];
    const stopB = subscribeHub("/hub/game/11", { onMessage: () => {}, onState: (s) => late.push(s) });
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(late).toEqual(["ended"]);
    stopA();
    stopB();
    // Within the linger time, with nobody listening: the next page opens a new socket.
    const again: string[] = [];
    const stopC = subscribeHub("/hub/game/11", { onMessage: () => {}, onState: (s) => again.push(s) });
    expect(FakeSocket.instances).toHaveLength(2);
    expect(again).toEqual(["connecting"]);
    stopC();
  });
});
