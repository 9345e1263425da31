// Helpers for the durability tests: the real `npm start` server (scripts/start.mjs on the built app) on
// a private data folder, killed with SIGKILL and started again; a tiny cookie-keeping HTTP client.
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";

const ROOT = resolve(import.meta.dirname, "../..");
export const ADMIN = { userName: "admin", password: "Admin1234!" };

/** A loopback port nobody listens on right now (below the ephemeral range; scripts/lib/free-port.mjs). */
export { freePort } from "../../scripts/lib/free-port.mjs";

/** Starts scripts/start.mjs in its own process group; resolves once it listens. */
export function startServer({ dataDir, port, env = {} }) {
  const child = spawn(process.execPath, [join(ROOT, "scripts/start.mjs")], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      FLAGSTAFF_DATA_DIR: dataDir,
      FLAGSTAFF_PORT: String(port),
      FLAGSTAFF_ADMIN_USER: ADMIN.userName,
      FLAGSTAFF_ADMIN_PASSWORD: ADMIN.password,
      FLAGSTAFF_DISABLE_RATE_LIMIT: "true",
      WRANGLER_SEND_METRICS: "false",
      WRANGLER_SEND_ERROR_REPORTS: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      ...env,
    },
  });
  let output = "";
  return new Promise((done, failed) => {
    const timer = setTimeout(() => failed(new Error(`server did not start in 90 s:\n${output}`)), 90_000);
    const onData = (chunk) => {
      output += chunk;
      if (output.includes("Flagstaff is running at")) {
        clearTimeout(timer);
        done({ child, base: `http://127.0.0.1:${port}`, output: () => output });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      failed(new Error(`server exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
}

/**
 * Runs scripts/start.mjs until it exits by itself (a refused start): its exit code and output. `node` and
 * `nodeArgs` choose another Node or its options (the launcher's own check of the Node it runs on).
 */
export function runToExit({ env = {}, timeoutMs = 30_000, node = process.execPath, nodeArgs = [] } = {}) {
  const child = spawn(node, [...nodeArgs, join(ROOT, "scripts/start.mjs")], {
    cwd: ROOT,
    // Its own process group: a start that does not stop by itself is killed with everything it began.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_SEND_ERROR_REPORTS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((done, failed) => {
    const timer = setTimeout(() => {
      process.kill(-child.pid, "SIGKILL");
      failed(new Error(`start.mjs did not exit within ${timeoutMs} ms:\n${stdout}${stderr}`));
    }, timeoutMs);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      done({ code: code ?? signal, stdout, stderr });
    });
  });
}

/** SIGKILL for the launcher and everything in its process group (workerd included). */
export function killHard(server) {
  try {
    process.kill(-server.child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
  return new Promise((done) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) done();
    else server.child.once("exit", () => done());
  });
}

/** SIGTERM (the launcher disposes workerd and removes its lock). */
export function stopServer(server) {
  return new Promise((done) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return done();
    server.child.once("exit", () => done());
    try {
      process.kill(server.child.pid, "SIGTERM");
    } catch {
      done();
    }
    setTimeout(() => {
      try {
        process.kill(-server.child.pid, "SIGKILL");
      } catch {
        // Gone.
      }
    }, 10_000).unref();
  });
}

/** A same-origin API client keeping one session cookie. */
export class Client {
  constructor(base) {
    this.base = base;
    this.cookie = null;
  }

  async json(path, { method = "GET", body } = {}) {
    const headers = {};
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${this.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const setCookie = res.headers.get("set-cookie");
    if (setCookie) this.cookie = setCookie.split(";")[0];
    const text = await res.text();
    let parsed = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed };
  }

  async ok(path, init) {
    const r = await this.json(path, init);
    if (r.status !== 200) throw new Error(`${init?.method ?? "GET"} ${path} → ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }
}

/** The D1 database file of a data folder (wrangler's --persist-to layout), opened read-only. */
/**
 * Rows still waiting in the game rooms' journals (their own SQLite files): 0 once every submission a room took
 * has reached D1. A room that never journaled has no journal table yet.
 */
export function journaledRows(dataDir) {
  const objects = join(dataDir, "v3", "do");
  if (!existsSync(objects)) return 0;
  const files = readdirSync(objects)
    .filter((name) => name.endsWith("-GameRoom"))
    .flatMap((name) => readdirSync(join(objects, name)).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite").map((f) => join(objects, name, f)));
  let rows = 0;
  for (const file of files) {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal'").get();
      if (table) rows += Number(db.prepare("SELECT count(*) AS n FROM journal").get().n);
    } finally {
      db.close();
    }
  }
  return rows;
}

export function openD1(dataDir) {
  const dir = join(dataDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (!file) throw new Error(`no D1 file in ${dir}`);
  return new DatabaseSync(join(dir, file), { readOnly: true });
}
