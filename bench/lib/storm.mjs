// The submission storm and the open scoreboard sockets.
//
// Every seeded team opens one WebSocket on /hub/game/{id} with its session (a player's open page: it
// gets its verdicts and every scoreboard push). Then `clients` concurrent loops POST flags for random
// teams and challenges: `rightShare` right flags, the rest wrong or duplicates (a team re-sending one of
// its earlier answers). Measured:
// - judged/s: verdict frames received per second of storm;
// - verdict latency: POST sent → verdict frame on the team's socket (matched by submission id);
// - solve → push: POST sent for a right flag on a pair not yet solved → arrival, on each socket, of the
//   first scoreboard delta that adds that solve.
import http from "node:http";
import WebSocket from "ws";
import { flagOf, rng } from "./seed.mjs";
import { request } from "./net.mjs";
import { Samples, summary } from "./stats.mjs";

const VERDICT_PREFIX = '{"type":"verdict"';
const BOARD_PREFIX = '{"type":"scoreboard"';

/** Opens one socket per team (in parallel waves); resolves with the sockets once every hello arrived. */
export async function openSockets(base, gameId, teams, { onFrame, wave = 100, timeoutMs = 60_000 }) {
  const wsBase = base.replace(/^http/, "ws");
  const sockets = [];
  const started = performance.now();
  for (let i = 0; i < teams.length; i += wave) {
    await Promise.all(
      teams.slice(i, i + wave).map(
        (team) =>
          new Promise((resolve, reject) => {
            // The client shares the machine's two cores with the server: frames are not checked for UTF-8
            // and only their first bytes are decoded (onFrame), so the measuring costs little.
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
              ws.on("message", (frame) => onFrame(team, frame));
              sockets.push(ws);
              resolve();
            });
          }),
      ),
    );
  }
  return { sockets, openMs: performance.now() - started };
}

