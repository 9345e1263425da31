/**
 * Signed callbacks from the agent to the platform (the Worker verifies them with app/core/agent-protocol.ts):
 *   POST {platform}/api/agent/instances  KnownInstancesRequest → KnownInstancesResponse
 *   POST {platform}/api/agent/events     AgentEvent → 2xx
 */
import {
  signRequest,
  type AgentEvent,
  type KnownInstancesRequest,
  type KnownInstancesResponse,
} from "../../app/core/agent-protocol.ts";
import type { Logger } from "./log.ts";

/** Tells which of the agent's instances the platform still knows. Throws when it cannot be asked. */
export interface KnownInstancesProvider {
  known(instanceIds: string[]): Promise<Set<string>>;
}

/** Receives container state changes and finished captures. Never throws. */
export interface AgentEventSink {
  notify(event: AgentEvent): void;
}

export const KNOWN_INSTANCES_PATH = "/api/agent/instances";
export const EVENTS_PATH = "/api/agent/events";

async function signedPost(base: string, path: string, secret: string, payload: unknown, timeoutMs: number): Promise<Response> {
  const body = JSON.stringify(payload);
  const url = new URL(path, `${base}/`);
  const headers = await signRequest(secret, { method: "POST", path: url.pathname + url.search, body });
  return fetch(url, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body,
    signal: AbortSignal.timeout(timeoutMs),
  });
}

export class HttpKnownInstancesProvider implements KnownInstancesProvider {
  private readonly platformUrl: string;
  private readonly secret: string;
  private readonly agentId: string;
  private readonly timeoutMs: number;

  constructor(platformUrl: string, secret: string, agentId: string, timeoutMs = 10_000) {
    this.platformUrl = platformUrl;
    this.secret = secret;
    this.agentId = agentId;
    this.timeoutMs = timeoutMs;
  }

  async known(instanceIds: string[]): Promise<Set<string>> {
    const request: KnownInstancesRequest = { agentId: this.agentId, instanceIds };
    const response = await signedPost(this.platformUrl, KNOWN_INSTANCES_PATH, this.secret, request, this.timeoutMs);
    if (!response.ok) throw new Error(`platform answered ${response.status}`);
    const body = (await response.json()) as Partial<KnownInstancesResponse>;
    if (!Array.isArray(body.known) || !body.known.every((id) => typeof id === "string")) {
      throw new Error("platform answered without a `known` list");
    }
    return new Set(body.known);
  }
}

export class HttpEventSink implements AgentEventSink {
  private readonly platformUrl: string;
  private readonly secret: string;
  private readonly log: Logger;
  private readonly timeoutMs: number;

  constructor(platformUrl: string, secret: string, log: Logger, timeoutMs = 10_000) {
    this.platformUrl = platformUrl;
    this.secret = secret;
    this.log = log;
    this.timeoutMs = timeoutMs;
  }

  notify(event: AgentEvent): void {
    void signedPost(this.platformUrl, EVENTS_PATH, this.secret, event, this.timeoutMs).then(
      (response) => {
        if (!response.ok) this.log.warn("platform.event_refused", { type: event.type, status: response.status });
      },
      (error: unknown) => this.log.warn("platform.event_failed", { type: event.type, error: String(error) }),
    );
  }
}

export const noEvents: AgentEventSink = { notify: () => {} };
