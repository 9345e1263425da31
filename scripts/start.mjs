#!/usr/bin/env node
// Production-style local server: the built worker (build/server) in workerd through the Miniflare API,
// serving build/client from disk itself, behind this process's front (scripts/lib/socket-relay.mjs),
// which holds the players' game sockets. State (D1, R2, Durable Objects) persists under
// FLAGSTAFF_DATA_DIR in wrangler's `--persist-to` layout. `npm start` builds first.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { applyMigrations } from "./lib/d1-migrations.mjs";
import { hasAdminAccount, hasDatabase } from "./lib/first-admin.mjs";
import { freePort, probe } from "./lib/free-port.mjs";
import { localAgentId } from "./lib/local-agent.mjs";
import { nodeProblem } from "./lib/node-version.mjs";
import { acquireDataDir, DataDirInUse, recordAgent, recordRuntimes, releaseDataDir, runtimePids } from "./lib/runtime-lock.mjs";
import { collectStaticFiles, gzipStaticFiles } from "./lib/static-files.mjs";

// The modules imported above are plain JavaScript that any Node loads. Those that need the project's Node
// (TypeScript, directly or through a helper) are imported only once it is known to run here: an older
// Node started directly would otherwise die in the module loader with a stack trace, before any check ran.
const unsuitableNode = nodeProblem({ version: process.versions.node, typescript: process.features.typescript, build: process.argv.includes("--build") });
if (unsuitableNode) {
  console.error(`flagstaff: ${unsuitableNode}`);
  process.exit(1);
}
const { checkAdminSettings, checkSettings, runtimeV8Flags } = await import("./lib/settings.mjs");
const { startFront } = await import("./lib/socket-relay.mjs");
const { parsePublicUrl } = await import("../app/core/public-url.ts");

// Offline and quiet, whatever the caller's environment says.
Object.assign(process.env, {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
});

// V8 in workerd collects the old generation in one pause, never incrementally (39–99 ms with 20 MB live
// during a submission storm, BENCHMARKS.md). Starting the old generation at 512 MB keeps those pauses out
// of bursts (storm verdict p99 ≈ 150–220 → 65–90 ms) for more memory: the heap grows until V8 collects
// (README's MINIFLARE_WORKERD_V8_FLAGS row has the measurement and a cap for small hosts). Flags the
// caller sets come after this one; a caller who sizes the old generation gets its flags alone, since a cap
// under the 512 MB start did not hold beside it (Miniflare passes the variable to workerd's `v8Flags`).
process.env.MINIFLARE_WORKERD_V8_FLAGS = runtimeV8Flags(process.env.MINIFLARE_WORKERD_V8_FLAGS);

/**
 * workerd's log lines (the workers' console included), printed as Miniflare does by default, minus the
 * notice the flag above causes on every start: V8's built-in code cache was made without it.
 */
