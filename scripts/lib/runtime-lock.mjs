// One server per data folder. The lock file is taken before anything touches the folder: it is made
// complete under a private name and hard-linked to its place, which fails when it exists, so of two
// servers starting together exactly one gets it, and its content is never seen half written.
// Miniflare's workerd child and the container agent outlive a SIGKILLed launcher, keeping the port, the
// SQLite files and the agent's id; the lock records them (pid + kernel start time, so a reused pid is
// never mistaken for ours) and the next start stops such leftovers before serving the same state.
import { linkSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const LOCK_NAME = "server.lock.json";

/** {ppid, startTime, comm} of a live Linux process, or undefined (a zombie counts as gone). */
export function processInfo(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const fields = stat.slice(close + 2).split(" ");
    // fields[0] is field 3 (state); ppid is field 4, starttime field 22.
    if (fields[0] === "Z") return undefined;
    return { ppid: Number(fields[1]), startTime: fields[19], comm };
  } catch {
    return undefined;
  }
}

const onLinux = process.platform === "linux";

/** Whether the process a lock entry names still runs (elsewhere than Linux: any process with its pid). */
function alive(entry) {
  if (!entry || !Number.isInteger(entry.pid)) return false;
  if (onLinux) return processInfo(entry.pid)?.startTime === entry.startTime;
  try {
    process.kill(entry.pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

function describe(pid) {
  if (!onLinux) return { pid, startTime: null };
  const info = processInfo(pid);
  return info === undefined ? undefined : { pid, startTime: info.startTime };
}

function childrenNamed(parentPid, name) {
  if (!onLinux) return [];
  const pids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const info = processInfo(Number(entry));
    if (info?.ppid === parentPid && info.comm === name) pids.push(Number(entry));
  }
  return pids;
}

async function waitGone(entry, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (alive(entry) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function readLock(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    if (error.code === "ENOENT") return undefined;
    // Unreadable as JSON: no process can be proven to own it.
    if (error instanceof SyntaxError) return {};
    throw error;
  }
}

/** Writes `lock` to `path` whole: a private file first, then linked (exclusive) or renamed (replace). */
function placeLock(path, lock, { exclusive }) {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(lock) + "\n");
  try {
    if (exclusive) linkSync(temp, path);
    else renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
}

export class DataDirInUse extends Error {}

const inUse = (pid, dataDir) => new DataDirInUse(`another Flagstaff server (pid ${pid}) is using ${dataDir}`);

/** Stops what a dead server left running: workerd at once, the agent with SIGTERM first (it saves its state). */
async function stopLeftovers(lock) {
  const stopped = [];
  for (const runtime of lock.runtimes ?? []) {
    if (!alive(runtime)) continue;
    process.kill(runtime.pid, "SIGKILL");
    await waitGone(runtime, 5000);
    stopped.push(`workerd ${runtime.pid}`);
  }
  if (alive(lock.agent)) {
    process.kill(lock.agent.pid, "SIGTERM");
    await waitGone(lock.agent, 8000);
    if (alive(lock.agent)) {
      process.kill(lock.agent.pid, "SIGKILL");
      await waitGone(lock.agent, 5000);
    }
    stopped.push(`container agent ${lock.agent.pid}`);
  }
  return stopped;
}

/**
 * Takes `dataDir` for this process before anything else touches it. Throws DataDirInUse when a live
 * server holds it; stops what a dead one left running (workerd, container agent) and takes it over.
 * Returns a message for the log, or undefined when there was nothing to do.
 */
export async function acquireDataDir(dataDir) {
  const path = join(dataDir, LOCK_NAME);
  const stopped = [];
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      placeLock(path, { server: describe(process.pid), runtimes: [], agent: null }, { exclusive: true });
      return stopped.length > 0 ? `stopped what a killed server left running (${stopped.join(", ")})` : undefined;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    const lock = readLock(path);
    if (lock === undefined) continue;
    if (alive(lock.server)) throw inUse(lock.server.pid, dataDir);
    // Stale. Only the starter that moves it away cleans up after it; if what it moved turns out to be a
    // live server's lock (placed between our read and the move), it goes back and we give way.
    const claimed = `${path}.${process.pid}.stale`;
    try {
      renameSync(path, claimed);
    } catch (error) {
      if (error.code === "ENOENT") continue;
      throw error;
    }
    const moved = readLock(claimed) ?? {};
    if (alive(moved.server)) {
      try {
        linkSync(claimed, path);
      } catch {
        // Another starter took the place meanwhile; it checks for itself.
      }
      rmSync(claimed, { force: true });
      throw inUse(moved.server.pid, dataDir);
    }
    try {
      stopped.push(...(await stopLeftovers(moved)));
    } finally {
      rmSync(claimed, { force: true });
    }
  }
  throw new Error(`could not take the lock ${path}: it keeps changing`);
}

/** Changes this process's lock; a lock that is not ours (taken over after we were presumed dead) is left alone. */
function updateLock(dataDir, change) {
  const path = join(dataDir, LOCK_NAME);
  const lock = readLock(path);
  if (!lock || lock.server?.pid !== process.pid) return;
  placeLock(path, change(lock), { exclusive: false });
}

/** This process's workerd children. */
export const runtimePids = () => childrenNamed(process.pid, "workerd");

/** After a Miniflare instance is ready, or has restarted its runtime: records this process's workerd children. */
export function recordRuntimes(dataDir) {
  const runtimes = runtimePids().map(describe).filter(Boolean);
  updateLock(dataDir, (lock) => ({ ...lock, runtimes }));
}

/** Right after the container agent was spawned: records it (the next start stops it if we die). */
export function recordAgent(dataDir, pid) {
  const agent = describe(pid) ?? null;
  updateLock(dataDir, (lock) => ({ ...lock, agent }));
}

/** On a clean stop: removes the lock if it is ours. */
export function releaseDataDir(dataDir) {
  const path = join(dataDir, LOCK_NAME);
  if (readLock(path)?.server?.pid === process.pid) rmSync(path, { force: true });
}
