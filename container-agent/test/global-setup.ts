/**
 * Fails early with the fix when the engine or the test images are missing, builds the images if needed,
 * and removes containers that an interrupted earlier run of these tests left on the test engine.
 */
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Dockerode from "dockerode";
import { parseDockerHost } from "../src/config.ts";

export default async function setup() {
  const host = process.env.DOCKER_HOST ?? "unix:///tmp/flagstaff-docker.sock";
  process.env.DOCKER_HOST = host;
  const script = join(dirname(fileURLToPath(import.meta.url)), "..", "scripts", "test-image.sh");
  try {
    execFileSync(script, { stdio: "inherit", env: { ...process.env, DOCKER_HOST: host } });
  } catch {
    throw new Error(
      `The agent tests need a Docker engine at ${host} and the test images. Start one with container-agent/scripts/dockerd.sh (or npm test from the repository root).`,
    );
  }
  const docker = new Dockerode(parseDockerHost(host));
  const stale = await docker.listContainers({ all: true, filters: { label: ["flagstaff.agent"] } });
  // Test agents are named test-<8 hex>; nothing else on the engine is touched.
  const leftovers = stale.filter((c) => /^test-[0-9a-f]{8}$/.test(c.Labels["flagstaff.agent"] ?? ""));
  await Promise.all(leftovers.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => {})));
}