function runtimeLog({ level, message }) {
  if (message.includes("bootstrap compile cache failed its compatibility check")) return;
  if (level === "error" || level === "warn") console.error(message);
  else console.log(message);
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BUILD_DIR = resolve(ROOT, process.env.FLAGSTAFF_BUILD_DIR ?? "build");
const SERVER_DIR = join(BUILD_DIR, "server");
const CLIENT_DIR = join(BUILD_DIR, "client");
const MIGRATIONS_DIR = join(ROOT, "migrations");
const HOST = "127.0.0.1";
// Read by this script only; every other FLAGSTAFF_* variable becomes a binding of the app worker.
const LAUNCHER_VARS = new Set([
  "FLAGSTAFF_PORT",
  "FLAGSTAFF_DATA_DIR",
  "FLAGSTAFF_ADMIN_USER",
  "FLAGSTAFF_ADMIN_PASSWORD",
  "FLAGSTAFF_BOOTSTRAP_TOKEN",
]);

function fail(message) {
  console.error(`flagstaff: ${message}`);
  process.exit(1);
}

/**
 * Stops at a documented setting with a value the app would not understand (scripts/lib/settings.mjs), one
 * line each. A data folder without a database makes its first admin in this start, so that admin's
 * settings are checked here too, before the folder is touched (one with a database: in migrate()).
 */
function checkEnvironment(dataDir) {
  const { problems, normalized } = checkSettings(process.env);
  if (!hasDatabase(dataDir)) problems.push(...checkAdminSettings(process.env));
  if (problems.length > 0) {
    for (const problem of problems) console.error(`flagstaff: ${problem}`);
    process.exit(1);
  }
  Object.assign(process.env, normalized);
}

/**
 * FLAGSTAFF_PUBLIC_URL, the address players use (links in account mail): an http(s) URL, or this server's
 * own loopback address when unset, so that no link is ever made from a request's Host (app/core/public-url.ts).
 */
function readPublicUrl(port) {
  const raw = process.env.FLAGSTAFF_PUBLIC_URL?.trim();
  if (!raw) return `http://${HOST}:${port}`;
  return parsePublicUrl(raw) ?? fail(`FLAGSTAFF_PUBLIC_URL must be an http(s) URL such as https://ctf.example.org, got "${raw}"`);
}

function readWranglerConfig() {
  const path = join(SERVER_DIR, "wrangler.json");
  if (!existsSync(path) || !existsSync(join(SERVER_DIR, "index.js"))) {
    throw new Error("build/server is missing: run `npm start` (it builds first) or `npx react-router build`");
  }
  return JSON.parse(readFileSync(path, "utf8"));
}

function appBindings(config, bootstrapToken, relayToken) {
  const bindings = { ...(config.vars ?? {}) };
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith("FLAGSTAFF_") && !LAUNCHER_VARS.has(name) && value !== undefined) bindings[name] = value;
  }
  bindings.FLAGSTAFF_BOOTSTRAP_TOKEN = bootstrapToken;
  if (relayToken) bindings.FLAGSTAFF_RELAY_TOKEN = relayToken;
  return bindings;
}

