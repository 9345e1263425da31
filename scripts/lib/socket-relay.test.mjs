import http from "node:http";
import net from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { relayCloseAll, relayCloseSession, relayCloseUser, relayFrame, relayFrames, relayReauthorize } from "../../app/core/protocol.ts";
import { freePort } from "./free-port.mjs";
import { startFront, textFrame } from "./socket-relay.mjs";

const HOST = "127.0.0.1";
const TOKEN = "relay-token-for-tests";
/** When the fake room says its channel's last message for all was sent. */
const ROOM_LAST_AT = 1_234;

/**
 * A stand-in for the runtime behind the front: answers plain requests with what it received, the relay's
 * identity question by the client's cookie (as workers/hub.ts does: 200 identity or the refusal), and
 * accepts the relay's feed of a game, which the test drives.
 */
async function fakeRuntime() {
  const seen = { identityTokens: [], identityCookies: [], feeds: [] };
  const wss = new WebSocketServer({ noServer: true });
  const server = http.createServer((req, res) => {
    const identity = /^\/hub\/game\/(\d+)(\?.*)?$/i.exec(req.url ?? "");
    if (identity && req.headers["x-flagstaff-relay-token"] === TOKEN && !req.headers.upgrade) {
      seen.identityTokens.push(req.headers["x-flagstaff-relay-token"]);
      seen.identityCookies.push(req.headers.cookie);
      const cookie = req.headers.cookie ?? "";
      if (cookie.includes("deny")) {
        res.writeHead(403, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify({ title: "Forbidden here", status: 403 }));
        return;
      }
      const team = /team=(\d+)/.exec(cookie);
      const user = /user=(\w+)/.exec(cookie);
      const session = /session=(\w+)/.exec(cookie);
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          userId: user ? user[1] : null,
          teamId: team ? Number(team[1]) : null,
          boardReader: cookie.includes("reader"),
          staff: cookie.includes("staff"),
          session: session ? session[1] : null,
        }),
      );
      return;
    }
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => res.writeHead(200, { "content-type": "text/plain" }).end(`${req.method} ${req.url} ${req.headers["x-flagstaff-relay-token"] ?? "-"} ${body}`));
  });
  server.on("upgrade", (req, socket, head) => {
    const feed = /^\/hub\/game\/(\d+)\/relay$/.exec(req.url ?? "");
    if (!feed || req.headers["x-flagstaff-relay-token"] !== TOKEN) return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      seen.feeds.push({ gameId: Number(feed[1]), ws });
      ws.send(JSON.stringify({ type: "hello", seq: 7, data: { channel: "game", lastAt: ROOM_LAST_AT } }));
    });
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, HOST, resolve));
  return {
    port,
    seen,
    close: () =>
      new Promise((resolve) => {
        for (const f of seen.feeds) f.ws.terminate();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A client socket on the front that records its frames; resolves once the hello came. */
function player(port, cookie, path = "/hub/game/3") {
  const frames = [];
  const ws = new WebSocket(`ws://${HOST}:${port}${path}`, { headers: { cookie } });
  const waiters = [];
  ws.on("message", (data) => {
    frames.push(JSON.parse(data.toString()));
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise((resolve) => ws.on("close", (code) => resolve(code)));
  const next = (n) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${frames.length} frames: ${JSON.stringify(frames)}`)), 3000);
      const check = () => {
        if (frames.length >= n) {
          clearTimeout(timer);
          resolve(frames.slice(0, n));
        } else waiters.push(check);
      };
      check();
    });
  return { ws, frames, next, closed };
}

/** Sends raw bytes to the front and collects the whole answer (the connection is closed by the peer). */
function raw(port, chunks) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: HOST, port }, async () => {
      for (const chunk of chunks) {
        socket.write(chunk);
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    let answer = "";
    socket.on("data", (d) => (answer += d.toString("latin1")));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("textFrame", () => {
  it.each([
    [0, [0x81, 0]],
    [125, [0x81, 125]],
    [126, [0x81, 126, 0, 126]],
    [65_535, [0x81, 126, 0xff, 0xff]],
    [65_536, [0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0]],
  ])("frames %i bytes with the header %j", (size, header) => {
    const payload = Buffer.alloc(size, 0x61);
    const frame = textFrame(payload);
    expect([...frame.subarray(0, header.length)]).toEqual(header);
    expect(frame.subarray(header.length).equals(payload)).toBe(true);
  });
});

describe("the npm start front (socket relay)", () => {
  let runtime;
  let front;
  let port;

  beforeEach(async () => {
    runtime = await fakeRuntime();
    port = await freePort();
    front = await startFront({ host: HOST, port, upstreamPort: runtime.port, token: TOKEN });
  });

  afterEach(async () => {
    await front.close();
    await runtime.close();
  });

  /** The front again, with another write budget per turn (ms). */
  async function withBudget(sendBudgetMs) {
    await front.close();
    front = await startFront({ host: HOST, port, upstreamPort: runtime.port, token: TOKEN, sendBudgetMs });
  }

  it("passes other requests through untouched, a client's relay token included, even when the head comes in pieces", async () => {
    const res = await fetch(`http://${HOST}:${port}/api/config?x=1`, { method: "POST", body: "abc" });
    expect(await res.text()).toBe("POST /api/config?x=1 - abc");
    const split = await raw(port, ["GET /hub/ga", "me/3 HTTP/1.1\r\nHost: x\r\nx-flagstaff-relay-token: guess\r\n", "Connection: close\r\n\r\n"]);
    expect(split).toMatch(/^HTTP\/1\.1 200/);
    expect(split).toContain("GET /hub/game/3 guess ");
    expect(runtime.seen.identityTokens).toEqual([]);
  });

  it("passes a body of megabytes up and its echo back whole, to a client reading slowly", async () => {
    const body = Buffer.alloc(6 * 1024 * 1024, 0x62);
    const answer = await new Promise((resolve, reject) => {
      const call = http.request({ host: HOST, port, method: "POST", path: "/big", agent: false }, (res) => {
        const chunks = [];
        res.on("data", (chunk) => {
          chunks.push(chunk);
          // A slow reader: the front must hold the runtime back, not buffer or drop.
          res.pause();
          setTimeout(() => res.resume(), 1);
        });
        res.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")));
        res.on("error", reject);
      });
      call.on("error", reject);
      call.end(body);
    });
    expect(answer.length).toBe("POST /big - ".length + body.length);
    expect(answer.startsWith("POST /big - bbb")).toBe(true);
    expect(answer.endsWith("bbbb")).toBe(true);
  });

  it("greets a player with the room's number, then routes: everyone, one team, board readers only", async () => {
    const a = player(port, "team=5; reader");
    const b = player(port, "team=6");
    expect((await a.next(1))[0]).toEqual({ type: "hello", seq: 7, data: { channel: "game", lastAt: ROOM_LAST_AT } });
    expect((await b.next(1))[0]).toEqual({ type: "hello", seq: 7, data: { channel: "game", lastAt: ROOM_LAST_AT } });
    expect(runtime.seen.feeds.map((f) => f.gameId)).toEqual([3]);
    expect(runtime.seen.identityTokens).toEqual([TOKEN, TOKEN]);
    const feed = runtime.seen.feeds[0].ws;
    const notice = JSON.stringify({ type: "notice", seq: 8, data: { id: 1 } });
    const verdict = JSON.stringify({ type: "verdict", seq: 8, data: { submissionId: 9 } });
    const delta = JSON.stringify({ type: "scoreboard", seq: 8, data: { version: 2 } });
    // Three messages in one feed send (as the room sends a flush's messages), then one alone.
    feed.send(
      relayFrames([
        relayFrame({ seq: 8, teamId: null, boardReadersOnly: false }, notice),
        relayFrame({ seq: 8, teamId: 6, boardReadersOnly: false }, verdict),
        relayFrame({ seq: 8, teamId: null, boardReadersOnly: true }, delta),
      ]),
    );
    feed.send(relayFrame({ seq: 9, teamId: null, boardReadersOnly: false }, JSON.stringify({ type: "notice", seq: 9, data: { id: 2 } })));
    const [, ...forA] = await a.next(4);
    const [, ...forB] = await b.next(4);
    expect(forA.map((f) => f.type)).toEqual(["notice", "scoreboard", "notice"]);
    expect(forB.map((f) => f.type)).toEqual(["notice", "verdict", "notice"]);
    expect(forB[1]).toEqual(JSON.parse(verdict));
    a.ws.send("ping");
    const pong = (await a.next(5))[4];
    expect(pong).toEqual({ type: "pong", seq: 9, data: null });
    expect(front.stats()).toMatchObject({ feeds: 1, sockets: 2 });
  });

  it("greets with when the channel's last message for all was sent: the room's, then its own clock's for each one", async () => {
    const a = player(port, "team=5; reader");
    await a.next(1);
    const feed = runtime.seen.feeds[0].ws;
    // A team's verdict is not a message for all.
    feed.send(relayFrame({ seq: 7, teamId: 5, boardReadersOnly: false }, JSON.stringify({ type: "verdict", seq: 7, data: { submissionId: 1 } })));
    await a.next(2);
    const b = player(port, "team=6");
    expect((await b.next(1))[0]).toEqual({ type: "hello", seq: 7, data: { channel: "game", lastAt: ROOM_LAST_AT } });
    // A notice for all, and a hidden game's board delta for its readers (no new number): both count.
    for (const [i, frame] of [
      [3, relayFrame({ seq: 8, teamId: null, boardReadersOnly: false }, JSON.stringify({ type: "notice", seq: 8, data: { id: 1 } }))],
      [4, relayFrame({ seq: 8, teamId: null, boardReadersOnly: true }, JSON.stringify({ type: "scoreboard", seq: 8, data: { version: 2 } }))],
    ]) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const before = Date.now();
      feed.send(frame);
      await a.next(i);
      const after = Date.now();
      const [hello] = await player(port, `team=${10 + i}`).next(1);
      expect(hello).toMatchObject({ type: "hello", seq: 8 });
      expect(hello.data.lastAt).toBeGreaterThanOrEqual(before);
      expect(hello.data.lastAt).toBeLessThanOrEqual(after);
    }
  });

  it("sends a message to more sockets than one turn takes, every socket getting every message in order", async () => {
    // No time to spare: each turn writes the fewest sockets it can (one clock reading's worth).
    await withBudget(0);
    const players = Array.from({ length: 230 }, (_, i) => player(port, `team=${i}`));
    await Promise.all(players.map((p) => p.next(1)));
    const feed = runtime.seen.feeds[0].ws;
    const turnsBefore = front.stats().turns;
    // Notices for everyone, each followed by verdicts for a few teams (which may go ahead of a notice
    // still being sent, but never so far that a socket sees a gap in the numbers).
    for (let seq = 8; seq <= 10; seq++) {
      feed.send(relayFrame({ seq, teamId: null, boardReadersOnly: false }, JSON.stringify({ type: "notice", seq, data: { id: seq } })));
      for (const team of [0, 99, 229]) feed.send(relayFrame({ seq, teamId: team, boardReadersOnly: false }, JSON.stringify({ type: "verdict", seq, data: { submissionId: seq * 1000 + team } })));
    }
    // Team 150's only verdict comes after three notices it may not have been sent yet.
    feed.send(relayFrame({ seq: 10, teamId: 150, boardReadersOnly: false }, JSON.stringify({ type: "verdict", seq: 10, data: { submissionId: 1 } })));
    for (const [i, p] of players.entries()) {
      const frames = await p.next([0, 99, 229].includes(i) ? 7 : i === 150 ? 5 : 4);
      expect(frames.filter((f) => f.type !== "verdict").map((f) => f.seq)).toEqual([7, 8, 9, 10]);
      let last = null;
      for (const f of frames) {
        if (last !== null) expect(f.seq).toBeLessThanOrEqual(last + 1);
        last = Math.max(last ?? 0, f.seq);
      }
    }
    expect(players[229].frames.filter((f) => f.type === "verdict").map((f) => f.data.submissionId)).toEqual([8229, 9229, 10229]);
    expect(front.stats().turns - turnsBefore).toBeGreaterThanOrEqual(Math.ceil(230 / 16));
    players[1].ws.send("ping");
    expect((await players[1].next(5))[4]).toEqual({ type: "pong", seq: 10, data: null });
  });

  it("frames messages of every length the way clients read them", async () => {
    const a = player(port, "team=5");
    await a.next(1);
    const feed = runtime.seen.feeds[0].ws;
    // Payload lengths in the three encodings of RFC 6455 §5.2 (7-bit, 16-bit, 64-bit), and UTF-8.
    const sizes = [10, 125, 126, 1_000, 65_535, 65_536, 200_000];
    for (const [i, size] of sizes.entries()) {
      const frame = JSON.stringify({ type: "notice", seq: 8 + i, data: { text: "é".repeat(size) } });
      feed.send(relayFrame({ seq: 8 + i, teamId: null, boardReadersOnly: false }, frame));
    }
    const frames = await a.next(1 + sizes.length);
    expect(frames.slice(1).map((f) => f.data.text.length)).toEqual(sizes);
    expect(frames.slice(1).every((f) => /^é*$/.test(f.data.text))).toBe(true);
  });

  it("writes a message to all its sockets in as many turns as the time budget needs", async () => {
    /** Turns the front took to write one notice to 200 sockets, with this budget. */
    const turnsFor200 = async (sendBudgetMs) => {
      await withBudget(sendBudgetMs);
      const players = Array.from({ length: 200 }, (_, i) => player(port, `team=${i}`));
      await Promise.all(players.map((p) => p.next(1)));
      const before = front.stats().turns;
      runtime.seen.feeds.at(-1).ws.send(relayFrame({ seq: 8, teamId: null, boardReadersOnly: false }, JSON.stringify({ type: "notice", seq: 8, data: { id: 8 } })));
      for (const p of players) expect((await p.next(2))[1]).toEqual({ type: "notice", seq: 8, data: { id: 8 } });
      return front.stats().turns - before;
    };
    // A budget no write comes near: one turn. None: a turn per 15 sockets.
    expect(await turnsFor200(10_000)).toBe(1);
    expect(await turnsFor200(0)).toBeGreaterThanOrEqual(Math.ceil(200 / 15));
  });

  it("writes the frames piled up for a socket in one write, in order", async () => {
    await withBudget(0);
    const players = Array.from({ length: 150 }, (_, i) => player(port, `team=${i}`));
    await Promise.all(players.map((p) => p.next(1)));
    const feed = runtime.seen.feeds[0].ws;
    const before = front.stats();
    // Sent back to back, the messages reach the front together, before it has written the first to every socket.
    for (let seq = 8; seq < 28; seq++) feed.send(relayFrame({ seq, teamId: null, boardReadersOnly: false }, JSON.stringify({ type: "notice", seq, data: { id: seq } })));
    for (const p of players) expect((await p.next(21)).slice(1).map((f) => f.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 8 + i));
    const after = front.stats();
    expect(after.frames - before.frames).toBe(150 * 20);
    expect(after.writes - before.writes).toBeLessThan(150 * 20 / 2);
  });

  it("closes a socket that answers no ping by the next heartbeat round, and keeps one that answers", async () => {
    await front.close();
    front = await startFront({ host: HOST, port, upstreamPort: runtime.port, token: TOKEN, heartbeatMs: 100 });
    const answering = player(port, "user=alice; team=5");
    // A client gone without a FIN answers nothing: a client that does not answer pings stands in for it.
    const silent = new WebSocket(`ws://${HOST}:${port}/hub/game/3`, { headers: { cookie: "user=bob; team=6" }, autoPong: false });
    const silentClosed = new Promise((resolve) => silent.on("close", (code) => resolve(code)));
    await answering.next(1);
    expect(await silentClosed).toBe(1006);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(answering.ws.readyState).toBe(WebSocket.OPEN);
    expect(front.stats()).toMatchObject({ sockets: 1 });
  });

  it("closes one user's sockets when the room says their access changed, and keeps the others", async () => {
    const a = player(port, "user=alice; team=5");
    const a2 = player(port, "user=alice; team=5");
    const b = player(port, "user=bob; team=5");
    await Promise.all([a.next(1), a2.next(1), b.next(1)]);
    const feed = runtime.seen.feeds[0].ws;
    feed.send(relayCloseUser("alice", 4403));
    expect(await a.closed).toBe(4403);
    expect(await a2.closed).toBe(4403);
    feed.send(relayFrame({ seq: 8, teamId: 5, boardReadersOnly: false }, JSON.stringify({ type: "verdict", seq: 8, data: { submissionId: 1 } })));
    expect((await b.next(2))[1]).toMatchObject({ type: "verdict" });
    expect(b.ws.readyState).toBe(WebSocket.OPEN);
    expect(front.stats()).toMatchObject({ sockets: 1 });
  });

  it("closes the sockets of a session the room says was signed out, and keeps the user's others", async () => {
    const a = player(port, "user=alice; session=s1; team=5");
    const a2 = player(port, "user=alice; session=s2; team=5");
    await Promise.all([a.next(1), a2.next(1)]);
    const feed = runtime.seen.feeds[0].ws;
    feed.send(relayCloseSession("s1", 4403));
    expect(await a.closed).toBe(4403);
    feed.send(relayFrame({ seq: 8, teamId: 5, boardReadersOnly: false }, JSON.stringify({ type: "verdict", seq: 8, data: { submissionId: 1 } })));
    expect((await a2.next(2))[1]).toMatchObject({ type: "verdict" });
    expect(front.stats()).toMatchObject({ sockets: 1 });
  });

  it("closes every socket with the room's code when the room says so (the game was deleted), while the feed is still open", async () => {
    const a = player(port, "user=alice; team=5");
    const b = player(port, "reader");
    await Promise.all([a.next(1), b.next(1)]);
    const feed = runtime.seen.feeds[0].ws;
    feed.send(relayCloseAll(4404, "game deleted"));
    expect(await a.closed).toBe(4404);
    expect(await b.closed).toBe(4404);
    expect(feed.readyState).toBe(WebSocket.OPEN);
    await expect.poll(() => front.stats().sockets).toBe(0);
  });

  it("checks its sockets again on the room's order: closes those who may no longer see the game, narrows the others", async () => {
    const out = player(port, "user=alice; team=5; reader");
    const kept = player(port, "user=bob; team=6; reader");
    const visitor = player(port, "reader");
    const monitor = player(port, "user=mona; staff; reader");
    await Promise.all([out, kept, visitor, monitor].map((p) => p.next(1)));
    const feed = runtime.seen.feeds[0].ws;
    const verdict = (team, id) => relayFrame({ seq: 7, teamId: team, boardReadersOnly: false }, JSON.stringify({ type: "verdict", seq: 7, data: { submissionId: id } }));
    const board = (seq) => relayFrame({ seq, teamId: null, boardReadersOnly: true }, JSON.stringify({ type: "scoreboard", seq, data: { version: seq } }));
    // A public game: alice's team is suspended. She keeps the notices and the board, not her team's verdicts.
    feed.send(relayReauthorize({ hidden: false, teams: { alice: null } }));
    feed.send(relayFrames([verdict(5, 1), verdict(6, 2), board(8)]));
    expect((await kept.next(3)).slice(1).map((f) => f.type)).toEqual(["verdict", "scoreboard"]);
    expect((await out.next(2))[1]).toMatchObject({ type: "scoreboard" });
    // The game is hidden: the visitor and alice (no longer a player) go; bob stays without the board; the monitor keeps it.
    feed.send(relayReauthorize({ hidden: true, teams: {} }));
    expect(await visitor.closed).toBe(4403);
    expect(await out.closed).toBe(4403);
    feed.send(board(9));
    expect((await monitor.next(3))[2]).toMatchObject({ type: "scoreboard", seq: 9 });
    // The monitor is made a user: a hidden game they do not play closes.
    feed.send(relayReauthorize({ hidden: true, unstaffed: ["mona"] }));
    expect(await monitor.closed).toBe(4403);
    feed.send(verdict(6, 3));
    expect((await kept.next(4))[3]).toMatchObject({ type: "verdict", data: { submissionId: 3 } });
    expect(kept.frames.filter((f) => f.type === "scoreboard")).toHaveLength(1);
    expect(front.stats()).toMatchObject({ sockets: 1 });
  });

  it("answers a refused socket with the runtime's own status and body", async () => {
    const answer = await raw(port, [
      "GET /hub/game/3 HTTP/1.1\r\nHost: x\r\nCookie: deny\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    ]);
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(answer).toContain("content-type: application/json; charset=utf-8");
    expect(answer.endsWith(JSON.stringify({ title: "Forbidden here", status: 403 }))).toBe(true);
    expect(runtime.seen.feeds).toEqual([]);
  });

  it("closes its sockets with 1012 when the room's feed ends, and opens a new feed for the next socket", async () => {
    const a = player(port, "team=5");
    await a.next(1);
    runtime.seen.feeds[0].ws.close();
    expect(await a.closed).toBe(1012);
    const b = player(port, "team=5");
    expect((await b.next(1))[0].type).toBe("hello");
    expect(runtime.seen.feeds).toHaveLength(2);
  });

  it("keeps one feed per game and sends each socket only its game's messages", async () => {
    const a = player(port, "team=5", "/hub/game/3");
    const b = player(port, "team=5", "/HUB/GAME/4?lang=ja");
    await a.next(1);
    await b.next(1);
    expect(runtime.seen.feeds.map((f) => f.gameId).sort()).toEqual([3, 4]);
    const feed4 = runtime.seen.feeds.find((f) => f.gameId === 4).ws;
    feed4.send(relayFrame({ seq: 8, teamId: null, boardReadersOnly: false }, JSON.stringify({ type: "notice", seq: 8, data: { id: 4 } })));
    expect((await b.next(2))[1].data).toEqual({ id: 4 });
    await new Promise((r) => setTimeout(r, 100));
    expect(a.frames).toHaveLength(1);
  });
});
