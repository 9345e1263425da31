import { Hono } from "hono";
import { and, eq, isNotNull, isNull, ne } from "drizzle-orm";
import { proxyUrl, reachableAgent } from "~/.server/agents";
import { containers } from "~/.server/db/schema";
import { portMappingOf } from "~/.server/services/containers";
import { AppError, badRequest, notFound } from "~/core/errors";
import type { ApiContext, ApiEnv } from "./context";
import { defineRoute } from "./registry";

/**
 * Proxy (api.md §12, rules.md §9): a WebSocket carrying the raw TCP stream of a container, relayed by the
 * container's agent. No authentication: the instance UUID is the capability.
 */
export const proxyApi = new Hono<ApiEnv>();
const tag = "Proxy";

const INVALID_TTL_MS = 10 * 60_000;
const INVALID_MAX = 10_000;
/** Ids found unknown or destroyed, remembered for 10 minutes so floods of bad ids stay cheap. */
const invalid = new Map<string, number>();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function rememberInvalid(key: string, now: number) {
  invalid.delete(key);
  invalid.set(key, now + INVALID_TTL_MS);
  while (invalid.size > INVALID_MAX) invalid.delete(invalid.keys().next().value!);
}

function knownInvalid(key: string, now: number): boolean {
  const until = invalid.get(key);
  if (until === undefined) return false;
  if (until > now) return true;
  invalid.delete(key);
  return false;
}

/** The platform cannot open the TCP stream because the container's agent does not serve it: 418 (rules.md §9.4). */
const agentUnavailable = (code = "") => new AppError(418, "container.agent_unreachable", { code });

/** Maps an agent's refusal of the upgrade to the contract's answers. */
async function agentRefusal(response: Response): Promise<AppError> {
  let code = "";
  try {
    code = ((await response.json()) as { error?: string }).error ?? "";
  } catch {
    // No JSON body.
  }
  if (response.status === 418) return new AppError(418, "proxy.connect_failed");
  if (response.status === 404) return notFound("proxy.unknown_instance");
  if (response.status === 400) return badRequest("proxy.too_many_connections");
  return agentUnavailable(code);
}

/**
 * Pairs the client's socket with the agent's: frames are relayed both ways as they come (the agent cuts
 * them to 4 KiB chunks), and a close or error on either side closes the other.
 */
function relay(upstream: WebSocket): Response {
  const pair = new WebSocketPair();
  const client = pair[0];
  const server = pair[1];
  server.accept();
  upstream.accept();
  let closed = false;
  const closeBoth = (code = 1000, reason = "") => {
    if (closed) return;
    closed = true;
    const safe = code === 1005 || code === 1006 || code === 1015 ? 1000 : code;
    for (const ws of [server, upstream]) {
      try {
        ws.close(safe, reason);
      } catch {
        // Already closed.
      }
    }
  };
  // Binary frames may arrive as Blobs; a queue per direction keeps their order while they are read.
  const forward = (to: WebSocket) => {
    let queue: Promise<void> = Promise.resolve();
    return (event: MessageEvent) => {
      const data = event.data as ArrayBuffer | ArrayBufferView | Blob | string;
      queue = queue.then(async () => {
        if (closed) return;
        try {
          to.send(data instanceof Blob ? await data.arrayBuffer() : (data as ArrayBuffer | string));
        } catch {
          closeBoth(1011, "relay failed");
        }
      });
    };
  };
  server.addEventListener("message", forward(upstream));
  upstream.addEventListener("message", forward(server));
  server.addEventListener("close", (e) => closeBoth(e.code, e.reason));
  upstream.addEventListener("close", (e) => closeBoth(e.code, e.reason));
  server.addEventListener("error", () => closeBoth(1011, "client error"));
  upstream.addEventListener("error", () => closeBoth(1011, "upstream error"));
  return new Response(null, { status: 101, webSocket: client });
}

async function proxy(c: ApiContext, testContainer: boolean): Promise<Response> {
  if (portMappingOf(c.env) !== "PlatformProxy") throw badRequest("proxy.disabled");
  const now = c.get("now");
  const id = (c.req.param("iid") ?? "").toLowerCase();
  const key = `${testContainer ? "t" : "p"}:${id}`;
  if (!UUID.test(id) || knownInvalid(key, now)) throw notFound("proxy.unknown_instance");
  const row = await c.get("db")
    .select({ id: containers.id, agentId: containers.agentId })
    .from(containers)
    .where(and(eq(containers.id, id), eq(containers.status, "Running"), testContainer ? isNull(containers.instanceId) : isNotNull(containers.instanceId), ne(containers.entry, "")))
    .get();
  if (!row) {
    rememberInvalid(key, now);
    throw notFound("proxy.unknown_instance");
  }
  // A valid id without an upgrade is 204 whatever its agent's state (rules.md §9.2).
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") return c.body(null, 204);
  const agent = await reachableAgent(c.env, row.agentId, now);
  if (!agent) throw agentUnavailable();
  let response: Response;
  try {
    response = await fetch(await proxyUrl(c.env, agent, row.id, c.get("ip")), { headers: { Upgrade: "websocket" } });
  } catch {
    throw agentUnavailable();
  }
  if (response.status !== 101 || !response.webSocket) throw await agentRefusal(response);
  return relay(response.webSocket);
}

// `noinst` first, so the literal segment is never read as an instance id.
defineRoute(proxyApi, { method: "GET", path: "/proxy/noinst/:iid", auth: "Public", tag, summary: "WebSocket ⇄ TCP to an admin test container (never captured)" }, (c) => proxy(c, true));
defineRoute(proxyApi, { method: "GET", path: "/proxy/:iid", auth: "Public", tag, summary: "WebSocket ⇄ TCP to a team container (the UUID is the capability)" }, (c) => proxy(c, false));