// "**/*.js" → /^(?:.*\/)?[^/]*\.js$/
function globToRegExp(glob) {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (glob.startsWith("**/", i)) {
      source += "(?:.*/)?";
      i += 2;
    } else if (glob.startsWith("**", i)) {
      source += ".*";
      i += 1;
    } else if (ch === "*") {
      source += "[^/]*";
    } else if (ch === "?") {
      source += "[^/]";
    } else {
      source += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}$`);
}

// Miniflare 5 no longer walks imports from `scriptPath`, so list the modules of build/server the way
// wrangler's `rules` describe them (no_bundle build): the entry first, then every file a rule matches.
function collectModules(config) {
  const rules = (config.rules ?? []).map((rule) => ({ type: rule.type, patterns: rule.globs.map(globToRegExp) }));
  if (!rules.some((rule) => rule.type === "ESModule")) {
    rules.push({ type: "ESModule", patterns: [globToRegExp("**/*.js"), globToRegExp("**/*.mjs")] });
  }
  const main = (config.main ?? "index.js").replace(/^\.\//, "");
  const modules = [{ type: "ESModule", path: join(SERVER_DIR, main) }];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
        continue;
      }
      const path = relative(SERVER_DIR, full).split(sep).join("/");
      if (path === main) continue;
      const rule = rules.find((candidate) => candidate.patterns.some((pattern) => pattern.test(path)));
      if (rule) modules.push({ type: rule.type, path: full });
    }
  };
  walk(SERVER_DIR);
  return modules;
}

function appWorker(config, bootstrapToken) {
  return {
    name: config.name,
    modules: collectModules(config),
    modulesRoot: SERVER_DIR,
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags ?? [],
    bindings: appBindings(config, bootstrapToken),
    d1Databases: Object.fromEntries(
      (config.d1_databases ?? []).map((db) => [db.binding, db.preview_database_id ?? db.database_id]),
    ),
    r2Buckets: Object.fromEntries((config.r2_buckets ?? []).map((bucket) => [bucket.binding, bucket.bucket_name])),
    durableObjects: Object.fromEntries(
      (config.durable_objects?.bindings ?? []).map((binding) => [
        binding.name,
        { className: binding.class_name, scriptName: binding.script_name, useSQLite: true },
      ]),
    ),
  };
}

/**
 * The app worker owns the runtime's socket (`unsafeDirectSockets` on a loopback port behind the front, so
 * Miniflare's entry worker is not in the path) and serves build/client itself (workers/local-server.ts)
 * from a workerd disk service, and gzipped copies of its text files from another (<data>/cache/static-gzip).
 */
function serveFromApp(app, port, dataDir) {
  // Gzipped copies of the text files, made at each start from the build being served (≈ 65 ms).
  const gzipDir = join(dataDir, "cache", "static-gzip");
  app.bindings.STATIC_FILES = gzipStaticFiles(CLIENT_DIR, existsSync(CLIENT_DIR) ? collectStaticFiles(CLIENT_DIR) : {}, gzipDir);
  app.serviceBindings = { STATIC: { disk: { path: CLIENT_DIR, writable: false } }, STATIC_GZIP: { disk: { path: gzipDir, writable: false } } };
  app.unsafeDirectSockets = [{ host: HOST, port }];
  return app;
}

/**
 * What the migration runtime and the server's runtime share: loopback, no entry port of its own, the
 * runtime's log lines, and the persisted state in the layout of `wrangler … --persist-to <dataDir>`
 * (<dataDir>/v3/{d1,do,r2}).
 */
const runtimeOptions = (dataDir) => ({
  host: HOST,
  port: 0,
  cf: false,
  logRequests: false,
  handleStructuredLogs: runtimeLog,
  telemetry: { enabled: false },
  resourcePersistencePath: join(dataDir, "v3"),
  // Miniflare starts a new workerd when one dies. The lock must name the new one, or a start after this
  // launcher's own death would leave it serving the folder beside the next server; the operator is told.
  unsafeHandleRuntimeRestart: () => {
    recordRuntimes(dataDir);
    const pids = runtimePids();
    console.error(`flagstaff: the runtime (workerd) stopped unexpectedly and was restarted${pids.length > 0 ? ` (workerd ${pids.join(", ")})` : ""}`);
  },
});

/** First-admin settings the rules refuse, for a database without an admin: one line each. */
class AdminSettingsRefused extends Error {
  constructor(problems) {
    super(problems.join("\nflagstaff: "));
  }
}

// Migrations run before the server listens, so no request ever meets a half-migrated database: a
// short-lived runtime holding only the D1 binding, on the same persisted files. A database without an
// admin gets one in this start: refused settings for it stop the start before anything is migrated.
async function migrate(Miniflare, convertV4MiniflareOptions, config, app, dataDir) {
  if (!existsSync(MIGRATIONS_DIR) || Object.keys(app.d1Databases).length === 0) return [];
  const binding = config.d1_databases[0].binding;
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      ...runtimeOptions(dataDir),
      name: app.name,
      modules: true,
      script: "export default { fetch() { return new Response(null, { status: 404 }); } };",
      compatibilityDate: app.compatibilityDate,
      d1Databases: { [binding]: app.d1Databases[binding] },
    }),
  );
  try {
    await mf.ready;
    recordRuntimes(dataDir);
    const db = await mf.getD1Database(binding, app.name);
    if (!(await hasAdminAccount(db))) {
      const problems = checkAdminSettings(process.env);
      if (problems.length > 0) throw new AdminSettingsRefused(problems);
    }
    return await applyMigrations(db, MIGRATIONS_DIR);
  } finally {
    await mf.dispose();
  }
}

/**
 * Miniflare's log for the server's runtime. Miniflare prints nothing by default: its errors are printed here,
 * and when the runtime died and could not be started again (the build folder replaced or removed under the
 * running server, for one) `onRuntimeLost` is told, rather than the launcher staying up answering nothing.
 */
function runtimeErrorLog(Log, LogLevel, onRuntimeLost) {
  return new (class extends Log {
    constructor() {
      super(LogLevel.ERROR);
    }
    error(error) {
      if (error?.code === "ERR_RUNTIME_FAILURE") onRuntimeLost(error);
      else console.error(`flagstaff: runtime: ${reasonOf(error)}`);
    }
  })();
}

/**
 * Makes the first admin when none exists, from FLAGSTAFF_ADMIN_USER / FLAGSTAFF_ADMIN_PASSWORD (checked
 * only then: an install whose admin exists ignores them). Prints the credentials once.
 */
async function bootstrapAdmin(baseUrl, token) {
  const body = {};
  if (process.env.FLAGSTAFF_ADMIN_USER) body.userName = process.env.FLAGSTAFF_ADMIN_USER;
  if (process.env.FLAGSTAFF_ADMIN_PASSWORD) body.password = process.env.FLAGSTAFF_ADMIN_PASSWORD;
  const response = await fetch(new URL("/__internal/bootstrap-admin", baseUrl), {
    method: "POST",
    headers: { "content-type": "application/json", "x-flagstaff-bootstrap": token },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  // The launcher checked the settings before migrating (migrate()); a refusal here means the app's rules
  // and that check differ. The start stops all the same: the install would have no admin.
  if (response.status === 400) {
    throw new AdminSettingsRefused([`the app refused FLAGSTAFF_ADMIN_USER / FLAGSTAFF_ADMIN_PASSWORD for the first admin: ${text.slice(0, 300)}`]);
  }
  if (!response.ok) {
    const detail = response.headers.get("content-type")?.includes("json") ? `: ${text.slice(0, 300)}` : "";
    console.error(`flagstaff: admin bootstrap answered HTTP ${response.status}${detail}; no admin account was created`);
    return;
  }
  let result;
  try {
    result = JSON.parse(text);
  } catch {
    console.error(`flagstaff: admin bootstrap answered a non-JSON body: ${text.slice(0, 300)}`);
    return;
  }
  if (result.created) console.log(`Admin account: username=${result.userName} password=${result.password}`);
}

// ── Container agent ─────────────────────────────────────────────────────────────────────────────────
// Without FLAGSTAFF_AGENTS, a local Docker engine (DOCKER_HOST or /var/run/docker.sock) that answers gets
// an agent (container-agent/src/main.ts) on 127.0.0.1 with a fresh shared secret; it stops with us.

/** Answers when the Docker engine replies to /_ping; otherwise the reason. */
function dockerPing(dockerHost) {
  return new Promise((done) => {
    let options;
    if (dockerHost.startsWith("unix://")) options = { socketPath: dockerHost.slice("unix://".length) };
    else {
      try {
        const url = new URL(dockerHost.replace(/^tcp:/, "http:"));
        if (url.protocol !== "http:") return done(`${dockerHost} needs TLS settings; run the agent yourself and set FLAGSTAFF_AGENTS`);
        options = { host: url.hostname, port: Number(url.port || 2375) };
      } catch {
        return done(`DOCKER_HOST ${dockerHost} is not a unix:// or tcp:// address`);
      }
    }
    const req = httpRequest({ ...options, method: "GET", path: "/_ping", timeout: 3000 }, (res) => {
      res.resume();
      done(res.statusCode === 200 ? null : `the Docker engine at ${dockerHost} answered ${res.statusCode}`);
    });
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", (error) => done(`no Docker engine answers at ${dockerHost} (${error.code ?? error.message})`));
    req.end();
  });
}


