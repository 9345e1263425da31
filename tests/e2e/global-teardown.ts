import { localAgentId, removeAgentContainers } from "../../scripts/lib/local-agent.mjs";

/**
 * After the run: removes the containers of the e2e server's agent. A test that fails before it destroys its
 * container leaves it running, and the run's data folder is deleted afterwards, so no agent would ever adopt or
 * reap it again (its id comes from that folder).
 */
export default function removeLeftContainers(): void {
  const dataDir = process.env.FLAGSTAFF_E2E_DATA_DIR;
  if (!dataDir) return;
  const dockerHost = process.env.DOCKER_HOST ?? "unix:///tmp/flagstaff-docker.sock";
  try {
    const removed = removeAgentContainers(localAgentId(dataDir), dockerHost);
    if (removed.length > 0) console.log(`e2e teardown: removed ${removed.length} container(s) this run's server left running`);
  } catch (error) {
    // No engine (the container tests have failed with the reason already): nothing of ours can be running on it.
    console.error(`e2e teardown: could not remove this run's containers: ${error instanceof Error ? error.message : String(error)}`);
  }
}
