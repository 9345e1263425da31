// The `npm start` front: the public socket of the local server. Every connection is passed through to the
// runtime (workerd, on a loopback port of its own) byte for byte, except a player's game socket
// (`GET /hub/game/{id}` with a WebSocket upgrade), which this process holds itself.
//
// Why: workerd runs all of the server on one thread, and one message to 1,000 open game pages cost that
// thread ≈ 44 ms (≈ 30 µs a frame, measured). The game's room now sends each message once, with its
// audience, on one feed per game (`/hub/game/{id}/relay`), and this process — on the machine's other
// core — sends it to its sockets (≈ 11 ms for 1,000). DECISIONS.md "socket relay".
//
// Each message is framed once (RFC 6455 text frame, server side: not masked) and the same bytes are
// written to every socket of its audience, on the socket itself rather than through `ws` (≈ 20 % less
// CPU per frame, measured); `ws` still does the handshake, reads the players' frames and closes. A socket
// still waiting for earlier frames when more come gets them all in one write. DECISIONS.md "relay frames".
//
// What stays with the Worker and the room: who may connect (the Worker answers the relay's identity
// request with the same checks as a direct upgrade, or the refusal the client then gets), and every
// message and its number. The relay keeps the hub's rules (rules.md §11): a hello with the channel's
// current `seq` and when its last message for all was sent (`lastAt`), a pong with it, channel messages
// to all, team messages (verdicts) to that team's sockets, hidden-game board deltas to board readers
// only; a lost feed closes its sockets with 1012, and the pages reconnect and refetch as after any
// restart. When who may hold a socket changes (a user's access, a session signed out, a team's
// participation, the game hidden), the room says so on the feed and the relay applies the room's own
// rule (app/core/socket-access.ts) to its sockets.
import http from "node:http";
import net from "node:net";
import { WebSocket, WebSocketServer } from "ws";
import { CLOSE_ACCESS_ENDED, parseRelayFrames, RELAY_TOKEN_HEADER } from "../../app/core/protocol.ts";
import { reauthorizeGameSocket } from "../../app/core/socket-access.ts";

const HUB_PATH = /^\/hub\/game\/(\d{1,15})(?:\?[^\s]*)?$/i;
const HUB_PREFIX = "get /hub/game/";
/** A request head larger than this, or slower than HEAD_TIMEOUT_MS, is passed through untouched. */
const MAX_HEAD = 64 * 1024;
const HEAD_TIMEOUT_MS = 10_000;
/**
 * A connection that sent no byte by then is closed after this long more without one (the runtime's own
 * 15 s header timeout closed it when it was passed through at once).
 */
const FIRST_BYTE_MS = 15_000;
/**
 * When the runtime answers and closes while the client is still sending (a body over its route's cap is
 * refused before it is read, app/core/http/body-limit.ts), the client gets the whole answer and a FIN, and
 * what it still sends is read and dropped for up to this long: closing on unread bytes would make this
 * machine's kernel reset the connection, and a reset makes clients drop the answer unread.
 */
const LINGER_MS = 5_000;
/** A feed without sockets is closed after this long (a page reload reuses it). */
const FEED_IDLE_MS = 30_000;
/** A socket whose unsent frames exceed this is closed (1008): a reader that stopped reading. */
const MAX_BUFFERED = 8 * 1024 * 1024;
/**
 * How long one turn of the event loop may spend writing a message to sockets before the connections
 * passing through get a turn. A time, not a number of sockets: a socket's write costs 10–25 µs (the
 * kernel's loopback path, more when the cores are busy), and a message to 1,000 sockets in slices of
 * 100 took 10 turns, 24 ms at the median and up to 123 ms in a storm. With 4 ms: 21–24 ms, p99
 * 38–84 ms, and the storm's verdict and push p99 within target in 8 of 8 runs (6 of 8 with slices of
 * 100). BENCHMARKS.md ninth round.
 */
const SEND_BUDGET_MS = 4;
/** The clock is read once per this many sockets written. */
const SEND_CLOCK_EVERY = 16;
/**
 * The runtime closes a kept-alive connection after 15 s without a request (workerd, measured): a close after
 * a silence this long is that idle close (a second less, for the two processes' timers).
 */
