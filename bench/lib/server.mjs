// Starts `scripts/start.mjs` (the `npm start` server) on the built app with its own data folder and port,
// and stops it by its own process group.
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export function startServer({ port, dataDir, env = {}, timeoutMs = 60_000 }) {
  const child = spawn(process.execPath, [join(ROOT, "scripts", "start.mjs")], {
    cwd: ROOT,
    env: {
      ...process.env,
      FLAGSTAFF_PORT: String(port),
      FLAGSTAFF_DATA_DIR: dataDir,
      FLAGSTAFF_DISABLE_RATE_LIMIT: "true",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  const collect = (d) => {
    output += d;
    if (output.length > 20_000) output = output.slice(-10_000);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const started = performance.now();
  const ready = new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`server not running after ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const check = () => {
      const m = output.match(/Flagstaff is running at (\S+)/);
      if (m) {
        clearTimeout(timer);
        resolveReady(m[1]);
      }
    };
    child.stdout.on("data", check);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before it was running:\n${output}`));
    });
  });
  const exited = new Promise((r) => child.on("exit", r));
  async function stop() {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(child.pid, "SIGTERM");
    } catch {
      return;
    }
    const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 10_000))]);
    if (!done) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      await exited;
    }
  }
  return {
    pid: child.pid,
    output: () => output,
    ready: ready.then((url) => ({ url, startMs: performance.now() - started })),
    stop,
    kill() {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    },
  };
}
