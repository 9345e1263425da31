// The container agent `npm start` runs beside a data folder, as the tools that clean up after it see it.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";

/**
 * The label every container of an agent carries: app/core/agent-protocol.ts AGENT_LABELS.agent (local-agent.test.mjs
 * holds them equal). Not imported from there: `npm start` loads this file before it checks that its Node can run
 * TypeScript at all, and must say so in one line rather than fail on the import.
 */
export const AGENT_LABEL = "flagstaff.agent";

/**
 * The id of the agent `npm start` runs for `dataDir`: FLAGSTAFF_AGENT_ID when set, else stable per data folder
 * (re-adoption after a restart) and distinct between folders, so agents of two local servers on one engine
 * never adopt or reap each other's containers.
 */
export function localAgentId(dataDir, env = process.env) {
  return env.FLAGSTAFF_AGENT_ID || `local-${createHash("sha256").update(dataDir).digest("hex").slice(0, 12)}`;
}

/**
 * Removes every container (running or not, with its anonymous volumes) labelled with `agentId` on the engine at
 * `dockerHost`; returns the removed containers' ids. For a server whose data folder is going away: no agent
 * will ever adopt its containers again, and its own reaper stopped with it.
 */
export function removeAgentContainers(agentId, dockerHost) {
  const docker = (...args) => execFileSync("docker", args, { env: { ...process.env, DOCKER_HOST: dockerHost }, encoding: "utf8", timeout: 30_000 });
  const ids = docker("ps", "-aq", "--no-trunc", "--filter", `label=${AGENT_LABEL}=${agentId}`).split("\n").filter(Boolean);
  if (ids.length > 0) docker("rm", "-f", "-v", ...ids);
  return ids;
}