const RUNTIME_IDLE_MS = 14_000;
/** A request that crossed the runtime's idle close is sent again if it is at most this large … */
const RESEND_MAX = 1024 * 1024;
/** … and the close came within this long of its first byte. */
const RESEND_WITHIN_MS = 1_000;
/** A client's connection kept open after its runtime connection's idle close is closed after this long unused. */
const CLIENT_IDLE_MS = 120_000;
/**
 * A player's socket silent for a heartbeat round is pinged (a WebSocket ping frame, which every client
 * answers by itself) and closed when still silent at the next round: a client gone without a FIN (a laptop
 * asleep, a NAT that forgot the connection) no longer keeps its socket and its place in the feed.
 */
const HEARTBEAT_MS = 30_000;
const SWITCHING = Buffer.from("HTTP/1.1 101 ", "latin1");
const HOP_BY_HOP = new Set(["connection", "upgrade", "keep-alive", "transfer-encoding", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-protocol", RELAY_TOKEN_HEADER]);

/**
 * Listens on host:port and serves as described above; `upstreamPort` is the runtime's loopback port and
 * `token` its FLAGSTAFF_RELAY_TOKEN (`sendBudgetMs`, `runtimeIdleMs`, `clientIdleMs`, `headTimeoutMs`,
 * `firstByteMs`, `heartbeatMs`: tests only). Resolves once listening, with `close()` and `stats()`.
 */
export async function startFront({
  host,
  port,
  upstreamPort,
  token,
  sendBudgetMs = SEND_BUDGET_MS,
  runtimeIdleMs = RUNTIME_IDLE_MS,
  clientIdleMs = CLIENT_IDLE_MS,
  headTimeoutMs = HEAD_TIMEOUT_MS,
  firstByteMs = FIRST_BYTE_MS,
  heartbeatMs = HEARTBEAT_MS,
}) {
  const connections = new Set();
  /** gameId → Feed */
  const feeds = new Map();
  // No compression: frames written to a socket directly must not overtake frames `ws` is still
  // compressing (without it, `ws` writes each frame to the socket as it is sent, in order).
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 1024, clientTracking: false });
  const identityAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  /** Frames written to players' sockets, the writes that carried them, and the turns spent writing. */
  const written = { frames: 0, writes: 0, turns: 0 };

  // Upgrades this process answers arrive here, parsed by Node's HTTP parser.
  const hubServer = http.createServer((req, res) => {
    res.writeHead(404).end();
  });
  hubServer.on("upgrade", (req, socket, head) => void acceptPlayer(req, socket, head));
  hubServer.on("clientError", (_err, socket) => socket.destroy());

  /**
   * Passes a client's connection through to the runtime, byte for byte. The client's connection may
   * outlive one runtime connection: workerd closes a kept-alive connection after 15 s without a request
   * (measured, DECISIONS.md "front keep-alive, again"), and a client whose next request crossed that
   * close got a reset (Node's HTTP client, Playwright's among them, does not retry one; browsers do).
   * So when the runtime closes a connection that sat silent `runtimeIdleMs` or longer:
   * - with nothing of the client's unanswered, the client's connection stays open and its next bytes go
   *   on a new runtime connection;
   * - with bytes the client sent only after that silence and within the last second (a request that
   *   crossed the idle close: the runtime closes only when no byte of a next request came), those bytes
   *   go again, once, on a new runtime connection (up to RESEND_MAX of them).
   * Any other close — while an answer is due, right after one (an answer ended by the close, a body
   * refused before it was read), or of a switched protocol (a `101` answer: a WebSocket not held here) —
   * ends the client's connection as before. A client connection kept this way and unused for
   * `clientIdleMs` is closed.
   */
  function passThrough(socket, head) {
    let upstream = null;
    // `quietSince`: when the runtime last sent a byte on `upstream` (or it was opened); `unanswered`: the
    // client's bytes sent on it since (kept while `unansweredSize` ≤ RESEND_MAX), the first at `askedAt`.
    let quietSince = 0;
    let unanswered = [];
    let unansweredSize = 0;
    let askedAt = 0;
    let switched = false;
    let lingering = false;

    function open() {
      const conn = net.connect({ host, port: upstreamPort, noDelay: true });
      connections.add(conn);
      upstream = conn;
      quietSince = performance.now();
      unanswered = [];
      unansweredSize = 0;
      socket.setTimeout(0);
      conn.on("data", (chunk) => {
        if (conn !== upstream || socket.destroyed) return;
        if (unansweredSize > 0 && !switched && chunk.subarray(0, SWITCHING.length).equals(SWITCHING)) switched = true;
        quietSince = performance.now();
        unanswered = [];
        unansweredSize = 0;
        if (!socket.write(chunk)) conn.pause();
      });
      conn.on("drain", () => {
        if (conn === upstream) socket.resume();
      });
      conn.on("end", () => gone(conn));
      conn.on("error", () => gone(conn));
      conn.on("close", () => gone(conn));
    }

    function gone(conn) {
      conn.destroy();
      connections.delete(conn);
      if (conn !== upstream) return;
      upstream = null;
      if (socket.destroyed || lingering) return;
      const now = performance.now();
      const mayKeep = !switched && !socket.readableEnded;
      if (mayKeep && unansweredSize === 0 && now - quietSince >= runtimeIdleMs) {
        // The runtime's idle close: the client's next bytes open another connection.
        socket.resume();
        socket.setTimeout(clientIdleMs);
        return;
      }
      if (mayKeep && unansweredSize > 0 && unansweredSize <= RESEND_MAX && askedAt - quietSince >= runtimeIdleMs && now - askedAt < RESEND_WITHIN_MS) {
        // A request that crossed the idle close: sent again, once (on the new connection it is not
        // after a silence, so a second close ends the client's connection).
        const chunks = unanswered;
        open();
        for (const chunk of chunks) send(chunk);
        // The client may be paused for the old connection's back-pressure, whose drain never comes.
        if (!upstream.writableNeedDrain) socket.resume();
        return;
      }
      linger();
    }

    /** Ends the client's connection, reading and dropping what it still sends for a while (LINGER_MS). */
    function linger() {
      lingering = true;
      socket.resume();
      socket.end();
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    }

    function send(chunk) {
      if (lingering) return;
      if (!upstream) open();
      if (!switched) {
        if (unansweredSize === 0) askedAt = performance.now();
        unansweredSize += chunk.length;
        if (unansweredSize <= RESEND_MAX) unanswered.push(chunk);
        else unanswered = [];
      }
      if (!upstream.write(chunk)) socket.pause();
    }

    const done = () => {
      socket.destroy();
      if (upstream) {
        upstream.destroy();
        connections.delete(upstream);
        upstream = null;
      }
    };
    socket.on("data", send);
    socket.on("drain", () => upstream?.resume());
    socket.on("end", () => {
      if (upstream) upstream.end();
      else if (!lingering) socket.end();
    });
    socket.on("timeout", () => {
      if (!upstream && !lingering) linger();
    });
    socket.on("error", done);
    socket.on("close", done);
    if (head.length > 0) send(head);
    if (socket.readableEnded) {
      // The client sent its last bytes before the choice was made.
      if (upstream) upstream.end();
      else socket.end();
      return;
    }
    // Nothing sent yet (the head timeout passed): no runtime connection, whose own timeout would end it.
    if (!upstream) socket.setTimeout(firstByteMs);
    socket.resume();
  }

  function onConnection(socket) {
    connections.add(socket);
    socket.on("close", () => connections.delete(socket));
    socket.setNoDelay(true);
    let head = Buffer.alloc(0);
    const timer = setTimeout(() => decide(true), headTimeoutMs);
    const onData = (chunk) => {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      decide(false);
    };
    const onEnd = () => decide(true);
    function decide(force) {
      // Only a head that starts like a game socket's is waited for; anything else goes through at once.
      const start = head.toString("latin1", 0, Math.min(head.length, HUB_PREFIX.length)).toLowerCase();
      const complete = head.indexOf("\r\n\r\n") >= 0;
      if (!force && HUB_PREFIX.startsWith(start) && !complete && head.length < MAX_HEAD) return;
      clearTimeout(timer);
      socket.off("data", onData);
      socket.off("end", onEnd);
      socket.pause();
      if (complete && isPlayerUpgrade(head)) {
        socket.unshift(head);
        hubServer.emit("connection", socket);
        socket.resume();
      } else passThrough(socket, head);
    }
    socket.on("data", onData);
    socket.on("end", onEnd);
  }

  /** `GET /hub/game/{id}` with a WebSocket upgrade (the head is complete). */
  function isPlayerUpgrade(head) {
    const text = head.toString("latin1", 0, head.indexOf("\r\n\r\n"));
    const [requestLine, ...lines] = text.split("\r\n");
    const parts = requestLine.split(" ");
    if (parts.length !== 3 || parts[0] !== "GET" || !HUB_PATH.test(parts[1])) return false;
    return lines.some((line) => /^upgrade:\s*websocket\s*$/i.test(line));
  }

  async function acceptPlayer(req, socket, head) {
    const gameId = Number(HUB_PATH.exec(req.url)?.[1]);
    socket.on("error", () => socket.destroy());
    let answer;
    try {
      answer = await askIdentity(req);
    } catch {
      return refuse(socket, 502, { "content-type": "text/plain; charset=utf-8" }, "Bad gateway");
    }
    if (socket.destroyed) return;
    if (answer.status !== 200) return refuse(socket, answer.status, answer.headers, answer.body);
    let identity;
    try {
      const parsed = JSON.parse(answer.body);
      identity = {
        userId: typeof parsed.userId === "string" ? parsed.userId : null,
        session: typeof parsed.session === "string" ? parsed.session : null,
        teamId: typeof parsed.teamId === "number" ? parsed.teamId : null,
        boardReader: parsed.boardReader === true,
        staff: parsed.staff === true,
      };
    } catch {
      return refuse(socket, 502, { "content-type": "text/plain; charset=utf-8" }, "Bad gateway");
    }
    wss.handleUpgrade(req, socket, head, (ws) => join(gameId, ws, socket, identity));
  }

  /** The Worker's answer to "who owns this socket" (the client's own headers and the relay's token). */
  function askIdentity(req) {
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
    headers[RELAY_TOKEN_HEADER] = token;
    return new Promise((resolve, reject) => {
      const call = http.request({ host, port: upstreamPort, method: "GET", path: req.url, headers, agent: identityAgent }, (res) => {
        const chunks = [];
        let size = 0;
        res.on("data", (chunk) => {
          size += chunk.length;
          if (size <= MAX_HEAD) chunks.push(chunk);
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      });
      call.on("error", reject);
      call.setTimeout(30_000, () => call.destroy(new Error("identity request timed out")));
      call.end();
    });
  }

  /** Answers a refused upgrade with the Worker's own response (status, localised JSON body, headers). */
  function refuse(socket, status, headers, body) {
    if (socket.destroyed) return;
    const bytes = Buffer.from(body ?? "", "utf8");
    const lines = [`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ""}`];
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (HOP_BY_HOP.has(name) || name === "content-length" || value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
    }
    lines.push(`content-length: ${bytes.length}`, "connection: close", "", "");
    socket.end(Buffer.concat([Buffer.from(lines.join("\r\n"), "latin1"), bytes]));
  }

  // ── Feeds ──────────────────────────────────────────────────────────────────────────────────────────

  function join(gameId, ws, socket, identity) {
    let feed = feeds.get(gameId);
    if (!feed) {
      feed = openFeed(gameId);
      feeds.set(gameId, feed);
    }
    if (feed.idleTimer) {
      clearTimeout(feed.idleTimer);
      feed.idleTimer = null;
    }
    // `seq`: the channel number of the last message this socket was sent (its pong repeats it);
    // `pending`: frames queued for it and not written yet; `pendingSeq`: the number of the last of them.
    // `heard`: the client sent something (a message, a pong) since the last heartbeat round; `pinged`: it
    // was pinged at the last round.
    const client = { ws, socket, ...identity, seq: 0, pending: [], pendingSeq: 0, heard: true, pinged: false };
    ws.on("error", () => ws.terminate());
    ws.on("close", () => leave(feed, client));
    ws.on("pong", () => (client.heard = true));
    ws.on("message", (data, isBinary) => {
      client.heard = true;
      if (!isBinary && feed.seq !== null && data.length === 4 && data.toString() === "ping") {
        ws.send(JSON.stringify({ type: "pong", seq: client.seq, data: null }));
      }
    });
    if (feed.seq === null) feed.waiting.add(client);
    else admit(feed, client);
  }

  function admit(feed, client) {
    feed.clients.add(client);
    if (client.teamId !== null) {
      let team = feed.teams.get(client.teamId);
      if (!team) feed.teams.set(client.teamId, (team = new Set()));
      team.add(client);
    }
    client.seq = feed.seq;
    client.ws.send(JSON.stringify({ type: "hello", seq: feed.seq, data: { channel: "game", lastAt: feed.lastAt } }));
  }

  function leave(feed, client) {
    feed.waiting.delete(client);
    feed.queued.delete(client);
    client.pending = [];
    feed.clients.delete(client);
    const team = client.teamId === null ? undefined : feed.teams.get(client.teamId);
    team?.delete(client);
    if (team?.size === 0) feed.teams.delete(client.teamId);
    if (feed.clients.size === 0 && feed.waiting.size === 0 && !feed.idleTimer && feeds.get(feed.gameId) === feed) {
      feed.idleTimer = setTimeout(() => {
        if (feed.clients.size === 0 && feed.waiting.size === 0) closeFeed(feed, 1012);
      }, FEED_IDLE_MS);
      feed.idleTimer.unref();
    }
  }

  function openFeed(gameId) {
    const upstream = new WebSocket(`ws://${host}:${upstreamPort}/hub/game/${gameId}/relay`, {
      headers: { [RELAY_TOKEN_HEADER]: token },
      perMessageDeflate: false,
      skipUTF8Validation: true,
    });
    // `queued`: sockets with frames waiting, in the order they got their first one.
    // `lastAt`: when the channel's last message for all was sent (the room's hello, then this process's clock).
    const feed = { gameId, upstream, seq: null, lastAt: 0, clients: new Set(), waiting: new Set(), teams: new Map(), idleTimer: null, queued: new Set(), sending: false };
    upstream.on("message", (data, isBinary) => {
      if (isBinary) return;
      const text = data.toString("utf8");
      if (feed.seq === null) {
        // The room's hello: the channel's current number, for every socket's own hello.
        try {
          const hello = JSON.parse(text);
          if (hello.type !== "hello" || typeof hello.seq !== "number") throw new Error("not a hello");
          feed.seq = hello.seq;
          feed.lastAt = typeof hello.data?.lastAt === "number" ? hello.data.lastAt : 0;
        } catch {
          return closeFeed(feed, 1011);
        }
        for (const client of feed.waiting) admit(feed, client);
        feed.waiting.clear();
        return;
      }
      const messages = parseRelayFrames(text);
      if (!messages) return;
      for (const message of messages) {
        if ("closeUser" in message) {
          closeWhere(feed, (client) => client.userId === message.closeUser, message.code, "access changed");
          continue;
        }
        if ("closeSession" in message) {
          closeWhere(feed, (client) => client.session === message.closeSession, message.code, "signed out");
          continue;
        }
        if ("closeAll" in message) {
          closeWhere(feed, () => true, message.code, message.closeAll);
          continue;
        }
        if ("reauthorize" in message) {
          reauthorize(feed, message.reauthorize);
          continue;
        }
        route(feed, message);
        if (feed.queued.size > 0 && !feed.sending) sendSome(feed);
      }
    });
    upstream.on("unexpected-response", () => closeFeed(feed, 1011));
    upstream.on("error", () => closeFeed(feed, 1012));
    upstream.on("close", () => closeFeed(feed, 1012));
    return feed;
  }

  /** The room's order: a user's access changed (role, ban, deletion) or a session ended; those sockets close. */
  function closeWhere(feed, owned, code, reason) {
    for (const client of [...feed.clients, ...feed.waiting]) if (owned(client)) client.ws.close(code, reason);
  }

  /**
   * The room's order: who may hold the game's sockets changed. Each socket is closed (4403) when its holder
   * may no longer see the game, or keeps what it may still receive (a team's verdicts, the board) — the
   * room's own rule for its sockets.
   */
  function reauthorize(feed, change) {
    for (const client of [...feed.clients, ...feed.waiting]) {
      const next = reauthorizeGameSocket(client, change);
      if (next === client) continue;
      if (next === null) {
        client.ws.close(CLOSE_ACCESS_ENDED, "access changed");
        continue;
      }
      if (next.teamId !== client.teamId) {
        const team = feed.teams.get(client.teamId);
        team?.delete(client);
        if (team?.size === 0) feed.teams.delete(client.teamId);
      }
      client.teamId = next.teamId;
      client.boardReader = next.boardReader;
      client.staff = next.staff;
    }
  }

  /** Queues one room message for its audience among this feed's sockets (as they are now). */
  function route(feed, { route: to, frame }) {
    feed.seq = to.seq;
    // A hidden game's board delta (readers only) counts too: a reader whose board was read before it must refetch.
    if (to.teamId === null) feed.lastAt = Date.now();
    const bytes = textFrame(Buffer.from(frame, "utf8"));
    for (const client of to.teamId === null ? feed.clients : (feed.teams.get(to.teamId) ?? [])) {
      if (to.boardReadersOnly && !client.boardReader) continue;
      // A team's message (a verdict: it carries the channel's number without advancing it) goes ahead
      // of a board delta still waiting when the socket then sees no gap: it was sent every channel
      // message but the last (stream-seq: a gap is a number above the last one plus one).
      if (to.teamId !== null && client.seq >= to.seq - 1) {
        write(client, [bytes], to.seq);
        continue;
      }
      client.pending.push(bytes);
      client.pendingSeq = to.seq;
      feed.queued.add(client);
    }
  }

  /** Writes frames (with the number of the last) to a player's socket, or closes a socket that stopped reading. */
  function write(client, frames, seq) {
    const { ws, socket } = client;
    if (ws.readyState !== WebSocket.OPEN || socket.destroyed) return;
    if (socket.writableLength > MAX_BUFFERED) {
      ws.close(1008, "too slow");
      return;
    }
    written.frames += frames.length;
    written.writes++;
    // Several frames corked: one writev.
    socket.cork();
    for (const f of frames) socket.write(f);
    socket.uncork();
    client.seq = Math.max(client.seq, seq);
  }

  /**
   * Writes the waiting frames for at most `sendBudgetMs`, then leaves the rest to the next turn of the
   * event loop, so a message to a thousand sockets never holds up the connections passing through for
   * longer than that. A socket whose frames piled up meanwhile gets them in one write.
   */
  function sendSome(feed) {
    feed.sending = false;
    written.turns++;
    const until = performance.now() + sendBudgetMs;
    let n = 0;
    for (const client of feed.queued) {
      if (++n % SEND_CLOCK_EVERY === 0 && performance.now() >= until) break;
      feed.queued.delete(client);
      const frames = client.pending;
      client.pending = [];
      write(client, frames, client.pendingSeq);
    }
    if (feed.queued.size > 0) {
      feed.sending = true;
      setImmediate(sendSome, feed);
    }
  }

  /** Ends a feed and its sockets (1012: the pages reconnect, as after a restart). */
  function closeFeed(feed, code) {
    if (feeds.get(feed.gameId) === feed) feeds.delete(feed.gameId);
    if (feed.idleTimer) clearTimeout(feed.idleTimer);
    feed.idleTimer = null;
    for (const client of [...feed.clients, ...feed.waiting]) client.ws.close(code, "relay feed closed");
    feed.clients.clear();
    feed.waiting.clear();
    feed.teams.clear();
    feed.queued.clear();
    if (feed.upstream.readyState === WebSocket.OPEN || feed.upstream.readyState === WebSocket.CONNECTING) feed.upstream.terminate();
  }

  // Half-open: a client that ends its side right after its request still gets the answer (the runtime
  // answers it; the front ends the client's side when the runtime's connection ends).
  const server = net.createServer({ noDelay: true, allowHalfOpen: true }, onConnection);
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });

  const heartbeat = setInterval(() => {
    for (const feed of feeds.values()) {
      for (const client of [...feed.clients, ...feed.waiting]) {
        if (client.heard) {
          client.heard = false;
          client.pinged = false;
        } else if (client.pinged) client.ws.terminate();
        else {
          client.pinged = true;
          client.ws.ping();
        }
      }
    }
  }, heartbeatMs);
  heartbeat.unref();

  return {
    /** Open feeds, relayed sockets, frames written to them, the writes that carried them and the turns spent writing (tests, diagnostics). */
    stats: () => ({ feeds: feeds.size, sockets: [...feeds.values()].reduce((n, f) => n + f.clients.size, 0), ...written }),
    close: () =>
      new Promise((resolve) => {
        clearInterval(heartbeat);
        for (const feed of [...feeds.values()]) closeFeed(feed, 1001);
        for (const socket of connections) socket.destroy();
        identityAgent.destroy();
        server.close(() => resolve());
      }),
  };
}

/** One final, unmasked text frame (RFC 6455 §5.2) holding `payload`, as a server sends it. */
export function textFrame(payload) {
  const n = payload.length;
  const head = n < 126 ? 2 : n < 0x10000 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + n);
  frame[0] = 0x81; // FIN, opcode 1 (text)
  if (head === 2) frame[1] = n;
  else if (head === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(n), 2);
  }
  payload.copy(frame, head);
  return frame;
}
