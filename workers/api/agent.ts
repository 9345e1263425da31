import { Hono } from "hono";
import { verifyAgentCallback } from "~/.server/agents";
import { captureReady } from "~/.server/services/captures";
import { containerGone, containerStarted, knownInstances } from "~/.server/services/containers";
import type { AgentEvent, KnownInstancesRequest, KnownInstancesResponse } from "~/core/agent-protocol";
import { badRequest, unauthorized } from "~/core/errors";
import type { ApiContext, ApiEnv } from "./context";
import { logEvent } from "./log";
import { defineRoute } from "./registry";

/**
 * Callbacks from container agents (README of container-agent/): signed with the shared secret, not part
 * of the user auth system. Unsigned, forged, expired and replayed requests are refused with 401.
 */
export const agentApi = new Hono<ApiEnv>();
const tag = "Agent";

/** These calls skip the per-IP limit (index.ts), so refusals are logged at most once a minute per isolate. */
let lastRefusalLog = 0;

async function signedJson(c: ApiContext): Promise<unknown> {
  const body = await c.req.text();
  if (!(await verifyAgentCallback(c.env, c.req.raw, body))) {
    if (c.get("now") - lastRefusalLog > 60_000) {
      lastRefusalLog = c.get("now");
      await logEvent(c, { level: "Warning", logger: "Container", text: { key: "agentCallbackRefused", params: { method: c.req.method, path: new URL(c.req.url).pathname } }, status: "Failed" });
    }
    throw unauthorized("agent.signature_refused");
  }
  try {
    return JSON.parse(body);
  } catch {
    throw badRequest("validation.malformed_json");
  }
}

defineRoute(agentApi, { method: "POST", path: "/agent/instances", auth: "Public", internal: true, tag, summary: "Agent callback: which of its instances the platform still knows (signed)" }, async (c) => {
  const body = (await signedJson(c)) as Partial<KnownInstancesRequest>;
  if (!Array.isArray(body.instanceIds) || !body.instanceIds.every((i) => typeof i === "string")) throw badRequest("validation.malformed_json");
  const response: KnownInstancesResponse = { known: await knownInstances(c.get("db"), body.instanceIds, c.get("now")) };
  return c.json(response);
});

defineRoute(agentApi, { method: "POST", path: "/agent/events", auth: "Public", internal: true, tag, summary: "Agent callback: container started or destroyed, capture ready (signed)" }, async (c) => {
  const event = (await signedJson(c)) as AgentEvent;
  const deps = { db: c.get("db"), now: c.get("now"), env: c.env };
  switch (event?.type) {
    case "container.started":
      await containerStarted(c.get("db"), event.agentId, event.container);
      break;
    case "container.destroyed": {
      const reason = await containerGone(deps, event.agentId, event.instanceId, event.reason);
      if (reason) {
        await logEvent(c, { level: "Information", logger: "Container", text: { key: "containerRemovedByAgent", params: { id: event.instanceId, agent: event.agentId, reason } }, status: "Success", userName: null });
      }
      break;
    }
    case "capture.ready":
      await captureReady({ ...deps, bucket: c.env.FILES }, event.agentId, event.capture);
      break;
    default:
      throw badRequest("validation.malformed_json");
  }
  return c.body(null, 204);
});
