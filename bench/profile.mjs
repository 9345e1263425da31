#!/usr/bin/env node
// `node bench/profile.mjs`: a CPU profile of the `npm start` server's workers during the submission storm
// of `npm run bench` (same seed, same storm), taken through the workers' V8 inspector on loopback.
// Prints the functions with the most self time and writes the .cpuprofile files (open them in Chrome
// DevTools). Used to find where the storm's time goes; not part of `npm test`.
//
//   node bench/profile.mjs [--seconds <n>] [--sockets <n>] [--right <share>] [--out <dir>] [--plain] [--rate <n>]
//
// --plain runs the same storm without the profiler (its overhead is large) and prints only the figures.
// The storm's window is printed on the monotonic clock, the clock of `perf record -k CLOCK_MONOTONIC`, so a
// system-wide recording can be cut to it (`perf report --time <start>,<end>`).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { freePort } from "./lib/net.mjs";
import { seedGame } from "./lib/seed.mjs";
import { startServer } from "./lib/server.mjs";
import { round } from "./lib/stats.mjs";
import { runStorm } from "./lib/storm.mjs";

const args = process.argv.slice(2);
const argValue = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const SECONDS = Number(argValue("--seconds", 8));
const SOCKETS = Number(argValue("--sockets", 1000));
const RIGHT = Number(argValue("--right", 0.2));
/** Open-loop storm at this many submissions a second (0: the closed loop of 64 clients). */
const RATE = Number(argValue("--rate", 0));
const OUT = argValue("--out", tmpdir());
const TOP = 40;
const PLAIN = args.includes("--plain");
// The profiles' folder is made when it does not exist yet.
if (!PLAIN) mkdirSync(OUT, { recursive: true });

/** One inspector session (Chrome DevTools protocol over a WebSocket). */
async function connect(url) {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let next = 1;
  const pending = new Map();
  ws.on("message", (data) => {
    const msg = JSON.parse(data.toString());
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(msg.error.message));
      else resolve(msg.result);
    }
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => ws.close() };
}

/** CPU seconds (user + system) used so far by a process and its descendants still running (Linux /proc). */
function serverCpuSeconds(rootPid) {
  const tick = 100;
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      children.set(Number(entry), { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / tick });
    } catch {
      // Exited meanwhile.
    }
  }
  let total = 0;
  const walk = (pid) => {
    total += children.get(pid)?.cpu ?? 0;
    for (const [child, info] of children) if (info.ppid === pid) walk(child);
  };
  walk(rootPid);
  return total;
}

/** CPU seconds per thread (name:tid) of every process under rootPid. */
function threadCpuSeconds(rootPid) {
  const out = new Map();
  const pids = [rootPid];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === rootPid || pids.includes(Number(fields[1]))) pids.push(Number(entry));
    } catch {
      // Exited meanwhile.
    }
  }
  for (const pid of pids) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        out.set(`${pid}/${name}:${tid}`, (Number(fields[11]) + Number(fields[12])) / 100);
      } catch {
        // Exited meanwhile.
      }
    }
  }
  return out;
}

/** Self time per function (name, file, line) of a V8 CPU profile, largest first. */
function selfTimes(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  const total = profile.samples.length;
  const byFunction = new Map();
  for (const [id, count] of counts) {
    const f = byId.get(id).callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").slice(-1)[0]}:${f.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + count);
  }
  return { total, rows: [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP) };
}

