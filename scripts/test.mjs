#!/usr/bin/env node
// `npm test`: system parts, build, then unit (vitest, node), integration (vitest in workerd) and
// end-to-end (Playwright + Chromium) suites. Each suite writes a JSON report under test-results/reports;
// the totals end the output as one line, `N passed, M failed`, and any failure exits non-zero.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const REPORTS = join(ROOT, "test-results", "reports");
const BIN = join(ROOT, "node_modules", ".bin");

const env = {
  ...process.env,
  // The project's Node 22 (npm package `node`) first, whoever started us.
  PATH: [BIN, dirname(process.execPath), process.env.PATH ?? ""].join(delimiter),
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? "1" : "0"),
};

const onPath = (program) => spawnSync("sh", ["-c", `command -v ${program}`], { stdio: "ignore" }).status === 0;
const debInstalled = (pkg) =>
  spawnSync("dpkg-query", ["-W", "-f=${Status}", pkg], { encoding: "utf8" }).stdout?.includes("install ok installed") ?? false;

// Parts of the machine the suites need, installed from Debian's packages when missing.
const SYSTEM_PARTS = [
  { name: "Chromium (Playwright's browser)", present: () => existsSync("/usr/bin/chromium"), packages: ["chromium"] },
  // The container agent's suite: a real Docker engine, a static busybox for its test image, tshark for captures.
  { name: "Docker engine (dockerd)", present: () => onPath("dockerd") && onPath("docker"), packages: ["docker.io"] },
  { name: "static busybox", present: () => debInstalled("busybox-static"), packages: ["busybox-static"] },
  { name: "tshark", present: () => onPath("tshark"), packages: ["tshark"] },
];

// The agent suite's private Docker engine (started when not running) and its test images.
const AGENT_DIR = join(ROOT, "container-agent");
const AGENT_DOCKER_HOST = "unix:///tmp/flagstaff-docker.sock";

function prepareAgentEngine() {
  for (const script of ["dockerd.sh", "test-image.sh"]) {
    const result = spawnSync(join(AGENT_DIR, "scripts", script), [], {
      stdio: "inherit",
      env: { ...env, DOCKER_HOST: AGENT_DOCKER_HOST },
    });
    if (result.status !== 0) return `container-agent/scripts/${script} failed (exit ${result.status ?? result.signal})`;
  }
  return undefined;
}

/**
 * The integration and e2e suites also start a container agent on that engine (tests/integration/
 * containers.test.ts, tests/e2e/containers.spec.ts). Without it only those tests fail, with the reason.
 */
function prepareAgentEngineForApp() {
  const problem = prepareAgentEngine();
  if (problem) console.error(`flagstaff: ${problem}; the container tests of this suite will fail`);
  return undefined;
}

