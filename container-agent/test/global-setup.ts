/** Fails early with the fix when the engine or the test images are missing; builds the images if needed. */
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export default function setup() {
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
}
