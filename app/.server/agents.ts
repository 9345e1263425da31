/**
 * The Worker's side of the container agents (ARCHITECTURE.md §8): which agents exist (env
 * FLAGSTAFF_AGENTS, comma-separated base URLs), signed calls to them (app/core/agent-protocol.ts), their
 * health (cached per isolate for HEALTH_TTL_MS) and the choice of an agent for a new container.
 *
 * An agent that does not answer is "unreachable": containers it runs keep their rows (and `agentId`) and
 * are shown as unreachable to admins. Services turn agent failures into the contract's answers (api.md §1
 * has no 503): a refused start, a released instance on destroy, 418 from the proxy.
 */
import {
  AGENT_SECRET_MIN_LENGTH,
  type AgentContainer,
  type AgentErrorBody,
  type AgentHealth,
  AGENT_QUERY_CLIENT,
  type CreateContainerRequest,
  type ListCapturesResponse,
  NonceCache,
  signPathWithQuery,
  signRequest,
  verifyRequest,
} from "~/core/agent-protocol";
import { AppError } from "~/core/errors";
import type { AgentFailure } from "~/core/log-messages";

export interface AgentsEnv {
  /** Comma-separated agent base URLs, e.g. `http://127.0.0.1:8788,https://docker-2.example.org:8788`. */
  FLAGSTAFF_AGENTS?: string;
  /** Shared HMAC secret (≥ 32 characters), the same value as the agents' FLAGSTAFF_AGENT_SECRET. */
  FLAGSTAFF_AGENT_SECRET?: string;
}

export const HEALTH_TTL_MS = 10_000;
/** Health checks and small calls give up after this long; an agent that is slower counts as unreachable. */
const CALL_TIMEOUT_MS = 5_000;
/** Creating may pull an image first. */
const CREATE_TIMEOUT_MS = 120_000;

/**
 * No agent can take the call: none configured, none healthy with room, or it did not answer. A 400 with a
 * localised reason, so that even a path that does not map it never answers a status api.md §1 lacks.
 */
export class AgentUnavailableError extends AppError {
  constructor(code = "container.agent_unreachable") {
    super(400, code);
    this.name = "AgentUnavailableError";
  }
}

export const agentUnreachable = (code?: string) => new AgentUnavailableError(code);

export interface AgentStatus {
  url: string;
  /** null while the agent has never answered. */
  agentId: string | null;
  reachable: boolean;
  health: AgentHealth | null;
  error: string | null;
  checkedAt: number;
}

const health = new Map<string, AgentStatus>();
/** agentId → base URL, learned from health answers (kept while an agent is down, to name it). */
const urlsById = new Map<string, string>();

export function agentUrls(env: AgentsEnv): string[] {
  return (env.FLAGSTAFF_AGENTS ?? "")
    .split(",")
    .map((u) => u.trim().replace(/\/+$/, ""))
    .filter((u) => /^https?:\/\//.test(u));
}

/** Containers are available when at least one agent and the shared secret are configured. */
export function agentsConfigured(env: AgentsEnv): boolean {
  return agentUrls(env).length > 0 && (env.FLAGSTAFF_AGENT_SECRET ?? "").length >= AGENT_SECRET_MIN_LENGTH;
}

function secretOf(env: AgentsEnv): string {
  const secret = env.FLAGSTAFF_AGENT_SECRET ?? "";
  if (secret.length < AGENT_SECRET_MIN_LENGTH) throw agentUnreachable("container.no_agent");
  return secret;
}

export class AgentCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "AgentCallError";
  }
}

/** Any failure of a call to an agent: it could not be reached, or it answered with an error. */
export function isAgentFailure(error: unknown): error is AgentUnavailableError | AgentCallError {
  return error instanceof AgentUnavailableError || error instanceof AgentCallError;
}

