// The storm's flag submissions: a lean HTTP/1.1 client over keep-alive loopback connections.
//
// Node's `http` client cost the bench ≈ 175 µs of its own CPU per submission (1.1–1.4 core-s a storm),
// on the two cores the server it measures runs on. Real players are other machines, so the less the
// bench spends per request, the less it weighs on the figures (as for the socket readers,
// bench/lib/socket-receiver.mjs). One request at a time per connection (no pipelining), a request head
// written as one string, the answer's head parsed for its status and length only.
import net from "node:net";
import { readChunked, responseFraming } from "./http-framing.mjs";
import { loopbackUrl } from "./net.mjs";

/**
 * Reads one HTTP/1.1 response from the front of `buf`. Returns null while it is incomplete, else
 * {status, body, size, close}: `size` bytes of `buf` were the response; `close` when the server said it
 * closes the connection. Bodies come with Content-Length or chunked; anything else is refused.
 */
export function parseResponse(buf) {
  const framing = responseFraming(buf);
  if (!framing) return null;
  const { status, headSize, bodySize, close } = framing;
  if (framing.chunked) {
    const chunked = readChunked(buf, headSize, true);
    if (!chunked) return null;
    return { status, body: Buffer.concat(chunked.parts).toString("utf8"), size: chunked.end, close };
  }
  if (buf.length < headSize + bodySize) return null;
  return { status, body: buf.toString("utf8", headSize, headSize + bodySize), size: headSize + bodySize, close };
}

/**
 * A pool of up to `maxSockets` keep-alive connections to `base` (loopback only). `post(path, headers,
 * body)` sends a JSON body and resolves with {status, body, totalMs}; `destroy()` closes every connection.
 */
export function createPostClient(base, { maxSockets = 512, timeoutMs = 30_000 } = {}) {
  const url = loopbackUrl(base);
  const port = Number(url.port || 80);
  const hostHeader = url.host;
  const idle = [];
  const queue = [];
  let open = 0;
  let destroyed = false;

  function connection() {
    const conn = { socket: null, buf: null, job: null, timer: null };
    open++;
    const socket = net.connect({ host: url.hostname, port, noDelay: true });
    conn.socket = socket;
    const fail = (error) => {
      const job = conn.job;
      conn.job = null;
      clearTimeout(conn.timer);
      const at = idle.indexOf(conn);
      if (at >= 0) idle.splice(at, 1);
      if (!socket.destroyed) socket.destroy();
      if (job) job.reject(error);
    };
    socket.on("data", (chunk) => {
      conn.buf = conn.buf ? Buffer.concat([conn.buf, chunk]) : chunk;
      if (!conn.job) return fail(new Error("the server sent bytes nobody asked for"));
      let res;
      try {
        res = parseResponse(conn.buf);
      } catch (error) {
        return fail(error);
      }
      if (!res) return;
      const job = conn.job;
      conn.job = null;
      clearTimeout(conn.timer);
      conn.buf = res.size < conn.buf.length ? conn.buf.subarray(res.size) : null;
      job.resolve({ status: res.status, body: res.body, totalMs: performance.now() - job.started });
      if (res.close || conn.buf) socket.destroy();
      else release(conn);
    });
    socket.on("error", fail);
    socket.on("close", () => {
      open--;
      fail(new Error("connection closed before the answer"));
      pump();
    });
    return conn;
  }

  function send(conn, job) {
    conn.job = job;
    conn.timer = setTimeout(() => conn.socket.destroy(new Error(`timeout after ${timeoutMs} ms: POST ${job.path}`)), timeoutMs);
    job.started = performance.now();
    conn.socket.write(job.request);
  }

  function release(conn) {
    const next = queue.shift();
    if (next) send(conn, next);
    else idle.push(conn);
  }

  function pump() {
    while (queue.length > 0 && !destroyed) {
      const conn = idle.pop();
      if (conn) send(conn, queue.shift());
      else if (open < maxSockets) send(connection(), queue.shift());
      else break;
    }
  }

  function post(path, headers, body) {
    if (destroyed) return Promise.reject(new Error("client destroyed"));
    const payload = Buffer.from(body, "utf8");
    let head = `POST ${path} HTTP/1.1\r\nHost: ${hostHeader}\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    const request = Buffer.concat([Buffer.from(`${head}\r\n`, "latin1"), payload]);
    return new Promise((resolve, reject) => {
      queue.push({ path, request, resolve, reject, started: 0 });
      pump();
    });
  }

  function destroy() {
    destroyed = true;
    for (const job of queue.splice(0)) job.reject(new Error("client destroyed"));
    for (const conn of idle.splice(0)) conn.socket.destroy();
  }

  return { post, destroy, stats: () => ({ open, idle: idle.length, queued: queue.length }) };
}
