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
import { parentPort, workerData } from "node:worker_threads";
import WebSocket from "ws";

const VERDICT_PREFIX = '{"type":"verdict"';
const BOARD_PREFIX = '{"type":"scoreboard"';
const { wsBase, gameId, teams, wave = 100, timeoutMs = 60_000 } = workerData;
const clock = () => performance.timeOrigin + performance.now();

const sockets = [];
let verdicts = [];
const boards = new Map(); // version → {text, arrivals[]}
let frames = 0;
let bytes = 0;

function onFrame(data) {
  const at = clock();
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

function open(team) {
  return new Promise((resolve, reject) => {
    // Frames are not checked for UTF-8 and only their first bytes are decoded, so the measuring costs little.
    const ws = new WebSocket(`${wsBase}/hub/game/${gameId}`, { headers: { cookie: team.cookie }, perMessageDeflate: false, skipUTF8Validation: true });
    const timer = setTimeout(() => reject(new Error(`socket of team ${team.index} got no hello in ${timeoutMs} ms`)), timeoutMs);
    ws.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    ws.once("unexpected-response", (_req, res) => {
      clearTimeout(timer);
      reject(new Error(`socket upgrade answered HTTP ${res.statusCode}`));
    });
    ws.once("message", (data) => {
      clearTimeout(timer);
      const text = data.toString();
      if (!text.startsWith('{"type":"hello"')) return reject(new Error(`first frame was not hello: ${text.slice(0, 80)}`));
      ws.on("message", onFrame);
      sockets.push(ws);
      resolve();
    });
  });
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
  for (const ws of sockets) ws.terminate();
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
