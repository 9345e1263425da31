// Closed-loop GET load (loopback only) over raw keep-alive connections: requests per second and latency
// percentiles, at a small part of the bench's own CPU.
//
// autocannon, used before, spent ≈ 470 µs of the bench's CPU per 35 kB scoreboard page (5.2 core-s for
// 11,000 answers) on the two cores the server runs on, so the server got what the client left of the
// machine. Here each connection writes one request head (prepared once) and waits for its answer; only the
// status line and the framing headers are read, and body bytes are counted, never decoded.
import net from "node:net";
import { readChunked, responseFraming } from "./http-framing.mjs";
import { loopbackUrl } from "./net.mjs";
import { quantile, Samples } from "./stats.mjs";

/**
 * GETs `url` over `connections` keep-alive connections for `seconds`, each sending its next request when
 * the last answer is in (answers after the time are not counted). Returns {rps (mean), p50Ms, p90Ms, p99Ms,
 * requests, non2xx, errors, statuses}. A connection that fails or is closed is opened again; an answer
 * still missing `graceMs` after the time is cut and counted as an error.
 */
export async function hammer(url, { connections = 50, seconds = 8, headers = {}, graceMs = 10_000 } = {}) {
  const target = loopbackUrl(url);
  let head = `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  const request = Buffer.from(`${head}\r\n`, "latin1");
  const latencies = new Samples(1 << 16);
  const statuses = {};
  let non2xx = 0;
  let errors = 0;
  let running = true;
  const started = performance.now();

  const sockets = new Set();

  // One connection's loop; a connection that fails is opened again while the run lasts (as autocannon does).
  const runOne = () =>
    new Promise((resolve) => {
      let buf = null;
      let sentAt = 0;
      let over = false;
      const socket = net.connect({ host: target.hostname, port: Number(target.port || 80), noDelay: true });
      sockets.add(socket);
      // Ends this connection: `failed` true (an error), false (the server closed it; not an error) — both open
      // another while the run lasts — or null (the run is over).
      const finish = (failed) => {
        if (over) return;
        over = true;
        if (failed) errors++;
        sockets.delete(socket);
        socket.destroy();
        // A failed connection waits a moment before the next, so a server that is gone is not hammered.
        if (running && failed !== null) setTimeout(() => runOne().then(resolve), failed ? 10 : 0);
        else resolve();
      };
      const next = () => {
        if (!running) return finish(null);
        sentAt = performance.now();
        socket.write(request);
      };
      socket.once("connect", next);
      socket.on("data", (chunk) => {
        buf = buf ? Buffer.concat([buf, chunk]) : chunk;
        let framing;
        let end;
        try {
          framing = responseFraming(buf);
          if (!framing) return;
          end = framing.chunked ? readChunked(buf, framing.headSize)?.end : framing.headSize + framing.bodySize;
        } catch {
          return finish(true);
        }
        if (end === undefined || buf.length < end) return;
        // Nothing was asked for beyond this answer.
        if (buf.length > end) return finish(true);
        buf = null;
        // Answers that come in after the run's time are not counted (the rate is over that time).
        if (running) {
          latencies.push(performance.now() - sentAt);
          statuses[framing.status] = (statuses[framing.status] ?? 0) + 1;
          if (framing.status < 200 || framing.status >= 300) non2xx++;
        }
        if (framing.close) return finish(false);
        next();
      });
      socket.on("error", () => finish(true));
      socket.on("close", () => finish(true));
    });

  const done = Promise.all(Array.from({ length: connections }, runOne));
  await new Promise((r) => setTimeout(r, seconds * 1000));
  running = false;
  const elapsed = (performance.now() - started) / 1000;
  // The answers still on their way end each connection; one that never comes is cut.
  let timer;
  await Promise.race([done, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
  clearTimeout(timer);
  for (const socket of sockets) {
    errors++;
    socket.destroy();
  }
  const values = latencies.values();
  return {
    rps: values.length / elapsed,
    p50Ms: quantile(values, 0.5),
    p90Ms: quantile(values, 0.9),
    p99Ms: quantile(values, 0.99),
    requests: values.length,
    non2xx,
    errors,
    statuses,
  };
}
