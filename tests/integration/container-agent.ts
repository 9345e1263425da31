/**
 * Integration globalSetup: a real container agent for tests/integration/containers.test.ts, on the private
 * test dockerd. `agentTestBindings()` (called by the config) picks its port and secret and points the
 * Worker at it — plus a second, dead agent URL, so the Worker always knows an unreachable agent. Without a
 * Docker engine the agent is not started and the container tests fail with the reason (never skipped).
 */
import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { dockerProblem, type RunningAgent, startAgent, TEST_DOCKER_HOST } from "../support/container-agent";
import { freePort } from "../support/mail-server";

export async function agentTestBindings(): Promise<Record<string, string>> {
  const port = Number(process.env.FLAGSTAFF_TEST_AGENT_PORT) || (await freePort());
  const dead = Number(process.env.FLAGSTAFF_TEST_DEAD_AGENT_PORT) || (await freePort());
  const secret = process.env.FLAGSTAFF_TEST_AGENT_SECRET || randomBytes(32).toString("hex");
  process.env.FLAGSTAFF_TEST_AGENT_PORT = String(port);
  process.env.FLAGSTAFF_TEST_DEAD_AGENT_PORT = String(dead);
  process.env.FLAGSTAFF_TEST_AGENT_SECRET = secret;
  return {
    FLAGSTAFF_AGENTS: `http://127.0.0.1:${port},http://127.0.0.1:${dead}`,
    FLAGSTAFF_AGENT_SECRET: secret,
    FLAGSTAFF_PORT_MAPPING: "PlatformProxy",
    FLAGSTAFF_TRAFFIC_CAPTURE: "true",
  };
}

export default async function setup(project: TestProject) {
  const dockerHost = process.env.FLAGSTAFF_TEST_DOCKER_HOST || TEST_DOCKER_HOST;
  const problem = await dockerProblem(dockerHost);
  let agent: RunningAgent | null = null;
  let error = problem;
  if (!problem) {
    try {
      agent = await startAgent({ port: Number(process.env.FLAGSTAFF_TEST_AGENT_PORT), secret: process.env.FLAGSTAFF_TEST_AGENT_SECRET!, dockerHost });
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
  }
  if (error) console.error(`\n[container tests] ${error}\n`);
  project.provide("containerAgent", { agentId: agent?.agentId ?? null, error, dockerHost });
  return async () => {
    await agent?.stop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    containerAgent: { agentId: string | null; error: string | null; dockerHost: string };
  }
}
