// The submission storm and the open scoreboard sockets.
//
// Every seeded team opens one WebSocket on /hub/game/{id} with its session (a player's open page: it
// gets its verdicts and every scoreboard push). Then `clients` concurrent loops POST flags for random
// teams and challenges: `rightShare` right flags, the rest wrong or duplicates (a team re-sending one of
// its earlier answers). Measured:
// - judged/s: verdict frames received per second of storm;
// - verdict latency: POST sent → verdict frame on the team's socket (matched by submission id);
//   the sockets live in worker threads (bench/lib/socket-receiver.mjs), each arrival stamped there;
// - solve → push: POST sent for a right flag on a pair not yet solved → arrival, on each socket, of the
//   first scoreboard delta that adds that solve.
import { Worker } from "node:worker_threads";
import { flagOf, rng } from "./seed.mjs";
import { createPostClient } from "./post-client.mjs";
import { Samples, summary } from "./stats.mjs";

/** The same clock in every thread: absolute milliseconds with sub-millisecond resolution. */
const clock = () => performance.timeOrigin + performance.now();

/**
 * Opens one socket per team, spread over `threads` worker threads (bench/lib/socket-receiver.mjs), in
 * parallel waves; resolves once every hello arrived. Verdicts reach `onVerdicts` as they come (stamped
 * where they arrived); `finish()` closes the sockets and resolves with the board frames' arrivals.
 */
export async function openSockets(base, gameId, teams, { onVerdicts, threads = 4, wave = 100, timeoutMs = 60_000 }) {
  const wsBase = base.replace(/^http/, "ws");
  const started = clock();
  const count = Math.max(1, Math.min(threads, teams.length));
  const workers = [];
  const opening = [];
  for (let k = 0; k < count; k++) {
    const share = teams.filter((_, i) => i % count === k).map((t) => ({ index: t.index, cookie: t.cookie }));
    const worker = new Worker(new URL("./socket-receiver.mjs", import.meta.url), { workerData: { wsBase, gameId, teams: share, wave: Math.ceil(wave / count), timeoutMs } });
    workers.push(worker);
    opening.push(
      new Promise((resolve, reject) => {
        worker.on("message", (msg) => {
          if (msg.type === "verdicts") onVerdicts(msg.list);
          else if (msg.type === "open") resolve(msg.count);
          else if (msg.type === "error") reject(new Error(msg.message));
        });
        worker.once("error", reject);
      }),
    );
  }
  let sockets;
  try {
    sockets = (await Promise.all(opening)).reduce((a, b) => a + b, 0);
  } catch (error) {
    await Promise.all(workers.map((w) => w.terminate()));
    throw error;
  }
  const finish = async () => {
    const parts = await Promise.all(
      workers.map(
        (worker) =>
          new Promise((resolve) => {
            worker.on("message", (msg) => {
              if (msg.type === "boards") resolve(msg);
            });
            worker.postMessage({ type: "finish" });
          }),
      ),
    );
    await Promise.all(workers.map((w) => w.terminate()));
    const versions = new Map(); // version → {text, arrivals[]}
    for (const part of parts) {
      for (const [version, text, arrivals] of part.versions) {
        const entry = versions.get(version);
        if (entry) entry.arrivals.push(...arrivals);
        else versions.set(version, { text, arrivals: [...arrivals] });
      }
    }
    return { versions, frames: parts.reduce((n, p) => n + p.frames, 0), bytes: parts.reduce((n, p) => n + p.bytes, 0) };
  };
  return { sockets, openMs: clock() - started, finish };
}

