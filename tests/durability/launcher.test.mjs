// The `npm start` launcher (scripts/start.mjs) as an operator meets it: a Node that cannot run it and
// settings it cannot use stop it with one line naming what it needs; one server per data folder, however
// close together two are started; the first admin exists before anyone can register; a SIGKILLed launcher
// leaves no container agent behind (it would share the next agent's id and reap its containers). Needs the
// built app (FLAGSTAFF_BUILD_DIR or build/) and, for the agent, the test Docker engine
// (container-agent/scripts/dockerd.sh).
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations, listMigrationFiles } from "../../scripts/lib/d1-migrations.mjs";
import { olderThan, REQUIRED_NODE } from "../../scripts/lib/node-version.mjs";
import { processInfo } from "../../scripts/lib/runtime-lock.mjs";
import { ADMIN, Client, freePort, openD1, runToExit, startServer, stopServer } from "./server.mjs";

const DOCKER_HOST = process.env.FLAGSTAFF_TEST_DOCKER_HOST ?? "unix:///tmp/flagstaff-docker.sock";
/** Containers off: no engine answers there (a faster start). */
const NO_DOCKER = { DOCKER_HOST: "unix:///nonexistent/docker.sock", FLAGSTAFF_DOCKER_HOST: "unix:///nonexistent/docker.sock" };

const dirs = [];
const servers = [];
function dataDir() {
  const dir = mkdtempSync(join(tmpdir(), "flagstaff-launcher-"));
  dirs.push(dir);
  return dir;
}

/** A process that runs (an exited one its parent has not reaped yet counts as gone). */
const alive = (pid) => processInfo(pid) !== undefined;

async function waitFor(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** Nodes on this machine older than the launcher needs (Debian's 20 in /usr/bin beside the project's 22). */
function olderNodes() {
  const candidates = [...(process.env.PATH ?? "").split(delimiter).map((dir) => join(dir, "node")), "/usr/bin/node", "/usr/local/bin/node"];
  const seen = new Set([realpathSync(process.execPath)]);
  const older = [];
  for (const candidate of candidates) {
    if (!existsSync(candidate)) continue;
    const real = realpathSync(candidate);
    if (seen.has(real)) continue;
    seen.add(real);
    const version = spawnSync(real, ["--version"], { encoding: "utf8" }).stdout?.trim();
    if (version && olderThan(version, REQUIRED_NODE)) older.push(real);
  }
  return older;
}

/** The D1 migrations of the repository but the last applied to a fresh `dir`, as an older release left it. */
async function migrateAllButLast(dir) {
  const buildDir = resolve(import.meta.dirname, "../..", process.env.FLAGSTAFF_BUILD_DIR ?? "build");
  const config = JSON.parse(readFileSync(join(buildDir, "server", "wrangler.json"), "utf8"));
  const { binding, preview_database_id, database_id } = config.d1_databases[0];
  const migrations = resolve(import.meta.dirname, "../../migrations");
  const older = join(dataDir(), "migrations");
  mkdirSync(older);
  for (const name of listMigrationFiles(migrations).slice(0, -1)) copyFileSync(join(migrations, name), join(older, name));
  const { Miniflare, convertV4MiniflareOptions } = await import("miniflare");
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: 0,
      cf: false,
      telemetry: { enabled: false },
      resourcePersistencePath: join(dir, "v3"),
      name: config.name,
      modules: true,
      script: "export default { fetch() { return new Response(null, { status: 404 }); } };",
      compatibilityDate: config.compatibility_date,
      d1Databases: { [binding]: preview_database_id ?? database_id },
    }),
  );
  try {
    await mf.ready;
    await applyMigrations(await mf.getD1Database(binding, config.name), older);
  } finally {
    await mf.dispose();
  }
}

/** The names in d1_migrations of the data folder's database. */
function appliedMigrations(dir) {
  const db = openD1(dir);
  try {
    return db.prepare("SELECT name FROM d1_migrations ORDER BY id").all().map((row) => row.name);
  } finally {
    db.close();
  }
}

