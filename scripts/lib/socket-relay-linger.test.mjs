import net from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { freePort } from "./free-port.mjs";
import { startFront } from "./socket-relay.mjs";

const HOST = "127.0.0.1";
const ANSWER = 'HTTP/1.1 413 Payload Too Large\r\ncontent-type: application/json\r\ncontent-length: 27\r\nconnection: close\r\n\r\n{"title":"x","status":413}\n';

/**
 * A runtime that refuses a body before reading it, as workerd does past a route's cap: on the request
 * head it answers and half-closes, holds the connection a moment with the body unread (workers/api/
 * body-limit.ts), then closes on the unread bytes — which resets the connection to the front.
 */
async function refusingRuntime() {
  const sockets = new Set();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.once("data", () => {
      socket.pause();
      socket.end(ANSWER);
      setTimeout(() => socket.destroy(), 100);
    });
  });
  await new Promise((resolve) => server.listen(0, HOST, resolve));
  return {
    port: server.address().port,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A client that sends a head promising `total` bytes and all of them, answer or not, then ends. */
function stubbornClient(port, total) {
  return new Promise((resolve) => {
    // Half-open: it goes on sending after the front's FIN, as an uploading browser does.
    const socket = net.connect({ host: HOST, port, allowHalfOpen: true });
    let received = "";
    let sent = 0;
    let error = null;
    let ended = false;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    socket.on("data", (d) => (received += d.toString("latin1")));
    socket.on("end", () => (ended = true));
    socket.on("error", (e) => (error = e.code));
    socket.on("close", () => resolve({ received, error, ended, sent }));
    socket.on("connect", () => {
      socket.write(`POST /api/team/verify HTTP/1.1\r\nHost: x\r\nContent-Length: ${total}\r\n\r\n`);
      const pump = () => {
        while (sent < total && !socket.destroyed) {
          sent += chunk.length;
          if (!socket.write(chunk)) return void socket.once("drain", pump);
        }
        if (!socket.destroyed) socket.end();
      };
      pump();
    });
  });
}

describe("the npm start front when the runtime answers before the body is read", () => {
  let runtime;
  let front;
  let port;

  beforeEach(async () => {
    runtime = await refusingRuntime();
    port = await freePort();
    front = await startFront({ host: HOST, port, upstreamPort: runtime.port, token: "t" });
  });

  afterEach(async () => {
    await front.close();
    await runtime.close();
  });

  it("hands the client the answer and a clean end, dropping what it still sends, instead of a reset", async () => {
    const result = await stubbornClient(port, 16 * 1024 * 1024);
    expect(result.received).toBe(ANSWER);
    expect(result.error).toBeNull();
    expect(result.ended).toBe(true);
    // Everything was sent: the front read and dropped what the runtime no longer wanted.
    expect(result.sent).toBe(16 * 1024 * 1024);
  });
});