export async function runStorm({ base, seeded, clients, seconds, rightShare = 0.2, duplicateShare = 0.3, settleMs = 3_000, socketCount, warmUp = true, onStormStart, onStormEnd, rate = 0, maxInFlight = 512, seed = 12345 }) {
  const { gameId, teams, challengeIds } = seeded;
  const nChallenges = challengeIds.length;
  const random = rng(seed);
  const now = clock;

  // Verdicts by submission id: whichever of (POST answer, verdict frame) comes second completes it.
  const sentAt = new Map(); // submission id → send time (once the POST answered)
  const verdictAt = new Map(); // submission id → arrival time (when the frame came first)
  const verdictLatency = new Samples(1 << 16);
  let verdicts = 0;
  let firstVerdict = Infinity;
  let lastVerdict = 0;
  const statuses = {};

  function onVerdicts(list) {
    for (const [id, status, t] of list) {
      verdicts++;
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (t < firstVerdict) firstVerdict = t;
      lastVerdict = Math.max(lastVerdict, t);
      const sent = sentAt.get(id);
      if (sent !== undefined) {
        verdictLatency.push(t - sent);
        sentAt.delete(id);
      } else verdictAt.set(id, t);
    }
  }

  const opened = await openSockets(base, gameId, teams.slice(0, socketCount ?? teams.length), { onVerdicts });

  // Team × challenge state for the mix.
  const solved = new Set(seeded.solved);
  const lastAnswer = new Map(); // t * n + c → an answer the team sent
  const newSolveSent = new Map(); // `${teamId}:${challengeId}` → send time of the first right flag
  const client = createPostClient(base, { maxSockets: rate ? maxInFlight : clients });
  const submitPath = (cid) => `/api/game/${gameId}/challenges/${cid}`;
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
      res = await client.post(submitPath(challengeIds[ci]), { cookie: team.cookie }, JSON.stringify({ flag }));
    } catch {
      refused++;
      return;
    }
    submitLatency.push(res.totalMs);
    if (res.status !== 200) {
      refused++;
      refusedStatuses[res.status] = (refusedStatuses[res.status] ?? 0) + 1;
      firstRefusal ??= `${res.status} ${res.body.slice(0, 200)} ${base}${submitPath(challengeIds[ci])}`;
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
        client.post(submitPath(cid), { cookie: teams[0].cookie }, JSON.stringify({ flag: "flag{warm-up}" })),
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
      await client.post(submitPath(challengeIds[ci]), { cookie: teams[ti].cookie }, JSON.stringify({ flag: flagOf(ci) }));
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
  client.destroy();
  onStormEnd?.();
  const boards = await opened.finish();

  // Solve → push: for every version, the solves first visible in it. The spread: from the first of the
  // sockets to get a version to the last (the fan-out's length, as the clients saw it). Solve → first
  // socket: the part before the fan-out (judging, the board's batch, the delta reaching the relay).
  const pushLatency = new Samples(1 << 16);
  const pushSpread = new Samples(1 << 12);
  const pushFirst = new Samples(1 << 14);
  const seenSolves = new Set();
  let pushedSolves = 0;
  const versions = [...boards.versions.keys()].sort((a, b) => a - b);
  for (const v of versions) {
    const { text, arrivals } = boards.versions.get(v);
    const delta = JSON.parse(text).data;
    if (delta.refetch) continue;
    const first = Math.min(...arrivals);
    if (arrivals.length > 0) pushSpread.push(Math.max(...arrivals) - first);
    for (const { team, solve } of delta.solves) {
      const key = `${team}:${solve.id}`;
      const sent = newSolveSent.get(key);
      if (sent === undefined || seenSolves.has(key)) continue;
      seenSolves.add(key);
      pushedSolves++;
      for (const t of arrivals) pushLatency.push(t - sent);
      if (arrivals.length > 0) pushFirst.push(first - sent);
    }
  }

  const stormSeconds = (stormEnd - stormStart) / 1000;
  const judgedWindow = Math.max(lastVerdict - stormStart, stormEnd - stormStart) / 1000;
  return {
    mode: rate ? `open loop, ${rate}/s offered` : `closed loop, ${clients} clients`,
    offeredPerSecond: rate || null,
    late,
    sockets: opened.sockets,
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
    boardFrames: boards.frames,
    boardMeanBytes: boards.frames ? boards.bytes / boards.frames : 0,
    pushMs: summary(pushLatency.values()),
    pushSpreadMs: summary(pushSpread.values()),
    pushFirstMs: summary(pushFirst.values()),
    firstVerdictMs: firstVerdict - stormStart,
    warmUpMs,
  };
}