/**
 * Decides before the runtime starts whether containers are on: the local agent's URL and secret become
 * bindings of the app. Returns the line to print, or `start` for the local agent, which starts only once
 * the server listens: what it reports when it starts (containers that expired while the server was down,
 * re-adopted ones) then reaches the platform.
 */
async function planContainerAgent(platformUrl, dataDir, runtimePort) {
  if (process.env.FLAGSTAFF_AGENTS) return { line: `Containers are enabled: agents ${process.env.FLAGSTAFF_AGENTS}` };
  const dockerHost = process.env.FLAGSTAFF_DOCKER_HOST || process.env.DOCKER_HOST || "unix:///var/run/docker.sock";
  const problem = await dockerPing(dockerHost);
  if (problem) return { line: `Containers are disabled: ${problem} (set DOCKER_HOST, or FLAGSTAFF_AGENTS for remote agents)` };
  if (!existsSync(join(ROOT, "container-agent", "node_modules", "dockerode"))) {
    return { line: "Containers are disabled: the agent's packages are missing (run `npm install` in container-agent/)" };
  }
  const secret = randomBytes(32).toString("hex");
  let port = await freePort();
  while (port === runtimePort) port = await freePort();
  process.env.FLAGSTAFF_AGENTS = `http://${HOST}:${port}`;
  process.env.FLAGSTAFF_AGENT_SECRET = secret;
  process.env.FLAGSTAFF_PLATFORM_URL = platformUrl;
  return { start: () => superviseContainerAgent({ dockerHost, secret, port, platformUrl, dataDir }) };
}