/** The failure as a log message parameter (app/core/log-messages.ts), naming the agent when given. */
export function agentFailureOf(error: AgentUnavailableError | AgentCallError, agent?: string): AgentFailure {
  return error instanceof AgentCallError
    ? { kind: "answered", agent, status: error.status, code: error.code, message: error.message }
    : { kind: "unreachable", agent };
}

function markUnreachable(url: string, error: string, now = Date.now()) {
  const previous = health.get(url);
  health.set(url, { url, agentId: previous?.agentId ?? null, reachable: false, health: previous?.health ?? null, error, checkedAt: now });
}

/**
 * A signed call to an agent. Network failures and timeouts mark the agent unreachable and throw
 * AgentUnavailableError; agent error answers throw AgentCallError with the agent's status and code.
 */
export async function agentCall(
  env: AgentsEnv,
  url: string,
  method: "GET" | "POST" | "DELETE",
  path: string,
  payload?: unknown,
  timeoutMs = CALL_TIMEOUT_MS,
): Promise<Response> {
  const body = payload === undefined ? null : JSON.stringify(payload);
  const headers: Record<string, string> = await signRequest(secretOf(env), { method, path, body });
  if (body !== null) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(`${url}${path}`, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    markUnreachable(url, error instanceof Error ? error.message : String(error));
    throw agentUnreachable();
  }
  if (!response.ok) {
    let detail: Partial<AgentErrorBody> = {};
    try {
      detail = (await response.json()) as AgentErrorBody;
    } catch {
      // Not JSON: keep the status only.
    }
    if (response.status === 401) markUnreachable(url, "the agent refused the platform's signature (check FLAGSTAFF_AGENT_SECRET)");
    throw new AgentCallError(response.status, detail.error ?? `agent.http_${response.status}`, detail.message ?? response.statusText);
  }
  return response;
}

async function checkHealth(env: AgentsEnv, url: string, now: number): Promise<AgentStatus> {
  try {
    const response = await agentCall(env, url, "GET", "/health");
    const body = (await response.json()) as AgentHealth;
    urlsById.set(body.agentId, url);
    const status: AgentStatus = { url, agentId: body.agentId, reachable: true, health: body, error: null, checkedAt: now };
    health.set(url, status);
    return status;
  } catch (error) {
    const message = error instanceof AgentCallError ? `${error.status} ${error.code}` : error instanceof Error ? error.message : String(error);
    markUnreachable(url, health.get(url)?.error ?? message, now);
    return health.get(url)!;
  }
}

/** Every configured agent with its (cached) health. */
export async function agentStatuses(env: AgentsEnv, now = Date.now(), fresh = false): Promise<AgentStatus[]> {
  return Promise.all(
    agentUrls(env).map((url) => {
      const cached = health.get(url);
      // A check dated after `now` (the clock went back) is not trusted for the TTL.
      if (!fresh && cached && now >= cached.checkedAt && now - cached.checkedAt < HEALTH_TTL_MS) return cached;
      return checkHealth(env, url, now);
    }),
  );
}

/** The healthy agent with room, least loaded first; AgentUnavailableError `container.no_agent` when there is none. */
export async function pickAgent(env: AgentsEnv, now = Date.now()): Promise<AgentStatus> {
  if (!agentsConfigured(env)) throw agentUnreachable("container.no_agent");
  const candidates = (await agentStatuses(env, now))
    .filter((a) => a.reachable && a.health?.accepting && a.health.running < a.health.capacity)
    .sort((a, b) => a.health!.running / a.health!.capacity - b.health!.running / b.health!.capacity);
  const chosen = candidates[0];
  if (!chosen) throw agentUnreachable("container.no_agent");
  return chosen;
}

/** The reachable agent with this id, or null (down, removed from FLAGSTAFF_AGENTS, or never seen). */
export async function reachableAgent(env: AgentsEnv, agentId: string | null, now = Date.now()): Promise<AgentStatus | null> {
  if (!agentId || !agentsConfigured(env)) return null;
  const statuses = await agentStatuses(env, now);
  return statuses.find((s) => s.reachable && s.agentId === agentId) ?? null;
}