afterAll(async () => {
  for (const server of servers) await stopServer(server);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the npm start launcher", () => {
  it("stops on a Node that cannot run it with one line naming the Node it needs and the npm command", { timeout: 60_000 }, async () => {
    // The project's own Node without type stripping fails to load the app's TypeScript as an older Node
    // does, so this holds on any machine; the machine's older Nodes are run as well.
    const runs = [
      {
        node: process.execPath,
        nodeArgs: ["--no-experimental-strip-types"],
        message: /^flagstaff: Node \S+ runs with TypeScript type stripping turned off \(--no-experimental-strip-types.*\), which Flagstaff needs; start it with `npm run serve` \(or `npm start` to build first\) without that flag$/,
      },
      ...olderNodes().map((node) => ({
        node,
        nodeArgs: [],
        message: /^flagstaff: Node \S+ is too old: Flagstaff needs Node ≥ 22\.18, which `npm install` puts in node_modules; start it with `npm run serve` \(or `npm start` to build first\), not with node directly$/,
      })),
    ];
    for (const { node, nodeArgs, message } of runs) {
      const dir = join(dataDir(), "data");
      const run = await runToExit({ node, nodeArgs, env: { FLAGSTAFF_DATA_DIR: dir, FLAGSTAFF_PORT: String(await freePort()), ...NO_DOCKER } });
      const label = [node, ...nodeArgs].join(" ");
      expect(run.code, label).toBe(1);
      expect(run.stderr.trim().split("\n"), label).toHaveLength(1);
      expect(run.stderr.trim(), label).toMatch(message);
      expect(run.stdout, label).toBe("");
      expect(existsSync(dir), label).toBe(false);
    }
  });

  it("stops at a setting it cannot use with one line naming it, before touching the data folder", { timeout: 60_000 }, async () => {
    const file = join(dataDir(), "a-file");
    writeFileSync(file, "");
    const cases = [
      [{ FLAGSTAFF_PORT_MAPPING: "Proxy" }, /^flagstaff: FLAGSTAFF_PORT_MAPPING must be Default or PlatformProxy, got "Proxy"$/m],
      [{ FLAGSTAFF_SMTP_SECURITY: "ssl" }, /^flagstaff: FLAGSTAFF_SMTP_SECURITY must be none, starttls or tls/m],
      [{ FLAGSTAFF_INSPECTOR_PORT: "abc" }, /^flagstaff: FLAGSTAFF_INSPECTOR_PORT must be a port number/m],
      [{ FLAGSTAFF_AGENTS: "http://127.0.0.1:8788", FLAGSTAFF_AGENT_SECRET: "" }, /^flagstaff: FLAGSTAFF_AGENTS is set, so FLAGSTAFF_AGENT_SECRET must be/m],
      [{ FLAGSTAFF_DATA_DIR: file }, new RegExp(`^flagstaff: the data folder ${file} \\(FLAGSTAFF_DATA_DIR\\) is a file, not a folder$`, "m")],
      [{ FLAGSTAFF_DATA_DIR: join(file, "data") }, /^flagstaff: cannot create the data folder .* a part of its path is a file$/m],
      // Node's own recursive mkdir never returns here.
      [{ FLAGSTAFF_DATA_DIR: "/proc/flagstaff-data" }, /^flagstaff: cannot create the data folder \/proc\/flagstaff-data \(FLAGSTAFF_DATA_DIR\): E[A-Z]+:/m],
      [{ FLAGSTAFF_DATA_DIR: "/sys/flagstaff-data/x" }, /^flagstaff: cannot create the data folder \/sys\/flagstaff-data\/x \(FLAGSTAFF_DATA_DIR\): E[A-Z]+:/m],
    ];
    for (const [env, message] of cases) {
      const dir = join(dataDir(), "data");
      const run = await runToExit({ env: { FLAGSTAFF_DATA_DIR: dir, FLAGSTAFF_PORT: String(await freePort()), ...NO_DOCKER, ...env } });
      const label = JSON.stringify(env);
      expect(run.code, label).toBe(1);
      expect(run.stderr, label).toMatch(message);
      expect(run.stderr.trim().split("\n"), label).toHaveLength(1);
      expect(run.stdout, label).toBe("");
      if (!env.FLAGSTAFF_DATA_DIR) expect(existsSync(dir), label).toBe(false);
    }
  });

  it("stops at a public port another program holds before it migrates the folder or makes the first admin", { timeout: 60_000 }, async () => {
    const port = await freePort();
    const holder = createServer();
    await new Promise((listening) => holder.listen(port, "127.0.0.1", listening));
    try {
      const dir = join(dataDir(), "data");
      const run = await runToExit({ env: { FLAGSTAFF_DATA_DIR: dir, FLAGSTAFF_PORT: String(port), ...NO_DOCKER } });
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split("\n")).toEqual([`flagstaff: could not listen on 127.0.0.1:${port}: the port is in use (FLAGSTAFF_PORT)`]);
      expect(run.stdout).not.toMatch(/Admin account|Applied D1 migrations/);
      // The folder was locked and given back, nothing else: the next start on a free port makes the admin.
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      await new Promise((closed) => holder.close(closed));
    }
  });

  it("serves a data folder from one server only, even when two start at the same moment", { timeout: 180_000 }, async () => {
    const dir = dataDir();
    const [portA, portB] = [await freePort(), await freePort()];
    const starts = await Promise.allSettled([
      startServer({ dataDir: dir, port: portA, env: NO_DOCKER }),
      startServer({ dataDir: dir, port: portB, env: NO_DOCKER }),
    ]);
    for (const start of starts) if (start.status === "fulfilled") servers.push(start.value);
    expect(starts.map((start) => start.status).sort()).toEqual(["fulfilled", "rejected"]);
    const running = starts.find((start) => start.status === "fulfilled").value;
    const refused = starts.find((start) => start.status === "rejected").reason.message;
    expect(refused).toContain(`flagstaff: another Flagstaff server (pid ${running.child.pid}) is using ${dir}`);
    expect(refused).toMatch(/server exited \(1\)/);
    expect(refused).not.toMatch(/\n\s+at /);

    // And later, while it runs.
    const late = await runToExit({ env: { FLAGSTAFF_DATA_DIR: dir, FLAGSTAFF_PORT: String(await freePort()), ...NO_DOCKER } });
    expect(late.code).toBe(1);
    expect(late.stderr.trim()).toBe(`flagstaff: another Flagstaff server (pid ${running.child.pid}) is using ${dir}`);
    expect((await fetch(`${running.base}/api/config`)).status).toBe(200);
    await stopServer(running);
  });

  it("holds the first admin's settings to the rules only when it makes the admin", { timeout: 150_000 }, async () => {
    const dir = dataDir();
    const weak = { FLAGSTAFF_ADMIN_USER: "ab", FLAGSTAFF_ADMIN_PASSWORD: "abcdef" };
    // A new data folder, missing or empty: one line per refused setting, and the folder as it was.
    const missing = join(dataDir(), "data");
    for (const [folder, env] of [
      [missing, { FLAGSTAFF_ADMIN_PASSWORD: "weak" }],
      [dir, { FLAGSTAFF_ADMIN_PASSWORD: "weak" }],
      [dir, weak],
    ]) {
      const refused = await runToExit({ env: { FLAGSTAFF_DATA_DIR: folder, FLAGSTAFF_PORT: String(await freePort()), ...NO_DOCKER, ...env } });
      const label = JSON.stringify(env);
      expect(refused.code, label).toBe(1);
      expect(refused.stderr.trim().split("\n"), label).toEqual(
        env === weak
          ? ['flagstaff: FLAGSTAFF_ADMIN_USER: User name must be 3 to 15 characters, got "ab"', "flagstaff: FLAGSTAFF_ADMIN_PASSWORD: Password must contain an uppercase letter"]
          : ["flagstaff: FLAGSTAFF_ADMIN_PASSWORD: Password must be at least 6 characters"],
      );
      expect(refused.stdout, label).toBe("");
    }
    expect(existsSync(missing)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);

    // The same folder with settings inside the rules: the admin is made.
    const first = await startServer({ dataDir: dir, port: await freePort(), env: NO_DOCKER });
    servers.push(first);
    expect(first.output()).toContain(`Admin account: username=${ADMIN.userName} password=${ADMIN.password}`);
    await stopServer(first);

    // An upgraded install still setting values an older release accepted: its admin exists, so they are ignored.
    const again = await startServer({ dataDir: dir, port: await freePort(), env: { ...NO_DOCKER, ...weak } });
    servers.push(again);
    expect(again.output()).not.toContain("Admin account:");
    const admin = new Client(again.base);
    await admin.ok("/api/account/login", { method: "POST", body: ADMIN });
    expect((await admin.ok("/api/account/profile")).role).toBe("Admin");
    await stopServer(again);
  });

  it("checks the first admin's settings for a database without an admin before it migrates it", { timeout: 150_000 }, async () => {
    // A folder an older release migrated and never made an admin in (a start stopped between the two).
    const dir = dataDir();
    await migrateAllButLast(dir);
    const migrations = listMigrationFiles(resolve(import.meta.dirname, "../../migrations"));
    expect(appliedMigrations(dir)).toEqual(migrations.slice(0, -1));

    const refused = await runToExit({ env: { FLAGSTAFF_DATA_DIR: dir, FLAGSTAFF_PORT: String(await freePort()), ...NO_DOCKER, FLAGSTAFF_ADMIN_PASSWORD: "weak" }, timeoutMs: 90_000 });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split("\n")).toEqual(["flagstaff: FLAGSTAFF_ADMIN_PASSWORD: Password must be at least 6 characters"]);
    expect(refused.stdout).toBe("");
    expect(appliedMigrations(dir)).toEqual(migrations.slice(0, -1));
    expect(existsSync(join(dir, "server.lock.json"))).toBe(false);

    // Settings inside the rules: the last migration is applied and the admin made.
    const server = await startServer({ dataDir: dir, port: await freePort(), env: NO_DOCKER });
    servers.push(server);
    expect(server.output()).toContain(`Applied D1 migrations: ${migrations.at(-1)}`);
    expect(server.output()).toContain(`Admin account: username=${ADMIN.userName} password=${ADMIN.password}`);
    await stopServer(server);
  });

  it("creates the first admin before the port takes a registration", { timeout: 120_000 }, async () => {
    const dir = dataDir();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // Someone registers the admin's name from the first moment the port answers.
    let ready = false;
    const answers = [];
    const squatter = (async () => {
      for (let i = 0; !ready; i++) {
        try {
          const res = await fetch(`${base}/api/account/register`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ userName: ADMIN.userName, password: "Squat1234!", email: `squat${i}@example.com` }),
          });
          answers.push(res.status);
          await res.body?.cancel();
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      }
    })();
    const server = await startServer({ dataDir: dir, port, env: NO_DOCKER });
    servers.push(server);
    ready = true;
    await squatter;
    expect(server.output()).toContain(`Admin account: username=${ADMIN.userName} password=${ADMIN.password}`);
    expect(answers).not.toContain(200);
    const admin = new Client(server.base);
    await admin.ok("/api/account/login", { method: "POST", body: ADMIN });
    expect((await admin.ok("/api/account/profile")).role).toBe("Admin");
    await stopServer(server);
  });

  it("leaves no container agent behind when the launcher is SIGKILLed", { timeout: 180_000 }, async () => {
    const dir = dataDir();
    const port = await freePort();
    const env = { DOCKER_HOST, FLAGSTAFF_DOCKER_HOST: DOCKER_HOST };
    const first = await startServer({ dataDir: dir, port, env });
    servers.push(first);
    expect(first.output()).toContain("Containers are enabled: agent at");
    const lock = JSON.parse(readFileSync(join(dir, "server.lock.json"), "utf8"));
    expect(lock.server.pid).toBe(first.child.pid);
    expect(alive(lock.agent.pid)).toBe(true);
    expect(lock.runtimes.length).toBeGreaterThan(0);

    // Only the launcher: its workerd and agent are left to themselves.
    process.kill(first.child.pid, "SIGKILL");
    expect(await waitFor(() => !alive(lock.agent.pid), 15_000)).toBe(true);

    // The next start stops the workerd left holding the folder's files and serves.
    const second = await startServer({ dataDir: dir, port, env });
    servers.push(second);
    expect(second.output()).toMatch(/flagstaff: stopped what a killed server left running \(workerd \d+/);
    for (const runtime of lock.runtimes) expect(alive(runtime.pid)).toBe(false);
    expect(second.output()).toContain("Containers are enabled: agent at");
    await stopServer(second);
  });

  it("starts the container agent again when it dies while the server runs, and says so", { timeout: 180_000 }, async () => {
    const dir = dataDir();
    const server = await startServer({ dataDir: dir, port: await freePort(), env: { DOCKER_HOST, FLAGSTAFF_DOCKER_HOST: DOCKER_HOST } });
    servers.push(server);
    const agentUrl = /Containers are enabled: agent at (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output())?.[1];
    expect(agentUrl).toBeDefined();
    const lockPath = join(dir, "server.lock.json");
    const died = JSON.parse(readFileSync(lockPath, "utf8")).agent.pid;

    process.kill(died, "SIGKILL");
    expect(await waitFor(() => /the container agent stopped unexpectedly \(SIGKILL\) and was restarted \(pid \d+\)/.test(server.output()), 60_000)).toBe(true);
    const restarted = Number(/and was restarted \(pid (\d+)\)/.exec(server.output())[1]);
    expect(restarted).not.toBe(died);
    expect(alive(restarted)).toBe(true);
    // The lock names the new agent (a start after the launcher's death stops it), and it answers on its port.
    expect(JSON.parse(readFileSync(lockPath, "utf8")).agent.pid).toBe(restarted);
    expect((await fetch(`${agentUrl}/health`)).status).toBeLessThan(500);
    await stopServer(server);
    expect(await waitFor(() => !alive(restarted), 15_000)).toBe(true);
  });

  it("records a runtime restarted after a crash, so a start after the launcher's death stops it too", { timeout: 180_000 }, async () => {
    const dir = dataDir();
    const port = await freePort();
    const first = await startServer({ dataDir: dir, port, env: NO_DOCKER });
    servers.push(first);
    const lockPath = join(dir, "server.lock.json");
    const crashed = JSON.parse(readFileSync(lockPath, "utf8")).runtimes.map((r) => r.pid);
    expect(crashed).toHaveLength(1);

    // workerd dies; Miniflare starts another, which the operator hears of and the lock names.
    process.kill(crashed[0], "SIGKILL");
    expect(await waitFor(() => /the runtime \(workerd\) stopped unexpectedly and was restarted \(workerd \d+\)/.test(first.output()), 60_000)).toBe(true);
    const restarted = JSON.parse(readFileSync(lockPath, "utf8")).runtimes.map((r) => r.pid);
    expect(restarted).toHaveLength(1);
    expect(restarted[0]).not.toBe(crashed[0]);
    expect(alive(restarted[0])).toBe(true);
    expect((await new Client(first.base).json("/api/config")).status).toBe(200);

    // The launcher dies: the next start stops the restarted runtime, which no longer answers.
    process.kill(first.child.pid, "SIGKILL");
    const second = await startServer({ dataDir: dir, port: await freePort(), env: NO_DOCKER });
    servers.push(second);
    expect(second.output()).toContain(`flagstaff: stopped what a killed server left running (workerd ${restarted[0]})`);
    expect(alive(restarted[0])).toBe(false);
    await stopServer(second);
  });

  it("stops with one line when a runtime that died cannot be started again, and gives the folder back", { timeout: 180_000 }, async () => {
    // The build being served is removed under the running server (an upgrade gone wrong): the runtime
    // that replaces a dead one cannot start. Before, the launcher stayed up, answering nothing, for good.
    const build = join(dataDir(), "build");
    cpSync(resolve(process.env.FLAGSTAFF_BUILD_DIR ?? "build"), build, { recursive: true });
    const dir = dataDir();
    const server = await startServer({ dataDir: dir, port: await freePort(), env: { ...NO_DOCKER, FLAGSTAFF_BUILD_DIR: build } });
    servers.push(server);
    const lockPath = join(dir, "server.lock.json");
    const [runtime] = JSON.parse(readFileSync(lockPath, "utf8")).runtimes.map((r) => r.pid);
    expect((await new Client(server.base).json("/api/config")).status).toBe(200);

    rmSync(join(build, "client"), { recursive: true });
    process.kill(runtime, "SIGKILL");
    expect(await waitFor(() => server.child.exitCode !== null, 60_000), server.output()).toBe(true);
    expect(server.child.exitCode).toBe(1);
    expect(server.output()).toMatch(/^flagstaff: the runtime \(workerd\) stopped unexpectedly and could not be started again: .+; the server stops$/m);
    expect(existsSync(lockPath)).toBe(false);
    // Nothing is left holding the folder: the next start serves it without stopping anything first.
    const next = await startServer({ dataDir: dir, port: await freePort(), env: NO_DOCKER });
    servers.push(next);
    expect(next.output()).not.toContain("stopped what a killed server left running");
    expect((await new Client(next.base).json("/api/config")).status).toBe(200);
    await stopServer(next);
  });
});
