// The ceiling of this runtime: plain `workerd serve` (the binary Miniflare runs, same version) with a
// worker that answers a constant "ok", on its own loopback port. No Miniflare, no entry worker.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOST, waitForUrl } from "./net.mjs";

const require = createRequire(import.meta.url);

function workerdBinary() {
  // The workerd package of the pinned miniflare (package.json `overrides`).
  const pkg = require.resolve("workerd/package.json", { paths: [require.resolve("miniflare")] });
  return join(pkg, "..", "bin", "workerd");
}

export async function startCeiling(port, compatibilityDate) {
  const dir = mkdtempSync(join(tmpdir(), "flagstaff-bench-ceiling-"));
  writeFileSync(join(dir, "worker.js"), 'export default { fetch() { return new Response("ok"); } };\n');
  writeFileSync(
    join(dir, "config.capnp"),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .mainWorker)],
  sockets = [(name = "http", address = "${HOST}:${port}", http = (), service = "main")],
);
const mainWorker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "${compatibilityDate}",
);
`,
  );
  const child = spawn(workerdBinary(), ["serve", join(dir, "config.capnp")], { stdio: ["ignore", "ignore", "pipe"], detached: true });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const url = `http://${HOST}:${port}/`;
  try {
    await waitForUrl(url, 15_000);
  } catch (error) {
    stop();
    throw new Error(`plain workerd did not start: ${error.message}; ${stderr.slice(0, 500)}`);
  }
  function stop() {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return { url, stop, pid: child.pid };
}
