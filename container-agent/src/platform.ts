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

/** How long an event is offered again while the platform cannot take it (down, restarting, 5xx). */
export interface EventRetry {
  firstDelayMs: number;
  maxDelayMs: number;
  /** After this long since the event, it is dropped (logged): the platform's reaper and listings catch up. */
  giveUpAfterMs: number;
}

export const EVENT_RETRY: EventRetry = { firstDelayMs: 1000, maxDelayMs: 30_000, giveUpAfterMs: 10 * 60_000 };

/** The instance an event is about: its events are sent one after another, in order. */
function instanceOf(event: AgentEvent): string {
  if (event.type === "container.started") return event.container.instanceId;
  if (event.type === "container.destroyed") return event.instanceId;
  return event.capture.instanceId;
}

/** A status worth another try: the platform is starting, overloaded or failing, not refusing the event. */
const retriable = (status: number) => status >= 500 || status === 408 || status === 429;

/**
 * Sends events to the platform. One that cannot be delivered (no answer, 5xx) is sent again with backoff
 * until `retry.giveUpAfterMs`: a container that expires while the platform restarts must still reach it
 * as destroyed. Each instance's events keep their order (a start is never overtaken by its destruction).
 */
export class HttpEventSink implements AgentEventSink {
  private readonly platformUrl: string;
  private readonly secret: string;
  private readonly log: Logger;
  private readonly timeoutMs: number;
  private readonly retry: EventRetry;
  private readonly now: () => number;
  /** instance → its undelivered events, oldest first (a queue exists while it is being sent). */
  private readonly queues = new Map<string, { event: AgentEvent; since: number }[]>();

  constructor(platformUrl: string, secret: string, log: Logger, timeoutMs = 10_000, retry: EventRetry = EVENT_RETRY, now: () => number = Date.now) {
    this.platformUrl = platformUrl;
    this.secret = secret;
    this.log = log;
    this.timeoutMs = timeoutMs;
    this.retry = retry;
    this.now = now;
  }

  /** Events not delivered yet (tests, health). */
  get pending(): number {
    let count = 0;
    for (const queue of this.queues.values()) count += queue.length;
    return count;
  }

  notify(event: AgentEvent): void {
    const key = instanceOf(event);
    const queue = this.queues.get(key);
    const entry = { event, since: this.now() };
    if (queue) {
      queue.push(entry);
      return;
    }
    this.queues.set(key, [entry]);
    void this.drain(key);
  }

  private async drain(key: string): Promise<void> {
    const queue = this.queues.get(key)!;
    let delay = this.retry.firstDelayMs;
    let attempts = 0;
    while (queue.length > 0) {
      const { event, since } = queue[0]!;
      attempts += 1;
      const failure = await this.send(event);
      if (failure === null) {
        if (attempts > 1) this.log.info("platform.event_delivered", { type: event.type, instanceId: key, attempts });
        queue.shift();
        delay = this.retry.firstDelayMs;
        attempts = 0;
        continue;
      }
      const waited = this.now() - since;
      if (failure.final || waited >= this.retry.giveUpAfterMs) {
        const fields = { type: event.type, instanceId: key, attempts, ...failure.detail };
        if (failure.final) this.log.warn("platform.event_refused", fields);
        else this.log.error("platform.event_dropped", { ...fields, afterMs: waited });
        queue.shift();
        delay = this.retry.firstDelayMs;
        attempts = 0;
        continue;
      }
      if (attempts === 1) this.log.warn("platform.event_failed", { type: event.type, instanceId: key, retrying: true, ...failure.detail });
      const wait = Math.min(delay, this.retry.giveUpAfterMs - waited);
      await new Promise((resolve) => setTimeout(resolve, wait).unref());
      delay = Math.min(delay * 2, this.retry.maxDelayMs);
    }
    this.queues.delete(key);
  }

  /** null when delivered; otherwise why, and whether another try could help. */
  private async send(event: AgentEvent): Promise<{ final: boolean; detail: Record<string, unknown> } | null> {
    try {
      const response = await signedPost(this.platformUrl, EVENTS_PATH, this.secret, event, this.timeoutMs);
      await response.body?.cancel();
      if (response.ok) return null;
      return { final: !retriable(response.status), detail: { status: response.status } };
    } catch (error) {
      return { final: false, detail: { error: String(error) } };
    }
  }
}

export const noEvents: AgentEventSink = { notify: () => {} };
