// One server per data folder. Miniflare's workerd child outlives a SIGKILLed node parent and keeps the
// port and the SQLite files; the lock file records both processes (pid + kernel start time, so a reused
// pid is never mistaken for ours) and the next start stops such a leftover before serving the same state.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const LOCK_NAME = "server.lock.json";

/** {ppid, startTime, comm} of a live Linux process, or undefined. */
function processInfo(pid) {
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

const sameProcess = (entry) => entry !== undefined && processInfo(entry.pid)?.startTime === entry.startTime;

function describe(pid) {
  const info = processInfo(pid);
  return info === undefined ? undefined : { pid, startTime: info.startTime };
}

function childrenNamed(parentPid, name) {
  const pids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const info = processInfo(Number(entry));
    if (info?.ppid === parentPid && info.comm === name) pids.push(Number(entry));
  }
  return pids;
}

async function waitGone(pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (processInfo(pid) !== undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Before starting: refuses when a live server owns `dataDir`, and kills a workerd left behind by a
 * server that was SIGKILLed. Returns a message for the log, or undefined when there was nothing to do.
 */
export async function takeOverDataDir(dataDir) {
  if (process.platform !== "linux") return undefined;
  let lock;
  try {
    lock = JSON.parse(readFileSync(join(dataDir, LOCK_NAME), "utf8"));
  } catch {
    return undefined;
  }
  if (sameProcess(lock.server) && lock.server.pid !== process.pid) {
    throw new Error(`another Flagstaff server (pid ${lock.server.pid}) is using ${dataDir}`);
  }
  const stopped = [];
  for (const runtime of lock.runtimes ?? []) {
    if (!sameProcess(runtime)) continue;
    process.kill(runtime.pid, "SIGKILL");
    await waitGone(runtime.pid, 5000);
    stopped.push(runtime.pid);
  }
  rmSync(join(dataDir, LOCK_NAME), { force: true });
  return stopped.length > 0 ? `stopped workerd left running by a killed server (pid ${stopped.join(", ")})` : undefined;
}

/** After Miniflare is ready: records this process and its workerd children. */
export function writeLock(dataDir) {
  if (process.platform !== "linux") return;
  const runtimes = childrenNamed(process.pid, "workerd").map(describe).filter(Boolean);
  const lock = { server: describe(process.pid), runtimes };
  writeFileSync(join(dataDir, LOCK_NAME), JSON.stringify(lock) + "\n");
}

export function removeLock(dataDir) {
  rmSync(join(dataDir, LOCK_NAME), { force: true });
}