function ensureSystemParts() {
  const missing = SYSTEM_PARTS.filter((part) => !part.present());
  if (missing.length === 0) return;
  const packages = [...new Set(missing.flatMap((part) => part.packages))];
  const command = `apt-get install -y ${packages.join(" ")}`;
  if (typeof process.getuid !== "function" || process.getuid() !== 0) {
    console.error(`Missing: ${missing.map((part) => part.name).join(", ")}. Install with:\n  sudo ${command}`);
    process.exit(1);
  }
  console.log(`Installing ${packages.join(", ")} for ${missing.map((part) => part.name).join(", ")}`);
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update"], ["install", "-y", ...packages]]) {
    const result = spawnSync("apt-get", args, { stdio: "inherit", env: aptEnv });
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(" ")} failed (exit ${result.status ?? result.signal})`);
      process.exit(1);
    }
  }
  const still = SYSTEM_PARTS.filter((part) => !part.present());
  if (still.length > 0) {
    console.error(`Still missing after install: ${still.map((part) => part.name).join(", ")}`);
    process.exit(1);
  }
}

/**
 * The signal (Ctrl-C, SIGTERM) that stopped the running suites, if any: they are passed it, and the suites
 * not yet started are not started (each counts as a failure), so an interrupted run ends with its summary.
 */
let interrupted;

/**
 * Runs a command in its own process group; resolves with its exit code (or a description of its end).
 * Its output goes to ours, or to the file `logFile` when given (a suite running beside others).
 */
function run(command, args, { timeoutMs, extraEnv = {}, logFile }) {
  return new Promise((done) => {
    const log = logFile === undefined ? undefined : openSync(logFile, "w");
    const stdio = log === undefined ? "inherit" : ["ignore", log, log];
    const child = spawn(command, args, { cwd: ROOT, env: { ...env, ...extraEnv }, stdio, detached: true });
    if (log !== undefined) closeSync(log);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }, timeoutMs);
    const forward = (signal) => {
      interrupted = signal;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    child.on("error", (error) => {
      clearTimeout(timer);
      done({ code: null, note: `could not start ${command}: ${error.message}` });
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      if (timedOut) done({ code: null, note: `killed after ${Math.round(timeoutMs / 60000)} min` });
      else done({ code, note: code === 0 ? undefined : `exited with ${code ?? signal}` });
    });
  });
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/** Counts from vitest's JSON reporter; a file that failed to load counts as one failure. */
function countVitest(report) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of report.testResults ?? []) {
    const assertions = file.assertionResults ?? [];
    const fileFailed = assertions.filter((a) => a.status === "failed").length;
    passed += assertions.filter((a) => a.status === "passed").length;
    skipped += assertions.filter((a) => ["skipped", "pending", "todo", "disabled"].includes(a.status)).length;
    failed += fileFailed;
    if (file.status === "failed" && fileFailed === 0) failed += 1;
  }
  return { passed, failed, skipped };
}

/** Counts from the bench smoke's JSON (bench/run.mjs --smoke): one check per step that must produce a number. */
function countBenchSmoke(report) {
  const smoke = report.smoke ?? { passed: [], failed: [] };
  const failed = smoke.failed.length + (report.failures ?? []).length;
  return { passed: smoke.passed.length, failed, skipped: 0 };
}

/** Counts from Playwright's JSON reporter; errors outside tests (e.g. the web server) count as failures. */
function countPlaywright(report) {
  const stats = report.stats ?? {};
  const passed = (stats.expected ?? 0) + (stats.flaky ?? 0);
  let failed = stats.unexpected ?? 0;
  if ((report.errors ?? []).length > 0 && failed === 0) failed = report.errors.length;
  return { passed, failed, skipped: stats.skipped ?? 0 };
}

function vitestSuite(name, config, timeoutMs, extraEnv = {}) {
  const reportFile = join(REPORTS, `${name}.json`);
  return {
    name,
    reportFile,
    count: countVitest,
    start: (logFile) =>
      run(
        join(BIN, "vitest"),
        ["run", "--config", config, "--reporter=default", "--reporter=json", `--outputFile.json=${reportFile}`],
        { timeoutMs, extraEnv, logFile },
      ),
  };
}

const BUILD = { name: "build", start: () => run(join(BIN, "react-router"), ["build"], { timeoutMs: 5 * 60_000 }) };

/** `npm run typecheck` (the Env and route types are generated, not committed, then `tsc`). */
const TYPECHECK = { name: "typecheck", start: (logFile) => run("npm", ["run", "--silent", "typecheck"], { timeoutMs: 5 * 60_000, logFile }) };

/** The container agent's own suite: no build needed, a private Docker engine with its test images. */
const AGENT_SUITE = {
  ...vitestSuite("agent", "container-agent/vitest.config.ts", 6 * 60_000, { DOCKER_HOST: AGENT_DOCKER_HOST }),
  needsBuild: false,
  prepare: prepareAgentEngine,
};

/** Runs a step and adds how long it took, in seconds. */
async function timed(start) {
  const begun = performance.now();
  const outcome = await start();
  return { ...outcome, seconds: (performance.now() - begun) / 1000 };
}

/**
 * Runs one suite (its output to ours, or to `logFile`) and returns its line of the summary: counts from
 * its report, where a missing report, no tests, a non-zero exit without failures or a skipped test each
 * count as a failure.
 */
async function runSuite(suite, built, logFile) {
  if (suite.needsBuild && !built) return { name: suite.name, passed: 0, failed: 1, skipped: 0, note: "not run: the build failed" };
  const unprepared = suite.prepare?.();
  if (unprepared) return { name: suite.name, passed: 0, failed: 1, skipped: 0, note: `not run: ${unprepared}` };
  const outcome = await timed(() => suite.start(logFile));
  const { seconds } = outcome;
  const report = readJson(suite.reportFile);
  if (report === undefined) {
    return { name: suite.name, passed: 0, failed: 1, skipped: 0, note: `no report (${outcome.note ?? "exited with 0"})`, seconds };
  }
  const counts = suite.count(report);
  let note = outcome.note;
  if (counts.passed + counts.failed + counts.skipped === 0) {
    counts.failed += 1;
    note = "reported no tests";
  } else if (outcome.code !== 0 && counts.failed === 0) {
    // E.g. unhandled errors between tests, or a runner killed after its report was written.
    counts.failed += 1;
  }
  if (counts.skipped > 0) {
    // Every test runs: a skipped test, or one only announced and not written, counts as a failure.
    counts.failed += counts.skipped;
    note = [note, `${counts.skipped} skipped (not allowed)`].filter(Boolean).join("; ");
  }
  return { name: suite.name, ...counts, note, seconds };
}

async function main() {
  ensureSystemParts();
  rmSync(REPORTS, { recursive: true, force: true });
  mkdirSync(REPORTS, { recursive: true });

  const results = [];
  const record = (name, counts, note, seconds) => {
    results.push({ name, ...counts, note, seconds });
  };
  const started = performance.now();

  // The container agent's suite (≈ 135 s alone; Docker's processes then keep ≈ 80 % of the machine busy,
  // its own ≈ 15 CPU-s) runs beside the build, the typecheck and the unit suite, its output kept in a file
  // and shown when it is done, and ends before the suites that start containers on the same engine
  // (DECISIONS.md).
  const agentLog = join(REPORTS, "agent.log");
  const agentRun = runSuite(AGENT_SUITE, true, agentLog);

  // A build or type error fails the run like a failed test (a test file can run and still not typecheck).
  const steps = [];
  const finish = (name, outcome) => {
    steps.push({ name, ...outcome });
    if (outcome.code !== 0) record(name, { passed: 0, failed: 1, skipped: 0 }, outcome.note, outcome.seconds);
  };
  console.log(`\n== ${BUILD.name} ==`);
  finish(BUILD.name, await timed(BUILD.start));
  const built = steps[0].code === 0;
  // The typecheck (one core, ≈ 35 CPU-s) runs beside the unit and integration suites, which leave about a
  // third of the machine idle; it ends before the security suite, whose timing checks want a quiet machine
  // (DECISIONS.md). Its output is kept in a file and shown when it is done.
  const typecheckLog = join(REPORTS, "typecheck.log");
  const typecheckRun = interrupted ? Promise.resolve({ code: null, note: `not run: ${interrupted}`, seconds: 0 }) : timed(() => TYPECHECK.start(typecheckLog));
  let typecheckShown = false;
  /** Waits for the typecheck and prints its output and result, once (before a quiet suite, else at the end). */
  const showTypecheck = async () => {
    if (typecheckShown) return;
    typecheckShown = true;
    const outcome = await typecheckRun;
    console.log(`\n== ${TYPECHECK.name} ==`);
    const output = existsSync(typecheckLog) ? readFileSync(typecheckLog, "utf8") : "";
    process.stdout.write(output.endsWith("\n") || output === "" ? output : `${output}\n`);
    finish(TYPECHECK.name, outcome);
  };

  const e2eData = mkdtempSync(join(tmpdir(), "flagstaff-e2e-"));
  const suites = [
    { ...vitestSuite("unit", "vitest.unit.config.ts", 5 * 60_000), needsBuild: false },
    { name: "agent", alreadyRunning: agentRun, logFile: agentLog },
    {
      ...vitestSuite("integration", "vitest.integration.config.ts", 8 * 60_000, { FLAGSTAFF_TEST_DOCKER_HOST: AGENT_DOCKER_HOST }),
      needsBuild: true,
      prepare: prepareAgentEngineForApp,
    },
    // Instrumented security checks and the crash tests against the real `npm start` server (SECURITY.md).
    {
      ...vitestSuite("security", "tests/security/vitest.config.ts", 6 * 60_000, { DOCKER_HOST: AGENT_DOCKER_HOST }),
      // Nothing runs beside it: its durability checks time answers against a batch import's end and kill
      // servers in the middle of a burst (the flag comparison checks count reads, not time).
      quiet: true,
      needsBuild: true,
      prepare: prepareAgentEngineForApp,
    },
    {
      // The bench harness on tiny sizes (a few seconds): every step must produce a number; no figure is judged.
      name: "bench",
      needsBuild: true,
      reportFile: join(REPORTS, "bench.json"),
      count: countBenchSmoke,
      start: () =>
        run(process.execPath, [join(ROOT, "bench", "run.mjs"), "--smoke", "--json", join(REPORTS, "bench.json")], {
          timeoutMs: 4 * 60_000,
          extraEnv: { DOCKER_HOST: AGENT_DOCKER_HOST },
        }),
    },
    {
      name: "e2e",
      needsBuild: true,
      prepare: prepareAgentEngineForApp,
      reportFile: join(REPORTS, "e2e.json"),
      count: countPlaywright,
      start: () =>
        run(join(BIN, "playwright"), ["test"], {
          timeoutMs: 20 * 60_000,
          // `npm start` (the e2e web server) runs its container agent on the private test engine.
          extraEnv: { FLAGSTAFF_E2E_DATA_DIR: e2eData, DOCKER_HOST: AGENT_DOCKER_HOST },
        }),
    },
  ];

  try {
    for (const suite of suites) {
      if (interrupted && !suite.alreadyRunning) {
        results.push({ name: suite.name, passed: 0, failed: 1, skipped: 0, note: `not run: ${interrupted}` });
        continue;
      }
      if (suite.quiet) await showTypecheck();
      console.log(`\n== ${suite.name} ==`);
      if (suite.alreadyRunning) {
        const result = await suite.alreadyRunning;
        const output = existsSync(suite.logFile) ? readFileSync(suite.logFile, "utf8") : "";
        process.stdout.write(output.endsWith("\n") || output === "" ? output : `${output}\n`);
        results.push(result);
        continue;
      }
      results.push(await runSuite(suite, built));
    }
    await showTypecheck();
  } finally {
    rmSync(e2eData, { recursive: true, force: true });
  }

  console.log("\n== summary ==");
  // CI has 2 cores and the suite should stay well under 20 minutes: each suite's time is shown.
  const time = (seconds) => (seconds === undefined ? "" : `${Math.round(seconds)} s`.padStart(8));
  for (const step of steps) if (step.code === 0) console.log(`${step.name.padEnd(12)} ${"".padEnd(20)}${time(step.seconds)}`);
  for (const result of results) {
    console.log(`${result.name.padEnd(12)} ok ${String(result.passed).padStart(4)}   not ok ${String(result.failed).padStart(3)}${time(result.seconds)}${result.note ? `   (${result.note})` : ""}`);
  }
  console.log(`${"total".padEnd(12)} ${"".padEnd(20)}${time((performance.now() - started) / 1000)}`);
  const passed = results.reduce((sum, result) => sum + result.passed, 0);
  const failed = results.reduce((sum, result) => sum + result.failed, 0);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

await main();
