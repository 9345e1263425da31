// Loopback helpers: free ports, keep-alive HTTP requests with timing, waiting for a URL.
import http from "node:http";

export const HOST = "127.0.0.1";

/** Parses a URL the bench is about to send traffic to; throws unless it names a loopback host. */
export function loopbackUrl(url) {
  const u = new URL(url);
  if (u.hostname !== HOST && u.hostname !== "localhost") throw new Error(`bench sends traffic to loopback only, not ${u.hostname}`);
  return u;
}

/** A TCP port free on loopback right now (below the ephemeral range; scripts/lib/free-port.mjs). */
export { freePort } from "../../scripts/lib/free-port.mjs";

/**
 * One HTTP request on loopback. Resolves with {status, headers, body, bodyBytes, ttfbMs, totalMs}; ttfbMs
 * is the time until the response head arrived (its first bytes); bodyBytes the body's size on the wire (it
 * is not inflated).
 */
export function request(url, { method = "GET", headers = {}, body, agent, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let u;
    try {
      u = loopbackUrl(url);
    } catch (error) {
      reject(error);
      return;
    }
    const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method,
        agent,
        headers: payload === undefined ? headers : { "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...headers },
        timeout: timeoutMs,
      },
      (res) => {
        const ttfbMs = performance.now() - started;
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            bodyBytes: chunks.reduce((n, c) => n + c.length, 0),
            ttfbMs,
            totalMs: performance.now() - started,
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${url}`)));
    req.on("error", reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Polls a URL until it answers (any status) or the deadline passes. */
export async function waitForUrl(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      return await request(url, { timeoutMs: 2_000 });
    } catch (error) {
      last = error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (${last?.message ?? "no answer"})`);
}
