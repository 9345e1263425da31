#!/usr/bin/env node
// `npm run bench`: the `npm start` server (scripts/start.mjs on the built app, its own data folder and
// port) against plain workerd serving a constant response (the runtime's ceiling), on loopback only.
// Seeds a game (1,000 teams × 100 challenges × 50,000 solves) straight into D1 before the server starts,
// then measures the steps listed in bench/README.md and prints medians, p99s and ratios. Bounded in time.
//
//   node bench/run.mjs [--smoke] [--json <file>] [--seconds <n>] [--only step,step]
//
// --smoke: tiny sizes and 1-second loads; exits non-zero unless every step produced a number (no figure
// is judged). Used by `npm test`.
import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from "node:fs";
import { cpus, freemem, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { startCeiling } from "./lib/ceiling.mjs";
import { dockerReady, IMAGE, measureContainerStarts, startAgent } from "./lib/containers.mjs";
import { hammer } from "./lib/load.mjs";
import { freePort, request } from "./lib/net.mjs";
import { BUILD_DIR, seedGame } from "./lib/seed.mjs";
import { startServer } from "./lib/server.mjs";
import { quantile, round, summary } from "./lib/stats.mjs";
import { runStorm } from "./lib/storm.mjs";

const args = process.argv.slice(2);
const SMOKE = args.includes("--smoke");
const argValue = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const JSON_OUT = argValue("--json");
/** --only config,scoreboard,…: run just these steps (seeding and the servers always run). */
const ONLY = argValue("--only")?.split(",");
const LOAD_SECONDS = Number(argValue("--seconds") ?? (SMOKE ? 1 : 6));
const SIZES = SMOKE
  ? { teams: 8, challenges: 4, solves: 10, stormClients: 4, stormSeconds: 2, openRates: [20, 10], ssrRuns: 3, containerRuns: 1, configRounds: 1 }
  : { teams: 1000, challenges: 100, solves: 50_000, stormClients: 64, stormSeconds: 10, openRates: [1000, 500], ssrRuns: 40, containerRuns: 5, configRounds: 2 };
const TIME_LIMIT_MS = SMOKE ? 150_000 : 300_000;

const results = {
  date: new Date().toISOString(),
  machine: { cores: cpus().length, memoryGiB: round(totalmem() / 2 ** 30), freeGiB: round(freemem() / 2 ** 30), loadAverage: loadavg().map((x) => round(x, 2)) },
  mode: SMOKE ? "smoke" : "full",
  sizes: SIZES,
  steps: {},
};
const cleanups = [];
async function cleanup() {
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()();
    } catch (error) {
      console.error(`bench: cleanup: ${error.message}`);
    }
  }
}
const guard = setTimeout(async () => {
  console.error(`bench: time limit of ${TIME_LIMIT_MS / 1000} s reached; stopping`);
  await cleanup();
  process.exit(2);
}, TIME_LIMIT_MS);
guard.unref();
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    await cleanup();
    process.exit(130);
  });
}

const log = (msg) => console.log(`bench: ${msg}`);
const failures = [];
async function step(name, fn) {
  if (ONLY && name !== "seed" && !ONLY.includes(name)) return undefined;
  const t0 = performance.now();
  try {
    const value = await fn();
    results.steps[name] = value;
    log(`${name} done in ${round((performance.now() - t0) / 1000)} s`);
    return value;
  } catch (error) {
    failures.push(`${name}: ${error.message}`);
    results.steps[name] = { error: error.message };
    log(`${name} FAILED: ${error.message}`);
    return undefined;
  }
}

/** First-load JS of a page: the module scripts and modulepreloads its HTML names, gzip sizes from build/client. */
function firstLoadJs(html) {
  const urls = new Set();
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/<link[^>]+href="([^"]+)"[^>]*rel="modulepreload"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/import\(?\s*["'](\/[^"']+\.js)["']/g)) urls.add(m[1]);
  const files = [];
  // Static imports of the named files load with them, named or not: follow them too (a Set iterates
  // over what is added while it runs). Dynamic import("…") calls are left out: they run only when asked.
  const staticImport = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w$*{}\s,]+from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
  for (const url of urls) {
    const pathname = new URL(url, "http://x").pathname;
    const path = join(BUILD_DIR, "client", decodeURIComponent(pathname));
    if (!existsSync(path)) throw new Error(`${url} named by the page is not in build/client`);
    const raw = readFileSync(path);
    files.push({ url, bytes: raw.length, gzip: gzipSync(raw, { level: 9 }).length });
    for (const m of raw.toString("utf8").matchAll(staticImport)) {
      const imported = new URL(m[1], new URL(pathname, "http://x")).pathname;
      if (![...urls].some((u) => new URL(u, "http://x").pathname === imported)) urls.add(imported);
    }
  }
  if (files.length === 0) throw new Error("the page names no JavaScript");
  return {
    files: files.length,
    rawKB: round(files.reduce((s, f) => s + f.bytes, 0) / 1024),
    gzipKB: round(files.reduce((s, f) => s + f.gzip, 0) / 1024),
    largest: files.sort((a, b) => b.gzip - a.gzip).slice(0, 5).map((f) => `${f.url} ${round(f.gzip / 1024)} KB`),
  };
}