export async function runStorm({ base, seeded, clients, seconds, rightShare = 0.2, duplicateShare = 0.3, settleMs = 3_000, socketCount, warmUp = true, onStormStart, rate = 0, maxInFlight = 512, seed = 12345 }) {
  const { gameId, teams, challengeIds } = seeded;
  const nChallenges = challengeIds.length;
  const random = rng(seed);
  const now = () => performance.now();

  // Verdicts by submission id: whichever of (POST answer, verdict frame) comes second completes it.
  const sentAt = new Map(); // submission id → send time (once the POST answered)
  const verdictAt = new Map(); // submission id → arrival time (when the frame came first)
  const verdictLatency = new Samples(1 << 16);
  let verdicts = 0;
  let firstVerdict = Infinity;
  let lastVerdict = 0;
  const statuses = {};
  // Scoreboard versions: arrival times per version (one per socket) and the first frame's text.
  const boardArrivals = new Map(); // version → Samples of arrival times
  const boardText = new Map(); // version → frame text
  let boardBytes = 0;
  let boardFrames = 0;

  function onFrame(team, data) {
    const t = now();
    const head = data.toString("latin1", 0, 120);
    if (head.startsWith(VERDICT_PREFIX)) {
      const msg = JSON.parse(data.toString());
      const id = msg.data.submissionId;
      verdicts++;
      statuses[msg.data.status] = (statuses[msg.data.status] ?? 0) + 1;
      if (t < firstVerdict) firstVerdict = t;
      lastVerdict = t;
      const sent = sentAt.get(id);
      if (sent !== undefined) {
        verdictLatency.push(t - sent);
        sentAt.delete(id);
      } else verdictAt.set(id, t);
    } else if (head.startsWith(BOARD_PREFIX)) {
      boardFrames++;
      boardBytes += data.length;
      const m = /"version":(\d+)/.exec(head);
      if (!m) return;
      const v = Number(m[1]);
      let arrivals = boardArrivals.get(v);
      if (!arrivals) {
        arrivals = new Samples(teams.length);
        boardArrivals.set(v, arrivals);
        boardText.set(v, data.toString());
      }
      arrivals.push(t);
    }
  }

  const opened = await openSockets(base, gameId, teams.slice(0, socketCount ?? teams.length), { onFrame });

  // Team × challenge state for the mix.
  const solved = new Set(seeded.solved);
  const lastAnswer = new Map(); // t * n + c → an answer the team sent
  const newSolveSent = new Map(); // `${teamId}:${challengeId}` → send time of the first right flag
  const agent = new http.Agent({ keepAlive: true, maxSockets: rate ? maxInFlight : clients });
  let submitted = 0;
  let firstRefusal = null;
  let refused = 0;
  const refusedStatuses = {};
  const submitLatency = new Samples(1 << 16);
  let stop = false;

  /** Picks one submission of the mix and sends it; resolves when its POST answered. */
  async function submitOne() {
    const ti = Math.floor(random() * teams.length);
    const ci = Math.floor(random() * nChallenges);
    const key = ti * nChallenges + ci;
    const team = teams[ti];
    const roll = random();
    let flag;
    if (roll < rightShare) flag = flagOf(ci);
    else if (roll < rightShare + duplicateShare && lastAnswer.has(key)) flag = lastAnswer.get(key);
    else flag = `flag{wrong-${Math.floor(random() * 1e9).toString(36)}}`;
    lastAnswer.set(key, flag);
    const isNewSolve = flag === flagOf(ci) && !solved.has(key);
    if (isNewSolve) solved.add(key);
    const t0 = now();
    if (isNewSolve) newSolveSent.set(`${team.teamId}:${challengeIds[ci]}`, t0);
    let res;
    try {
      res = await request(`${base}/api/game/${gameId}/challenges/${challengeIds[ci]}`, {
        method: "POST",
        headers: { cookie: team.cookie },
        body: { flag },
        agent,
      });
    } catch {
      refused++;
      return;
    }
    submitLatency.push(res.totalMs);
    if (res.status !== 200) {
      refused++;
      refusedStatuses[res.status] = (refusedStatuses[res.status] ?? 0) + 1;
      firstRefusal ??= `${res.status} ${res.body.slice(0, 200)} ${base}/api/game/${gameId}/challenges/${challengeIds[ci]}`;
      return;
    }
    submitted++;
    const id = Number(res.body);
    const arrived = verdictAt.get(id);
    if (arrived !== undefined) {
      verdictLatency.push(arrived - t0);
      verdictAt.delete(id);
    } else sentAt.set(id, t0);
  }

  /** Closed loop: each client sends its next submission when the previous one answered. */
  async function loop() {
    while (!stop) await submitOne();
  }

  /**
   * Open loop: `rate` submissions a second, sent on a fixed schedule whatever the answers (the load of
   * players who do not wait for each other); at most `maxInFlight` unanswered, the rest counted as late.
   */
  let late = 0;
  async function paced() {
    const inFlight = new Set();
    const started = now();
    let sent = 0;
    while (!stop) {
      const due = Math.floor(((now() - started) / 1000) * rate);
      for (; sent < due; sent++) {
        if (inFlight.size >= maxInFlight) {
          late++;
          continue;
        }
        const p = submitOne().finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    await Promise.all(inFlight);
  }

  // Warm-up (not timed in the storm): one wrong flag per challenge, so the room has read every
  // challenge's flags and instances (lazily, on first use) before the clock starts.
  let warmUpMs = 0;
  if (warmUp) {
    const t0 = now();
    await Promise.all(
      challengeIds.map((cid) =>
        request(`${base}/api/game/${gameId}/challenges/${cid}`, { method: "POST", headers: { cookie: teams[0].cookie }, body: { flag: "flag{warm-up}" }, agent }),
      ),
    );
    const until = now() + 10_000;
    while (verdicts < challengeIds.length && now() < until && (socketCount ?? teams.length) > 0) await new Promise((r) => setTimeout(r, 10));
    // Then a few new solves, one after another, so the room's board-delta path has run (and been
    // compiled) before the clock starts, as it has in a game that has been running.
    for (let k = 0, sent = 0; sent < 20 && k < teams.length * nChallenges; k++) {
      const key = (k * 7919) % (teams.length * nChallenges);
      if (solved.has(key)) continue;
      solved.add(key);
      sent++;
      const ti = Math.floor(key / nChallenges);
      const ci = key % nChallenges;
      await request(`${base}/api/game/${gameId}/challenges/${challengeIds[ci]}`, { method: "POST", headers: { cookie: teams[ti].cookie }, body: { flag: flagOf(ci) }, agent });
      await new Promise((r) => setTimeout(r, 60));
    }
    await new Promise((r) => setTimeout(r, 300));
    warmUpMs = now() - t0;
    verdicts = 0;
    firstVerdict = Infinity;
    verdictAt.clear();
    for (const k of Object.keys(statuses)) delete statuses[k];
  }

  await onStormStart?.();
  const stormStart = now();
  const loops = rate ? [paced()] : Array.from({ length: clients }, () => loop());
  await new Promise((r) => setTimeout(r, seconds * 1000));
  stop = true;
  await Promise.all(loops);
  const stormEnd = now();
  // Let the last verdicts and board pushes arrive.
  const settleUntil = now() + settleMs;
  while (now() < settleUntil && sentAt.size > 0) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, Math.min(1_000, settleMs)));
  agent.destroy();

  // Solve → push: for every version, the solves first visible in it.
  const pushLatency = new Samples(1 << 16);
  const seenSolves = new Set();
  let pushedSolves = 0;
  const versions = [...boardText.keys()].sort((a, b) => a - b);
  for (const v of versions) {
    const delta = JSON.parse(boardText.get(v)).data;
    if (delta.refetch) continue;
    const arrivals = boardArrivals.get(v).values();
    for (const { team, solve } of delta.solves) {
      const key = `${team}:${solve.id}`;
      const sent = newSolveSent.get(key);
      if (sent === undefined || seenSolves.has(key)) continue;
      seenSolves.add(key);
      pushedSolves++;
      for (const t of arrivals) pushLatency.push(t - sent);
    }
  }
  for (const ws of opened.sockets) ws.terminate();

  const stormSeconds = (stormEnd - stormStart) / 1000;
  const judgedWindow = Math.max(lastVerdict - stormStart, stormEnd - stormStart) / 1000;
  return {
    mode: rate ? `open loop, ${rate}/s offered` : `closed loop, ${clients} clients`,
    offeredPerSecond: rate || null,
    late,
    sockets: opened.sockets.length,
    socketsOpenMs: opened.openMs,
    clients,
    stormSeconds,
    submitted,
    refused,
    refusedStatuses,
    firstRefusal,
    submitRps: submitted / stormSeconds,
    judged: verdicts,
    judgedPerSecond: verdicts / judgedWindow,
    verdictStatuses: statuses,
    verdictsMissing: sentAt.size,
    verdictMs: summary(verdictLatency.values()),
    submitMs: summary(submitLatency.values()),
    newSolvesSent: newSolveSent.size,
    newSolvesPushed: pushedSolves,
    boardVersions: versions.length,
    boardFrames,
    boardMeanBytes: boardFrames ? boardBytes / boardFrames : 0,
    pushMs: summary(pushLatency.values()),
    firstVerdictMs: firstVerdict - stormStart,
    warmUpMs,
  };
}
