// A loopback TCP port for a server that must name its port before it starts (npm start's agent, tests,
// the bench). Chosen at random below the kernel's ephemeral range: a port the kernel handed out for
// `listen(0)` returns to that range at once, where any outgoing connection or `port: 0` listener started
// before our server binds can take it (a crash test once failed that way: "Address already in use").
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

const HOST = "127.0.0.1";
const LOW = 20_000;

function ephemeralStart() {
  try {
    const first = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > LOW + 1000 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

/** Whether nothing listens on `port` of the loopback address right now. */
export function probe(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, HOST, () => server.close(() => resolve(true)));
  });
}

/** A random port in [20000, start of the ephemeral range) that nothing listens on right now. */
export async function freePort() {
  const high = ephemeralStart();
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW + Math.floor(Math.random() * (high - LOW));
    if (await probe(port)) return port;
  }
  throw new Error(`no free loopback port found in ${LOW}–${high}`);
}