async function timedBoardRead(base, gameId) {
  // The isolate first (module load), then the room: the scoreboard read pays the room's rebuild.
  await request(`${base}/api/config`);
  const res = await request(`${base}/api/game/${gameId}/scoreboard?count=50&skip=0`, { timeoutMs: 60_000 });
  if (res.status !== 200) throw new Error(`scoreboard answered ${res.status}: ${res.body.slice(0, 200)}`);
  return res.totalMs;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "flagstaff-bench-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const docker = await dockerReady();
  log(`machine: ${results.machine.cores} cores, ${results.machine.memoryGiB} GiB, load ${results.machine.loadAverage.join(" ")}; data ${dataDir}`);

  const seeded = await step("seed", async () => {
    const s = await seedGame(dataDir, { teams: SIZES.teams, challenges: SIZES.challenges, solves: SIZES.solves, containerImage: docker.ok ? IMAGE : null });
    results.seeded = s;
    return { ms: round(s.seedMs), teams: s.teams.length, challenges: s.challengeIds.length, solves: s.solved.size };
  });
  if (!seeded) throw new Error(failures.join("; "));
  const s = results.seeded;
  delete results.seeded;

  let agent = null;
  if (docker.ok) {
    agent = await startAgent(await freePort()).catch((error) => {
      failures.push(`container agent: ${error.message}`);
      return null;
    });
    if (agent) cleanups.push(() => agent.stop());
  }
  const serverEnv = agent ? { FLAGSTAFF_AGENTS: agent.url, FLAGSTAFF_AGENT_SECRET: agent.secret } : {};

  const ceiling = await startCeiling(await freePort(), s.compatibilityDate);
  cleanups.push(() => ceiling.stop());
  const port = await freePort();
  let server = startServer({ port, dataDir, env: serverEnv });
  cleanups.push(() => server.stop());
  const { url: base, startMs } = await server.ready;
  results.steps.serverStart = { ms: round(startMs) };
  const gameId = s.gameId;
  const player = s.teams[0];

  const rebuilds = [];
  await step("coldRebuild1", async () => {
    rebuilds.push(await timedBoardRead(base, gameId));
    return { ms: round(rebuilds[0]) };
  });

  await step("config", async () => {
    const c = { connections: 50, seconds: LOAD_SECONDS };
    const ceilingRuns = [];
    const configRuns = [];
    for (let i = 0; i < SIZES.configRounds; i++) {
      ceilingRuns.push(await hammer(ceiling.url, c));
      configRuns.push(await hammer(`${base}/api/config`, c));
    }
    const bad = configRuns.find((r) => r.non2xx > 0 || r.errors > 0);
    if (bad) throw new Error(`GET /api/config answered ${JSON.stringify(bad.statuses)} errors ${bad.errors}`);
    const ceilingRps = quantile(ceilingRuns.map((r) => r.rps), 0.5);
    const configRps = quantile(configRuns.map((r) => r.rps), 0.5);
    return {
      ceilingRps: round(ceilingRps, 0),
      configRps: round(configRps, 0),
      ratio: round(configRps / ceilingRps, 3),
      runs: { ceiling: ceilingRuns.map((r) => round(r.rps, 0)), config: configRuns.map((r) => round(r.rps, 0)) },
      configLatencyMs: { p50: configRuns.at(-1).p50Ms, p99: configRuns.at(-1).p99Ms },
      ceilingLatencyMs: { p50: ceilingRuns.at(-1).p50Ms, p99: ceilingRuns.at(-1).p99Ms },
    };
  });

  await step("scoreboard", async () => {
    const full = await request(`${base}/api/game/${gameId}/scoreboard`);
    const page = await request(`${base}/api/game/${gameId}/scoreboard?count=50&skip=0`);
    if (full.status !== 200 || page.status !== 200) throw new Error(`scoreboard answered ${full.status}/${page.status}`);
    const c = { connections: 50, seconds: LOAD_SECONDS };
    const notModified = await hammer(`${base}/api/game/${gameId}/scoreboard`, { ...c, headers: { "if-none-match": full.headers.etag } });
    const pageNotModified = await hammer(`${base}/api/game/${gameId}/scoreboard?count=50&skip=0`, { ...c, headers: { "if-none-match": page.headers.etag } });
    // Browsers ask for gzip (the room compresses each board version once); a client that does not gets it as is.
    const gzip = { "accept-encoding": "gzip, deflate, br" };
    const firstPage = await hammer(`${base}/api/game/${gameId}/scoreboard?count=50&skip=0`, { ...c, headers: gzip });
    const firstPagePlain = await hammer(`${base}/api/game/${gameId}/scoreboard?count=50&skip=0`, c);
    const whole = await hammer(`${base}/api/game/${gameId}/scoreboard`, { connections: 8, seconds: LOAD_SECONDS, headers: gzip });
    const zippedPage = await request(`${base}/api/game/${gameId}/scoreboard?count=50&skip=0`, { headers: gzip });
    const zippedFull = await request(`${base}/api/game/${gameId}/scoreboard`, { headers: gzip });
    if (zippedPage.headers["content-encoding"] !== "gzip" || zippedFull.headers["content-encoding"] !== "gzip") throw new Error("the scoreboard was not sent gzipped to a client asking for it");
    const check = (r, status, what) => {
      if (r.errors > 0 || Object.keys(r.statuses).some((k) => Number(k) !== status)) throw new Error(`${what} answered ${JSON.stringify(r.statuses)} errors ${r.errors}`);
    };
    check(notModified, 304, "scoreboard 304");
    check(pageNotModified, 304, "first page 304");
    check(firstPage, 200, "first page");
    check(firstPagePlain, 200, "first page (not gzipped)");
    check(whole, 200, "full board");
    const ceilingRps = results.steps.config?.ceilingRps;
    const row = (r) => ({ rps: round(r.rps, 0), p50Ms: r.p50Ms, p99Ms: r.p99Ms, ...(ceilingRps ? { ratio: round(r.rps / ceilingRps, 3) } : {}) });
    return {
      fullBytes: full.body.length,
      firstPageBytes: page.body.length,
      fullGzipBytes: zippedFull.bodyBytes,
      firstPageGzipBytes: zippedPage.bodyBytes,
      notModified304: row(notModified),
      firstPageNotModified304: row(pageNotModified),
      firstPage200: row(firstPage),
      firstPage200NotGzipped: row(firstPagePlain),
      full200: row(whole),
    };
  });

  await step("ssr", async () => {
    const url = `${base}/games/${gameId}/challenges`;
    const headers = { cookie: player.cookie, accept: "text/html" };
    for (let i = 0; i < 3; i++) await request(url, { headers });
    const ttfb = [];
    for (let i = 0; i < SIZES.ssrRuns; i++) {
      const res = await request(url, { headers });
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      ttfb.push(res.ttfbMs);
    }
    const sum = summary(ttfb);
    return { runs: sum.n, ttfbP50Ms: round(sum.p50), ttfbP99Ms: round(sum.p99) };
  });

  await step("firstLoadJs", async () => {
    const res = await request(`${base}/`, { headers: { accept: "text/html" } });
    if (res.status !== 200) throw new Error(`GET / answered ${res.status}`);
    return firstLoadJs(res.body);
  });

  const stormFigures = (r, needPush = false) => {
    const brief = JSON.stringify({ submitted: r.submitted, refused: r.refusedStatuses, firstRefusal: r.firstRefusal, judged: r.judged, newSolvesSent: r.newSolvesSent, boardVersions: r.boardVersions, boardFrames: r.boardFrames });
    if (r.judged === 0) throw new Error(`no verdict arrived: ${brief}`);
    if (needPush && r.newSolvesPushed === 0) throw new Error(`no solve was pushed to the scoreboard sockets: ${brief}`);
    return {
      ...r,
      stormSeconds: round(r.stormSeconds, 2),
      socketsOpenMs: round(r.socketsOpenMs, 0),
      submitRps: round(r.submitRps, 0),
      judgedPerSecond: round(r.judgedPerSecond, 0),
      verdictMs: { n: r.verdictMs.n, p50: round(r.verdictMs.p50), p99: round(r.verdictMs.p99) },
      submitMs: { n: r.submitMs.n, p50: round(r.submitMs.p50), p99: round(r.submitMs.p99) },
      pushMs: { n: r.pushMs.n, p50: round(r.pushMs.p50), p99: round(r.pushMs.p99) },
      pushSpreadMs: { n: r.pushSpreadMs.n, p50: round(r.pushSpreadMs.p50), p99: round(r.pushSpreadMs.p99) },
      pushFirstMs: { n: r.pushFirstMs.n, p50: round(r.pushFirstMs.p50), p99: round(r.pushFirstMs.p99) },
      boardMeanBytes: round(r.boardMeanBytes, 0),
      firstVerdictMs: round(r.firstVerdictMs),
      warmUpMs: round(r.warmUpMs, 0),
    };
  };

  await step("storm", async () => stormFigures(await runStorm({ base, seeded: s, clients: SIZES.stormClients, seconds: SIZES.stormSeconds }), true));

  // Open loop: submissions sent on a fixed schedule (players do not wait for each other), at the target
  // rate and at half of it, so latency is measured at a known load rather than at whatever rate 64
  // waiting clients reach (their latency is 64 ÷ throughput by construction).
  for (const [name, rate, seed] of [
    ["stormAt1000", SIZES.openRates[0], 777],
    ["stormAt500", SIZES.openRates[1], 4242],
  ]) {
    await step(name, async () => stormFigures(await runStorm({ base, seeded: s, seconds: SIZES.stormSeconds, rate, seed, warmUp: false })));
  }

  await step("coldRebuild2", async () => {
    await server.stop();
    server = startServer({ port, dataDir, env: serverEnv });
    await server.ready;
    rebuilds.push(await timedBoardRead(base, gameId));
    return { ms: round(rebuilds.at(-1)) };
  });
  if (rebuilds.length > 0) results.steps.coldRebuild = { samples: rebuilds.map((x) => round(x)), p50Ms: round(quantile(rebuilds, 0.5)), maxMs: round(Math.max(...rebuilds)) };

  if (ONLY && !ONLY.includes("container")) {
    // Not asked for.
  } else if (agent && s.containerChallengeId) {
    await step("container", async () => {
      const times = await measureContainerStarts({ base, gameId, challengeId: s.containerChallengeId, teams: s.teams, runs: SIZES.containerRuns });
      const sum = summary(times);
      return { via: "POST /api/game/{id}/container/{cid} → GET http://{entry}/env 200", runs: sum.n, p50Ms: round(sum.p50), p99Ms: round(sum.p99), samples: times.map((t) => round(t)) };
    });
  } else {
    results.steps.container = { skipped: docker.ok ? "the container agent did not start" : docker.why };
  }

  await cleanup();
}

