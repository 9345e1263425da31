/** `npm start`: the agent with settings from the environment; SIGINT/SIGTERM stop it, containers keep running. */
import { Agent } from "./agent.ts";
import { ConfigError, loadConfig } from "./config.ts";

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`flagstaff-agent: ${error.message}\n`);
    process.exit(2);
  }
  throw error;
}

let agent: Agent | undefined = undefined;
let stopping = false;
/** Stops serving (containers keep running); before the agent is up there is nothing to stop. */
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  if (!agent) process.exit(0);
  agent.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, shutdown);
// Started by `npm start` (scripts/start.mjs) with an IPC channel: it closes when that launcher goes away,
// even SIGKILLed, and the agent stops with it rather than live on under the id the next start's agent
// gets (it would reap that agent's containers as untracked). A standalone agent has no channel.
if (process.channel) {
  process.channel.unref();
  process.once("disconnect", shutdown);
}

agent = await Agent.start({ config }).catch((error: unknown) => {
  process.stderr.write(`flagstaff-agent: cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
