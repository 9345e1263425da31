import type { ContainerDeps } from "~/.server/services/containers";
import type { ApiContext } from "./context";
import { logEvent } from "./log";

/** Dependencies of the container service for a request: database, clock, agents (env) and its log. */
export const containerDeps = (c: ApiContext): ContainerDeps => ({
  db: c.get("db"),
  now: c.get("now"),
  env: c.env,
  log: (entry) => logEvent(c, entry),
});