function printSummary() {
  const st = results.steps;
  const lines = [];
  const f = (x, unit = "") => (x === undefined || x === null || Number.isNaN(x) ? "—" : `${x}${unit}`);
  lines.push(`machine: ${results.machine.cores} cores, ${results.machine.memoryGiB} GiB; load at start ${results.machine.loadAverage.join(" ")}; mode ${results.mode}`);
  if (st.config?.ratio !== undefined)
    lines.push(`GET /api/config: ${f(st.config.configRps)} req/s vs plain workerd ${f(st.config.ceilingRps)} req/s = ${f(round(st.config.ratio * 100))} % (target ≥ 40 %)`);
  if (st.scoreboard?.notModified304)
    lines.push(
      `scoreboard: 304 ${f(st.scoreboard.notModified304.rps)} req/s (${f(round(st.scoreboard.notModified304.ratio * 100))} %), first page 200 ${f(st.scoreboard.firstPage200.rps)} req/s gzipped (${f(round(st.scoreboard.firstPageGzipBytes / 1e3))} of ${f(round(st.scoreboard.firstPageBytes / 1e3))} kB; not gzipped ${f(st.scoreboard.firstPage200NotGzipped.rps)} req/s), first page 304 ${f(st.scoreboard.firstPageNotModified304.rps)} req/s, full ${f(round(st.scoreboard.fullBytes / 1e6, 2))} MB (${f(round(st.scoreboard.fullGzipBytes / 1e6, 2))} MB gzipped) 200 ${f(st.scoreboard.full200.rps)} req/s (target ≥ 2,500)`,
    );
  if (st.storm?.judgedPerSecond !== undefined)
    lines.push(
      `storm: ${f(st.storm.judgedPerSecond)} judged/s (target ≥ 1,000), verdict p50 ${f(st.storm.verdictMs.p50)} / p99 ${f(st.storm.verdictMs.p99)} ms (≤ 50), solve → push to ${st.storm.sockets} sockets p50 ${f(st.storm.pushMs.p50)} / p99 ${f(st.storm.pushMs.p99)} ms (≤ 100; solve → first socket p50 ${f(st.storm.pushFirstMs.p50)} / p99 ${f(st.storm.pushFirstMs.p99)} ms, first → last socket p50 ${f(st.storm.pushSpreadMs.p50)} / p99 ${f(st.storm.pushSpreadMs.p99)} ms)`,
    );
  for (const key of ["stormAt1000", "stormAt500"]) {
    const o = st[key];
    if (o?.judgedPerSecond !== undefined)
      lines.push(
        `storm, ${o.mode}: ${f(o.judgedPerSecond)} judged/s (${f(o.late)} not sent: ${o.late > 0 ? "server behind" : "kept up"}), verdict p50 ${f(o.verdictMs.p50)} / p99 ${f(o.verdictMs.p99)} ms, push p50 ${f(o.pushMs.p50)} / p99 ${f(o.pushMs.p99)} ms`,
      );
  }
  if (st.coldRebuild?.p50Ms !== undefined) lines.push(`room cold rebuild (first scoreboard read): ${st.coldRebuild.samples.join(", ")} ms (target ≤ 300)`);
  if (st.ssr?.ttfbP50Ms !== undefined) lines.push(`SSR /games/{id}/challenges TTFB p50 ${f(st.ssr.ttfbP50Ms)} / p99 ${f(st.ssr.ttfbP99Ms)} ms (target p50 ≤ 30)`);
  if (st.firstLoadJs?.gzipKB !== undefined) lines.push(`first-load JS of /: ${f(st.firstLoadJs.gzipKB)} KB gzip in ${st.firstLoadJs.files} files (target ≤ 150)`);
  if (st.container?.p50Ms !== undefined) lines.push(`container start → entry ready p50 ${f(st.container.p50Ms)} / p99 ${f(st.container.p99Ms)} ms over ${st.container.runs} (target p50 ≤ 1,500)`);
  else if (st.container?.skipped) lines.push(`container start: not measured (${st.container.skipped})`);
  console.log(`\n== bench summary ==\n${lines.join("\n")}`);
}