/** Ids of the agents that answered their last health check. */
export async function reachableAgentIds(env: AgentsEnv, now = Date.now()): Promise<Set<string>> {
  if (!agentsConfigured(env)) return new Set();
  return new Set((await agentStatuses(env, now)).filter((s) => s.reachable && s.agentId).map((s) => s.agentId!));
}

// ── Calls ─────────────────────────────────────────────────────────────────────────────────────────────

export async function createOnAgent(env: AgentsEnv, agent: AgentStatus, request: CreateContainerRequest): Promise<AgentContainer> {
  const response = await agentCall(env, agent.url, "POST", "/containers", request, CREATE_TIMEOUT_MS);
  const container = (await response.json()) as AgentContainer;
  // Counted at once so a burst of creations spreads over the agents before the next health check.
  if (agent.health) agent.health.running += 1;
  return container;
}

export async function extendOnAgent(env: AgentsEnv, agent: AgentStatus, instanceId: string, expectStopAt: number): Promise<AgentContainer> {
  const response = await agentCall(env, agent.url, "POST", `/containers/${instanceId}/extend`, { expectStopAt });
  return (await response.json()) as AgentContainer;
}

/** Destroys a container; an agent that no longer runs it (404) counts as done. */
export async function destroyOnAgent(env: AgentsEnv, agent: AgentStatus, instanceId: string): Promise<void> {
  try {
    await agentCall(env, agent.url, "DELETE", `/containers/${instanceId}`, undefined, 30_000);
    if (agent.health && agent.health.running > 0) agent.health.running -= 1;
  } catch (error) {
    if (error instanceof AgentCallError && error.status === 404) return;
    throw error;
  }
}

export async function listAgentCaptures(env: AgentsEnv, agent: AgentStatus): Promise<ListCapturesResponse> {
  const response = await agentCall(env, agent.url, "GET", "/captures");
  return (await response.json()) as ListCapturesResponse;
}

export async function downloadAgentCapture(env: AgentsEnv, agent: AgentStatus, key: string): Promise<Uint8Array> {
  const response = await agentCall(env, agent.url, "GET", `/captures/${key}`, undefined, 60_000);
  return new Uint8Array(await response.arrayBuffer());
}

export async function deleteAgentCapture(env: AgentsEnv, agent: AgentStatus, key: string): Promise<void> {
  try {
    await agentCall(env, agent.url, "DELETE", `/captures/${key}`);
  } catch (error) {
    if (error instanceof AgentCallError && error.status === 404) return;
    throw error;
  }
}

/** The signed WebSocket URL of an instance's proxy on its agent (`ws(s)://…/proxy/{id}?client=…&fs_…`). */
export async function proxyUrl(env: AgentsEnv, agent: AgentStatus, instanceId: string, clientIp: string): Promise<string> {
  const path = `/proxy/${instanceId}?${AGENT_QUERY_CLIENT}=${encodeURIComponent(clientIp)}`;
  return `${agent.url}${await signPathWithQuery(secretOf(env), { method: "GET", path })}`;
}

// ── Callbacks from agents ─────────────────────────────────────────────────────────────────────────────

/** Nonces of agent callbacks seen by this isolate (a replay within the signature window is refused). */
const callbackNonces = new NonceCache();

/** Verifies an agent's signed callback; false for a missing, forged, expired or replayed signature. */
export async function verifyAgentCallback(env: AgentsEnv, request: Request, body: string): Promise<boolean> {
  const secret = env.FLAGSTAFF_AGENT_SECRET ?? "";
  if (secret.length < AGENT_SECRET_MIN_LENGTH) return false;
  const url = new URL(request.url);
  const result = await verifyRequest(
    secret,
    { method: request.method, target: url.pathname + url.search, headers: request.headers, body },
    { nonces: callbackNonces },
  );
  return result.ok;
}

/** The base URL last seen answering for an agent id. */
export function knownAgentUrl(agentId: string): string | undefined {
  return urlsById.get(agentId);
}