/** Starts the local agent; returns a stop function (or null) and the line to print. */
async function startContainerAgent({ dockerHost, secret, port, platformUrl, dataDir }) {
  const agentDir = join(ROOT, "container-agent");
  const agentData = join(dataDir, "agent");
  mkdirSync(agentData, { recursive: true });
  const logPath = join(agentData, "agent.log");
  const log = createWriteStream(logPath, { flags: "a" });
  const child = spawn(process.execPath, [join(agentDir, "src", "main.ts")], {
    cwd: agentDir,
    env: {
      ...process.env,
      DOCKER_HOST: dockerHost,
      FLAGSTAFF_AGENT_SECRET: secret,
      FLAGSTAFF_AGENT_ID: localAgentId(dataDir),
      FLAGSTAFF_AGENT_HOST: HOST,
      FLAGSTAFF_AGENT_PORT: String(port),
      FLAGSTAFF_AGENT_DATA_DIR: agentData,
      FLAGSTAFF_PLATFORM_URL: platformUrl,
    },
    // The IPC channel ties the agent to this process: it stops when the channel closes, which it does
    // when we die in any way (container-agent/src/main.ts); a live agent of a dead launcher would share
    // the next agent's id and reap its containers as untracked.
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  // Recorded at once, so that the next start stops it if we are killed before it is.
  if (child.pid !== undefined) recordAgent(dataDir, child.pid);
  let output = "";
  const listening = new Promise((ready) => {
    const onData = (part) => {
      log.write(part);
      output = (output + part.toString("utf8")).slice(-4000);
      if (output.includes("agent.listening")) ready(null);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("error", (error) => ready(`the agent could not be started: ${error.message}`));
    child.once("exit", (code) => ready(`the agent exited with ${code}: ${output.trim().split("\n").pop() ?? ""}`));
    setTimeout(() => ready("the agent did not start within 30 s"), 30_000).unref();
  });
  const failure = await listening;
  const stop = () =>
    new Promise((stopped) => {
      if (child.exitCode !== null || child.signalCode !== null) return stopped();
      child.once("exit", () => stopped());
      child.kill("SIGTERM");
      setTimeout(() => {
        child.kill("SIGKILL");
        stopped();
      }, 8000).unref();
    });
  if (failure) {
    await stop();
    return { stop: null, failure, line: `Containers are unavailable: the local agent did not start: ${failure} (log: ${logPath})` };
  }
  return { stop, child, logPath, line: `Containers are enabled: agent at http://${HOST}:${port} on ${dockerHost} (log: ${logPath})` };
}

/** An agent that dies three times within this long after its starts is not started a fourth time. */
const AGENT_RESTART_WINDOW_MS = 60_000;

/**
 * The local agent, started again (same id and port: it adopts its containers) when it dies while the
 * server runs, as the runtime is; each restart, or giving up, is said on the console. Before, a dead agent
 * left containers off, unannounced, until the whole server was restarted.
 */
async function superviseContainerAgent(options) {
  let current = await startContainerAgent(options);
  if (!current.stop) return current;
  let stopping = false;
  const starts = [Date.now()];
  const watch = (agent) =>
    agent.child.once("exit", (code, signal) => {
      if (stopping) return;
      const how = signal ?? `exit code ${code}`;
      current = null;
      void (async () => {
        const recent = starts.filter((at) => Date.now() - at < AGENT_RESTART_WINDOW_MS);
        if (recent.length >= 3) {
          console.error(`flagstaff: the container agent stopped unexpectedly (${how}) for the third time within a minute; containers are unavailable until the server is restarted (log: ${agent.logPath})`);
          return;
        }
        const next = await startContainerAgent(options);
        if (stopping) {
          await next.stop?.();
          return;
        }
        if (!next.stop) {
          console.error(`flagstaff: the container agent stopped unexpectedly (${how}) and could not be started again: ${next.failure}; containers are unavailable until the server is restarted (log: ${agent.logPath})`);
          return;
        }
        starts.push(Date.now());
        current = next;
        console.error(`flagstaff: the container agent stopped unexpectedly (${how}) and was restarted (pid ${next.child.pid})`);
        watch(next);
      })();
    });
  watch(current);
  return {
    line: current.line,
    stop: async () => {
      stopping = true;
      await current?.stop();
    },
  };
}

/**
 * mkdir -p by hand: Node's recursive mkdirSync never returns for a path under /proc (it retries the
 * parent's ENOENT forever); an existing non-folder throws EEXIST.
 */
function makeFolder(path) {
  try {
    mkdirSync(path);
  } catch (error) {
    if (error.code === "EEXIST") {
      if (statSync(path).isDirectory()) return;
      throw error;
    }
    if (error.code !== "ENOENT" || dirname(path) === path) throw error;
    makeFolder(dirname(path));
    mkdirSync(path);
  }
}

/** One line for an error at startup (no stack: the message names what to fix). */
const reasonOf = (error) => String(error?.message ?? error);

/** `react-router build` into the build folder, its output shown as it comes. */
function buildApp() {
  return new Promise((resolveBuild, rejectBuild) => {
    const child = spawn(process.execPath, [join(ROOT, "node_modules", "@react-router", "dev", "bin.cjs"), "build"], { cwd: ROOT, stdio: "inherit" });
    child.once("error", rejectBuild);
    child.once("exit", (code, signal) => (code === 0 ? resolveBuild() : rejectBuild(new Error(`the build failed (${signal ?? `exit code ${code}`})`))));
  });
}

async function main() {
  const dataDir = process.env.FLAGSTAFF_DATA_DIR ? resolve(process.env.FLAGSTAFF_DATA_DIR) : join(ROOT, "data");
  checkEnvironment(dataDir);
  const port = Number(process.env.FLAGSTAFF_PORT?.trim() || 8787);
  process.env.FLAGSTAFF_PUBLIC_URL = readPublicUrl(port);
  try {
    makeFolder(dataDir);
  } catch (error) {
    if (error.code === "EEXIST") fail(`the data folder ${dataDir} (FLAGSTAFF_DATA_DIR) is a file, not a folder`);
    if (error.code === "ENOTDIR") fail(`cannot create the data folder ${dataDir} (FLAGSTAFF_DATA_DIR): a part of its path is a file`);
    fail(`cannot create the data folder ${dataDir} (FLAGSTAFF_DATA_DIR): ${reasonOf(error)}`);
  }
  // Taken before anything else touches the folder: a second server on it stops here.
  try {
    const note = await acquireDataDir(dataDir);
    if (note) console.log(`flagstaff: ${note}`);
  } catch (error) {
    fail(error instanceof DataDirInUse ? error.message : `cannot lock the data folder ${dataDir} (FLAGSTAFF_DATA_DIR): ${reasonOf(error)}`);
  }

  // From here on every failure stops what was started and gives the folder back.
  let mf = null;
  let front = null;
  let agent = null;
  let stopping = false;
  const stop = async (code) => {
    if (stopping) process.exit(code);
    stopping = true;
    try {
      await front?.close();
      await agent?.stop?.();
      await mf?.dispose();
      releaseDataDir(dataDir);
    } finally {
      process.exit(code);
    }
  };
  // Miniflare's own signal hooks exit at once, before an awaited dispose could finish; replace them
  // (again after each Miniflare is made).
  const hookSignals = () => {
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
      process.removeAllListeners(signal);
      process.on(signal, () => void stop(0));
    }
  };
  hookSignals();

  try {
    // A port another program holds is found before anything is built, migrated or created in the folder
    // (a start that could not listen once made the first admin and printed its password, then stopped).
    if (!(await probe(port))) throw new Error(`could not listen on ${HOST}:${port}: the port is in use (FLAGSTAFF_PORT)`);
    // `npm start` builds here, once the folder is this server's: a second start on a running server's
    // folder stops above instead of rebuilding the files that server serves.
    if (process.argv.includes("--build")) await buildApp();
    const config = readWranglerConfig();
    const bootstrapToken = randomBytes(32).toString("base64url");
    const relayToken = randomBytes(32).toString("base64url");
    const app = appWorker(config, bootstrapToken);

    const { Miniflare, Log, LogLevel, convertV4MiniflareOptions } = await import("miniflare");
    const applied = await migrate(Miniflare, convertV4MiniflareOptions, config, app, dataDir);
    hookSignals();
    if (applied.length > 0) console.log(`Applied D1 migrations: ${applied.join(", ")}`);

    // The runtime listens on a loopback port of its own; the public port is the front's
    // (scripts/lib/socket-relay.mjs: everything passes through, the players' game sockets are held there).
    const runtimePort = await freePort();
    const url = `http://${HOST}:${port}`;
    // The agent's URL and secret become FLAGSTAFF_* bindings of the app.
    const containers = await planContainerAgent(url, dataDir, runtimePort);
    app.bindings = appBindings(config, bootstrapToken, relayToken);

    mf = new Miniflare(
      convertV4MiniflareOptions({
        ...runtimeOptions(dataDir),
        // A supervisor (systemd, a container's restart policy) starts the whole server again.
        log: runtimeErrorLog(Log, LogLevel, (error) => {
          // The cause's first line: the rest repeats the runtime's own error lines, printed above already.
          const cause = error.cause instanceof Error ? `: ${reasonOf(error.cause).split("\n")[0]}` : "";
          console.error(`flagstaff: the runtime (workerd) stopped unexpectedly and could not be started again${cause}; the server stops`);
          void stop(1);
        }),
        // Profiling only (bench/profile.mjs): the V8 inspector of the workers on loopback.
        ...(process.env.FLAGSTAFF_INSPECTOR_PORT ? { inspectorPort: Number(process.env.FLAGSTAFF_INSPECTOR_PORT), inspectorHost: HOST } : {}),
        // Clients come in through the app worker's direct socket, not Miniflare's entry worker.
        workers: [serveFromApp(app, runtimePort, dataDir)],
      }),
    );
    hookSignals();
    try {
      await mf.ready;
    } catch (error) {
      throw new Error(`could not start on ${HOST}:${port}: ${reasonOf(error)}`);
    }
    recordRuntimes(dataDir);

    // The first admin is made on the runtime's own port before the front lets anyone in: a registration
    // of the same name during the start would otherwise take it, leaving the install without an admin.
    try {
      await bootstrapAdmin(`http://${HOST}:${runtimePort}`, bootstrapToken);
    } catch (error) {
      if (error instanceof AdminSettingsRefused) throw error;
      console.error(`flagstaff: admin bootstrap failed: ${reasonOf(error)}`);
    }
    try {
      front = await startFront({ host: HOST, port, upstreamPort: runtimePort, token: relayToken });
    } catch (error) {
      throw new Error(`could not listen on ${HOST}:${port}: ${reasonOf(error)}`);
    }
    agent = containers.start ? await containers.start() : containers;
    console.log(agent.line);
    console.log(`Flagstaff is running at ${url}`);
    console.log(`Data folder: ${dataDir}`);
  } catch (error) {
    console.error(`flagstaff: ${reasonOf(error)}`);
    await stop(1);
  }
}

await main();
