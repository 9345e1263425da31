import http from "node:http";

/** GET on the server with Node's own client: the bytes as sent (no inflating), and the headers. */
export function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/**
 * Requests sent one after another on one keep-alive connection of Node's own client (a second request
 * goes on the first one's socket if the server kept it), each `pauseMs` after the answer before it: each
 * answer's status and whether its socket was reused, or the error that ended it.
 */
export async function onOneConnection(
  base: string,
  requests: { method: string; path: string; body?: string; headers?: Record<string, string>; pauseMs?: number }[],
): Promise<({ status: number; reused: boolean; body: string } | { error: string })[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const out: ({ status: number; reused: boolean; body: string } | { error: string })[] = [];
  try {
    for (const { method, path, body, headers = {}, pauseMs = 0 } of requests) {
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      out.push(
        await new Promise((resolve) => {
          const sent = { ...headers, ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }) };
          const req = http.request(new URL(path, base), { method, agent, headers: sent }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket, body: Buffer.concat(chunks).toString() }));
            res.on("error", (e) => resolve({ error: String(e) }));
          });
          req.on("error", (e) => resolve({ error: String(e) }));
          req.end(body);
        }),
      );
    }
  } finally {
    agent.destroy();
  }
  return out;
}
