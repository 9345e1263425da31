import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "./free-port.mjs";
import { startFront } from "./socket-relay.mjs";

const HOST = "127.0.0.1";
/** The fake runtime's keep-alive: it closes a connection this long without a request (workerd: 15 s). */
const IDLE_MS = 300;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A stand-in for the runtime's keep-alive rules. Each request (a head without body, one per chunk) is
 * answered with its number and the connection's; a connection without a request for IDLE_MS is closed.
 * `crossing`: instead of that timer, a request arriving after IDLE_MS of silence is the one that crossed
 * the close — the connection is closed with it unread, as workerd's close meets a late request.
 * `dropFirst`: the first request of all is taken and the connection closed without an answer.
 * `switching`: a request is answered `101` and the connection then carries frames, closed after silence.
 */
async function keepAliveRuntime({ crossing = false, dropFirst = false, switching = false } = {}) {
  const seen = { connections: 0, requests: 0 };
  const sockets = new Set();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    seen.connections += 1;
    const connection = seen.connections;
    let last = performance.now();
    let timer = null;
    const arm = () => {
      if (crossing) return;
      clearTimeout(timer);
      timer = setTimeout(() => socket.end(), IDLE_MS);
    };
    arm();
    socket.on("error", () => {});
    socket.on("close", () => clearTimeout(timer));
    socket.on("data", (chunk) => {
      if (crossing && performance.now() - last >= IDLE_MS) return void socket.destroy();
      seen.requests += 1;
      if (dropFirst && seen.requests === 1) return void socket.destroy();
      last = performance.now();
      arm();
      if (switching) {
        socket.write("HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n");
        return;
      }
      const body = `${seen.requests}@${connection} ${chunk.toString("latin1").split(" ")[1]}`;
      socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
    });
  });
  await new Promise((resolve) => server.listen(0, HOST, resolve));
  return {
    seen,
    port: server.address().port,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** One client connection to the front: `ask(path)` sends a request and resolves with its answer's body. */
async function client(port) {
  const socket = net.connect({ host: HOST, port });
  await new Promise((resolve) => socket.once("connect", resolve));
  let buffer = "";
  let waiter = null;
  const state = { ended: false, error: null };
  const settle = () => {
    if (!waiter) return;
    const end = buffer.indexOf("\r\n\r\n");
    if (end >= 0) {
      const head = buffer.slice(0, end);
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (buffer.length >= end + 4 + length) {
        const body = buffer.slice(end + 4, end + 4 + length);
        buffer = buffer.slice(end + 4 + length);
        const resolve = waiter.resolve;
        waiter = null;
        return resolve({ status: Number(head.slice(9, 12)), body });
      }
    }
    if (state.ended || state.error) {
      const reject = waiter.reject;
      waiter = null;
      reject(new Error(`the connection ended before an answer (${state.error ?? "end"})`));
    }
  };
  socket.on("data", (d) => {
    buffer += d.toString("latin1");
    settle();
  });
  socket.on("end", () => {
    state.ended = true;
    settle();
  });
  socket.on("error", (e) => {
    state.error = e.code;
    settle();
  });
  return {
    state,
    socket,
    ask: (path) =>
      new Promise((resolve, reject) => {
        waiter = { resolve, reject };
        socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      }),
  };
}

describe("the npm start front when the runtime closes a kept-alive connection", () => {
  let runtime;
  let front;
  let clientSocket;

  async function setUp(runtimeOptions, frontOptions = {}) {
    runtime = await keepAliveRuntime(runtimeOptions);
    const port = await freePort();
    front = await startFront({ host: HOST, port, upstreamPort: runtime.port, token: "t", runtimeIdleMs: IDLE_MS - 50, ...frontOptions });
    const c = await client(port);
    clientSocket = c.socket;
    return c;
  }

  afterEach(async () => {
    clientSocket?.destroy();
    await front?.close();
    await runtime?.close();
  });

  it("keeps the client's connection open across the runtime's idle close; its next request goes on a new one", async () => {
    const c = await setUp({});
    expect(await c.ask("/a")).toEqual({ status: 200, body: "1@1 /a" });
    await sleep(IDLE_MS * 2);
    // The runtime closed its side; the client's connection is still open and answers on another.
    expect(c.state).toEqual({ ended: false, error: null });
    expect(await c.ask("/b")).toEqual({ status: 200, body: "2@2 /b" });
    expect(await c.ask("/c")).toEqual({ status: 200, body: "3@2 /c" });
    expect(runtime.seen.connections).toBe(2);
  });

  it("sends a request that crossed the runtime's idle close again, once, on a new connection", async () => {
    const c = await setUp({ crossing: true });
    expect(await c.ask("/a")).toEqual({ status: 200, body: "1@1 /a" });
    await sleep(IDLE_MS + 100);
    // The runtime closes the connection with this request unread; the client still gets its answer.
    expect(await c.ask("/b")).toEqual({ status: 200, body: "2@2 /b" });
    expect(runtime.seen.requests).toBe(2);
    expect(c.state).toEqual({ ended: false, error: null });
  });

  it("never sends again a request the runtime took and closed on unanswered: the client's connection ends", async () => {
    const c = await setUp({ dropFirst: true });
    await expect(c.ask("/a")).rejects.toThrow(/ended before an answer/);
    await sleep(100);
    expect(runtime.seen.requests).toBe(1);
    expect(runtime.seen.connections).toBe(1);
  });

  it("ends the client's connection with a switched protocol's, however long it was silent", async () => {
    const c = await setUp({ switching: true });
    c.socket.write("GET /hub/admin HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n");
    await sleep(IDLE_MS * 2);
    expect(c.state.ended).toBe(true);
    expect(runtime.seen.connections).toBe(1);
  });

  it("closes a client's connection kept this way once it is unused for clientIdleMs", async () => {
    const c = await setUp({}, { clientIdleMs: 200 });
    expect(await c.ask("/a")).toEqual({ status: 200, body: "1@1 /a" });
    await sleep(IDLE_MS + 100);
    expect(c.state.ended).toBe(false);
    await sleep(300);
    expect(c.state.ended).toBe(true);
  });
  it("answers a client that ends its side right after its request, then ends the connection", async () => {
    const c = await setUp({});
    const answer = c.ask("/half");
    c.socket.end();
    expect(await answer).toEqual({ status: 200, body: "1@1 /half" });
    await sleep(IDLE_MS * 2);
    expect(c.state.ended).toBe(true);
  });

  it("closes a connection that sends nothing, after the head timeout and firstByteMs", async () => {
    const c = await setUp({}, { headTimeoutMs: 100, firstByteMs: 200 });
    await sleep(150);
    expect(c.state.ended).toBe(false);
    await sleep(400);
    expect(c.state.ended).toBe(true);
    expect(runtime.seen.connections).toBe(0);
  });
});
