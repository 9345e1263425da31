/** The id of the container agent `npm start` runs for `dataDir` (FLAGSTAFF_AGENT_ID when set in `env`). */
export function localAgentId(dataDir: string, env?: Record<string, string | undefined>): string;
/** Removes every container labelled with `agentId` on the engine at `dockerHost`; returns their ids. */
export function removeAgentContainers(agentId: string, dockerHost: string): string[];
/** The label naming a container's agent (core/agent-protocol AGENT_LABELS.agent). */
export const AGENT_LABEL: string;
