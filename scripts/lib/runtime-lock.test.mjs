import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDataDir, DataDirInUse, processInfo, recordAgent, releaseDataDir } from "./runtime-lock.mjs";

const LOCK_MODULE = new URL("./runtime-lock.mjs", import.meta.url).href;
const LOCK = "server.lock.json";

const dirs = [];
const children = [];
const strays = [];
afterEach(() => {
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  }
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), "flagstaff-lock-"));
  dirs.push(dir);
  return dir;
}

/** A Node process running `body` (ES module; `lock` is runtime-lock.mjs); resolves with its first line. */
function node(body) {
  const child = spawn(process.execPath, ["--input-type=module", "-e", `const lock = await import(${JSON.stringify(LOCK_MODULE)});\n${body}`], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const firstLine = new Promise((resolve) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (out.includes("\n")) resolve(out.split("\n")[0]);
    });
    child.on("exit", () => resolve(out.split("\n")[0]));
  });
  return { child, firstLine };
}

/** A process that runs (an exited one its parent has not reaped yet counts as gone). */
const alive = (pid) => processInfo(pid) !== undefined;

async function waitFor(check, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("the data folder lock", () => {
  it("goes to exactly one of several servers starting together; the others are told who holds it", async () => {
    const dir = tempDir();
    // Each takes the lock (or not) and stays up, as a server would.
    const racers = Array.from({ length: 6 }, () =>
      node(`try { await lock.acquireDataDir(${JSON.stringify(dir)}); console.log("ok"); } catch (e) { console.log("refused " + e.message); }\nsetTimeout(() => {}, 60_000);`),
    );
    const lines = await Promise.all(racers.map((r) => r.firstLine));
    expect(lines.filter((line) => line === "ok")).toHaveLength(1);
    const winner = racers[lines.indexOf("ok")].child.pid;
    for (const line of lines.filter((l) => l !== "ok")) {
      expect(line).toBe(`refused another Flagstaff server (pid ${winner}) is using ${dir}`);
    }
    expect(JSON.parse(readFileSync(join(dir, LOCK), "utf8")).server.pid).toBe(winner);
    // Not this process either, while the winner lives.
    await expect(acquireDataDir(dir)).rejects.toBeInstanceOf(DataDirInUse);
  });

  it("is taken over from a killed server, whose container agent is stopped", async () => {
    const dir = tempDir();
    // A "server" that takes the lock and records a child standing in for its agent, then is SIGKILLed.
    const server = node(
      `const { spawn } = await import("node:child_process");\n` +
        `await lock.acquireDataDir(${JSON.stringify(dir)});\n` +
        `const agent = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore", detached: true });\n` +
        `lock.recordAgent(${JSON.stringify(dir)}, agent.pid);\n` +
        `console.log(agent.pid);\nsetTimeout(() => {}, 60_000);`,
    );
    const agentPid = Number(await server.firstLine);
    strays.push(agentPid);
    expect(alive(agentPid)).toBe(true);
    server.child.kill("SIGKILL");
    await waitFor(() => server.child.exitCode !== null || server.child.signalCode !== null);
    expect(alive(agentPid)).toBe(true);

    const note = await acquireDataDir(dir);
    expect(note).toContain(`container agent ${agentPid}`);
    await waitFor(() => !alive(agentPid));
    expect(JSON.parse(readFileSync(join(dir, LOCK), "utf8")).server.pid).toBe(process.pid);
    recordAgent(dir, process.pid);
    expect(JSON.parse(readFileSync(join(dir, LOCK), "utf8")).agent.pid).toBe(process.pid);
    releaseDataDir(dir);
    expect(existsSync(join(dir, LOCK))).toBe(false);
  });

  it("treats an unreadable lock as stale and leaves no temporary files", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK), "{");
    expect(await acquireDataDir(dir)).toBeUndefined();
    releaseDataDir(dir);
    expect(existsSync(join(dir, LOCK))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});