/** Smoke: every step produced a number (figures are not judged). */
function smokeCheck() {
  const st = results.steps;
  const numbers = {
    "config ratio": st.config?.ratio,
    "scoreboard 304 req/s": st.scoreboard?.notModified304?.rps,
    "first page req/s": st.scoreboard?.firstPage200?.rps,
    "judged/s": st.storm?.judgedPerSecond,
    "verdict p99": st.storm?.verdictMs?.p99,
    "push p99": st.storm?.pushMs?.p99,
    "open-loop judged/s": st.stormAt1000?.judgedPerSecond,
    "open-loop verdict p99": st.stormAt500?.verdictMs?.p99,
    "cold rebuild": st.coldRebuild?.p50Ms,
    "SSR TTFB": st.ssr?.ttfbP50Ms,
    "first-load JS": st.firstLoadJs?.gzipKB,
  };
  if (st.container && !st.container.skipped) numbers["container start"] = st.container.p50Ms;
  const ok = (v) => typeof v === "number" && Number.isFinite(v);
  const entries = Object.entries(numbers);
  results.smoke = { passed: entries.filter(([, v]) => ok(v)).map(([k]) => k), failed: entries.filter(([, v]) => !ok(v)).map(([k]) => k) };
  return results.smoke.failed;
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  failures.push(error.message);
  await cleanup();
}
clearTimeout(guard);
printSummary();
if (failures.length > 0) {
  console.error(`bench: ${failures.length} step(s) failed:\n  ${failures.join("\n  ")}`);
  exitCode = 1;
}
if (SMOKE) {
  const missing = smokeCheck();
  if (missing.length > 0) {
    console.error(`bench smoke: no number for ${missing.join(", ")}`);
    exitCode = 1;
  } else console.log("bench smoke: every step produced a number");
}
results.failures = failures;
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(results, null, 2)}\n`);
process.exit(exitCode);
