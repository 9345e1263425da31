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

const agent = await Agent.start({ config }).catch((error: unknown) => {
  process.stderr.write(`flagstaff-agent: cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    agent.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