const dataDir = mkdtempSync(join(tmpdir(), "flagstaff-profile-"));
const inspectorPort = await freePort();
const seeded = await seedGame(dataDir, { teams: 1000, challenges: 100, solves: 50_000, containerImage: null });
const server = startServer({ port: await freePort(), dataDir, env: { FLAGSTAFF_INSPECTOR_PORT: String(inspectorPort) } });
// Interrupted (Ctrl-C, a timeout): the server and its runtime go too.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.kill();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(130);
  });
}
try {
  const { url: base } = await server.ready;
  await fetch(`${base}/api/game/${seeded.gameId}/scoreboard?count=1`);
  const targets = PLAIN ? [] : await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json();
  const sessions = [];
  for (const target of targets) {
    const session = await connect(target.webSocketDebuggerUrl);
    await session.send("Profiler.enable");
    await session.send("Profiler.setSamplingInterval", { interval: 250 });
    sessions.push({ target, session });
  }
  // Profiles cover the storm itself, not the opening of the sockets or the warm-up.
  let cpuStart = null;
  /** Seconds on CLOCK_MONOTONIC (Node's hrtime on Linux). */
  const monotonic = () => Number(process.hrtime.bigint()) / 1e9;
  let stormWindow = null;
  const onStormStart = async () => {
    stormWindow = { start: monotonic(), end: null };
    cpuStart = { clientThreads: threadCpuSeconds(process.pid), server: serverCpuSeconds(server.pid), threads: threadCpuSeconds(server.pid), client: process.cpuUsage(), at: performance.now() };
    await Promise.all(sessions.map(({ session }) => session.send("Profiler.start")));
  };
  // This process's threads (the submissions, the socket readers) before the readers close.
  let clientThreadsEnd = null;
  const onStormEnd = () => {
    stormWindow.end = monotonic();
    clientThreadsEnd = threadCpuSeconds(process.pid);
  };
  const storm = await runStorm({ base, seeded, clients: 64, seconds: SECONDS, rightShare: RIGHT, socketCount: SOCKETS, onStormStart, onStormEnd, rate: RATE });
  console.log(
    `storm (${storm.mode}, late ${storm.late}): ${round(storm.judgedPerSecond, 0)} judged/s, ${round(storm.submitRps, 0)} submitted/s, submit p50 ${round(storm.submitMs.p50)} ms, verdict p50 ${round(storm.verdictMs.p50)} / p99 ${round(storm.verdictMs.p99)} ms, push p50 ${round(storm.pushMs.p50)} / p99 ${round(storm.pushMs.p99)} ms (solve → first socket p50 ${round(storm.pushFirstMs.p50)} / p99 ${round(storm.pushFirstMs.p99)} ms, first → last socket p50 ${round(storm.pushSpreadMs.p50)} / p99 ${round(storm.pushSpreadMs.p99)} ms), frame ${round(storm.boardMeanBytes, 0)} B, versions ${storm.boardVersions}`,
  );
  const wall = (performance.now() - cpuStart.at) / 1000;
  const client = process.cpuUsage(cpuStart.client);
  console.log(
    `cpu from the storm's start to its last verdict (${round(wall, 1)} s, 2 cores = ${2 * round(wall, 1)} core-s): server ${round(serverCpuSeconds(server.pid) - cpuStart.server, 1)} core-s, this client ${round((client.user + client.system) / 1e6, 1)} core-s`,
  );
  const threads = [...threadCpuSeconds(server.pid)].map(([k, v]) => [k, v - (cpuStart.threads.get(k) ?? 0)]).filter(([, v]) => v >= 0.1);
  const clientThreads = [...clientThreadsEnd].filter(([k]) => k.startsWith(`${process.pid}/`)).map(([k, v]) => [k, v - (cpuStart.clientThreads.get(k) ?? 0)]);
  console.log(`this client's threads: ${clientThreads.filter(([, v]) => v >= 0.1).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${round(v, 1)}`).join(", ")}`);
  console.log(`storm window on CLOCK_MONOTONIC (perf record -k CLOCK_MONOTONIC; perf report --time): ${stormWindow.start.toFixed(3)},${stormWindow.end.toFixed(3)}`);
  console.log(`server threads: ${threads.sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${round(v, 1)}`).join(", ")}`);
  if (process.env.FLAGSTAFF_PROFILE_LOG) console.log(server.output().split("\n").filter((l) => l.includes(process.env.FLAGSTAFF_PROFILE_LOG)).join("\n"));
  for (const { target, session } of sessions) {
    const { profile } = await session.send("Profiler.stop");
    session.close();
    const file = join(OUT, `flagstaff-${target.title || target.id}.cpuprofile`.replace(/[^\w.-]+/g, "_"));
    writeFileSync(file, JSON.stringify(profile));
    const { total, rows } = selfTimes(profile);
    const ms = (profile.endTime - profile.startTime) / 1000;
    const idle = rows.find(([k]) => k.startsWith("(idle)"))?.[1] ?? 0;
    console.log(`\n== ${target.title || target.id}: ${total} samples over ${round(ms, 0)} ms, busy ${round((100 * (total - idle)) / total, 1)} % → ${file}`);
    for (const [key, count] of rows) console.log(`${String(round((100 * count) / total, 1)).padStart(6)} %  ${key}`);
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
