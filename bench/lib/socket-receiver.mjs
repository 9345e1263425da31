// A bench worker thread holding a share of the storm's open game sockets (bench/lib/storm.mjs).
//
// 1,000 sockets in the one thread that also sends the submissions made the bench's own work part of the
// figures: each scoreboard delta is 1,000 frames to take in (≈ 17 ms), during which the thread noticed
// neither answers nor verdicts. Real players are 1,000 machines; here the sockets are spread over a few
// threads, and every arrival is stamped with an absolute time (`performance.timeOrigin + now()`, the
// same clock in every thread) where it happens.
//
// In:  workerData {wsBase, gameId, teams: [{index, cookie}], wave, timeoutMs}
// Out: {type: "open", count, openMs} | {type: "error", message}
//      {type: "verdicts", list: [[submissionId, status, at], …]} (batched, every few ms)
//      on {type: "finish"}: {type: "boards", frames, bytes, versions: [[version, firstText, arrivals[]], …]}
import { randomBytes } from "node:crypto";
import net from "node:net";
import { parentPort, workerData } from "node:worker_threads";

const VERDICT_PREFIX = '{"type":"verdict"';
const BOARD_PREFIX = '{"type":"scoreboard"';
const { wsBase, gameId, teams, wave = 100, timeoutMs = 60_000 } = workerData;
const clock = () => performance.timeOrigin + performance.now();

const sockets = [];
let verdicts = [];
const boards = new Map(); // version → {text, arrivals[]}
let frames = 0;
let bytes = 0;

function onFrame(data, at) {
  const head = data.toString("latin1", 0, 120);
  if (head.startsWith(VERDICT_PREFIX)) {
    const msg = JSON.parse(data.toString());
    verdicts.push([msg.data.submissionId, msg.data.status, at]);
  } else if (head.startsWith(BOARD_PREFIX)) {
    frames++;
    bytes += data.length;
    const m = /"version":(\d+)/.exec(head);
    if (!m) return;
    const version = Number(m[1]);
    let entry = boards.get(version);
    if (!entry) boards.set(version, (entry = { text: data.toString(), arrivals: [] }));
    entry.arrivals.push(at);
  }
}

// One read buffer for every socket of this thread: Node reads into it and calls back with the bytes
// (`onread`), without a stream or a new Buffer per read. 1,000 sockets through `ws` cost ≈ 17 µs a frame
// to read, this ≈ 9.5 µs (measured, DECISIONS.md "relay frames"); real players are other machines, so the
// less the bench spends here, the less it weighs on the server it measures.
const readBuffer = Buffer.allocUnsafe(256 * 1024);

/**
 * Opens one game socket: the WebSocket handshake by hand, then server frames (RFC 6455 §5.2: final,
 * unmasked) parsed as they come. Resolves once the hello arrived.
 */
function open(team) {
  return new Promise((resolve, reject) => {
    const url = new URL(`${wsBase}/hub/game/${gameId}`);
    let upgraded = false;
    let hello = false;
    let rest = null; // bytes of an incomplete head or frame, copied out of the shared buffer
    let settled = false;
    const fail = (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error(`socket of team ${team.index} got no hello in ${timeoutMs} ms`)), timeoutMs);
    const socket = net.connect({
      host: url.hostname,
      port: Number(url.port),
      noDelay: true,
      onread: {
        buffer: readBuffer,
        callback(nread, buf) {
          const at = clock();
          let chunk = buf.subarray(0, nread);
          if (rest) {
            chunk = Buffer.concat([rest, chunk]);
            rest = null;
          }
          let off = 0;
          if (!upgraded) {
            const end = chunk.indexOf("\r\n\r\n");
            if (end < 0) {
              rest = Buffer.from(chunk);
              return;
            }
            const status = chunk.toString("latin1", 0, chunk.indexOf("\r\n"));
            if (!/^HTTP\/1\.1 101 /.test(status)) return fail(new Error(`socket upgrade answered ${status}`));
            upgraded = true;
            off = end + 4;
          }
          while (chunk.length - off >= 2) {
            const b0 = chunk[off];
            let length = chunk[off + 1];
            if ((b0 & 0x80) === 0 || length & 0x80) return fail(new Error("the server sent a fragmented or masked frame"));
            let head = 2;
            if (length === 126) {
              if (chunk.length - off < 4) break;
              length = chunk.readUInt16BE(off + 2);
              head = 4;
            } else if (length === 127) {
              if (chunk.length - off < 10) break;
              length = Number(chunk.readBigUInt64BE(off + 2));
              head = 10;
            }
            if (chunk.length - off < head + length) break;
            const opcode = b0 & 0x0f;
            const payload = chunk.subarray(off + head, off + head + length);
            off += head + length;
            // The front pings a socket that sent nothing for a while and closes it if no pong comes.
            if (opcode === 9) socket.write(pongFrame(payload));
            if (opcode !== 1) continue; // close: the bench ends the sockets itself
            if (hello) onFrame(payload, at);
            else {
              const text = payload.toString();
              if (!text.startsWith('{"type":"hello"')) return fail(new Error(`first frame was not hello: ${text.slice(0, 80)}`));
              hello = true;
              settled = true;
              clearTimeout(timer);
              sockets.push(socket);
              resolve();
            }
          }
          if (off < chunk.length) rest = Buffer.from(chunk.subarray(off));
        },
      },
    });
    socket.once("connect", () => {
      socket.write(
        `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\nCookie: ${team.cookie}\r\n\r\n`,
      );
    });
    socket.on("error", fail);
    socket.on("close", () => fail(new Error(`socket of team ${team.index} closed before its hello`)));
  });
}

/** A client's pong (RFC 6455 §5.5.3): the ping's payload (at most 125 bytes), masked as client frames are. */
function pongFrame(payload) {
  const mask = randomBytes(4);
  const frame = Buffer.allocUnsafe(6 + payload.length);
  frame[0] = 0x8a;
  frame[1] = 0x80 | payload.length;
  mask.copy(frame, 2);
  for (let i = 0; i < payload.length; i++) frame[6 + i] = payload[i] ^ mask[i % 4];
  return frame;
}

const flusher = setInterval(() => {
  if (verdicts.length === 0) return;
  parentPort.postMessage({ type: "verdicts", list: verdicts });
  verdicts = [];
}, 2);

parentPort.on("message", (msg) => {
  if (msg.type !== "finish") return;
  clearInterval(flusher);
  if (verdicts.length > 0) parentPort.postMessage({ type: "verdicts", list: verdicts });
  for (const socket of sockets) socket.destroy();
  parentPort.postMessage({ type: "boards", frames, bytes, versions: [...boards].map(([v, e]) => [v, e.text, e.arrivals]) });
  parentPort.close();
});

try {
  const started = clock();
  for (let i = 0; i < teams.length; i += wave) await Promise.all(teams.slice(i, i + wave).map(open));
  parentPort.postMessage({ type: "open", count: sockets.length, openMs: clock() - started });
} catch (error) {
  parentPort.postMessage({ type: "error", message: error?.message ?? String(error) });
}
