import { Hono } from "hono";
import { forbidden, notFound } from "~/core/errors";
import { pathOf } from "~/core/http/path";
import { HUB_HEADERS, RELAY_TOKEN_HEADER } from "~/core/protocol";
import { secretEquals } from "~/core/secret-equal";
import { sessionHashOf } from "~/.server/auth/session";
import { getGameAccess } from "~/.server/services/game-access";
import { roomOf } from "~/.server/services/room";
import type { ApiContext, ApiEnv } from "./api/context";
import { requireAuth } from "./api/guard";
import { apiContext, errorResponse } from "./api/middleware";

/** WebSocket entry points: the Worker authenticates, then hands the socket to the Durable Object. */
export const hub = new Hono<ApiEnv>({ getPath: (req) => pathOf(req.url).toLowerCase() });
hub.use("*", apiContext);
hub.onError((err, c) => errorResponse(c, err));
hub.notFound((c) => errorResponse(c, notFound("common.route_not_found")));

function forward(c: ApiContext, stub: { fetch(request: Request): Promise<Response> }, headers: Record<string, string>) {
  const request = new Request(c.req.raw);
  for (const name of [...Object.values(HUB_HEADERS), RELAY_TOKEN_HEADER]) request.headers.delete(name);
  for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
  return stub.fetch(request);
}

const isUpgrade = (c: ApiContext) => c.req.header("upgrade")?.toLowerCase() === "websocket";

function requireUpgrade(c: ApiContext): void {
  if (!isUpgrade(c)) throw notFound("common.route_not_found");
  requireSameOrigin(c);
}

function requireSameOrigin(c: ApiContext): void {
  // Cross-site WebSocket hijacking: browsers always send Origin on a WebSocket handshake; another
  // origin (even a same-site one, which would carry the Lax session cookie) may not open our sockets.
  const origin = c.req.header("origin");
  if (origin !== undefined && !sameOrigin(origin, c.req.url)) throw forbidden("auth.cross_site");
}

/**
 * `npm start` holds the players' game sockets in its launcher (scripts/lib/socket-relay.mjs), which
 * fans each room message out on another core (DECISIONS.md "socket relay"). It proves itself with the
 * per-process FLAGSTAFF_RELAY_TOKEN; without that binding (Cloudflare) nothing here changes.
 */
const fromRelay = (c: ApiContext) => secretEquals(c.env.FLAGSTAFF_RELAY_TOKEN, c.req.header(RELAY_TOKEN_HEADER));

function sameOrigin(origin: string, url: string): boolean {
  try {
    return new URL(origin).host === new URL(url).host;
  } catch {
    return false;
  }
}

/** Who opens the socket: the user and the session (signing out closes what a session opened). */
async function ownerHeaders(c: ApiContext, userId: string): Promise<Record<string, string>> {
  const session = await sessionHashOf(c.req.raw);
  return session ? { [HUB_HEADERS.userId]: userId, [HUB_HEADERS.session]: session } : { [HUB_HEADERS.userId]: userId };
}

hub.get("/hub/admin", async (c) => {
  requireUpgrade(c);
  const user = await requireAuth(c, "Admin");
  const stub = c.env.ADMIN_HUB.get(c.env.ADMIN_HUB.idFromName("admin"));
  return forward(c, stub, { [HUB_HEADERS.channel]: "admin", ...(await ownerHeaders(c, user!.id)) });
});

hub.get("/hub/game/:id{[0-9]+}", async (c) => {
  // The relay asks, without an upgrade, who the socket's owner is; then it opens the socket itself.
  const relayed = !isUpgrade(c) && fromRelay(c);
  if (relayed) requireSameOrigin(c);
  else requireUpgrade(c);
  const gameId = Number(c.req.param("id"));
  const user = await requireAuth(c, "Public");
  const access = await getGameAccess(c.get("db"), gameId, user);
  if (!access.exists) throw notFound("game.not_found");
  if (!access.canView) throw user ? forbidden() : notFound("game.not_found");
  const session = user ? await sessionHashOf(c.req.raw) : null;
  if (relayed) {
    const identity = { userId: user?.id ?? null, teamId: access.teamId, boardReader: access.canReadBoard, staff: access.staff, session };
    return c.json(identity, 200, { "cache-control": "no-store" });
  }
  const stub = roomOf(c.env, gameId);
  const headers: Record<string, string> = { [HUB_HEADERS.channel]: "game" };
  if (user) headers[HUB_HEADERS.userId] = user.id;
  if (session) headers[HUB_HEADERS.session] = session;
  if (access.teamId !== null) headers[HUB_HEADERS.teamId] = String(access.teamId);
  if (access.canReadBoard) headers[HUB_HEADERS.boardReader] = "1";
  if (access.staff) headers[HUB_HEADERS.staff] = "1";
  return forward(c, stub, headers);
});

/** The relay's one feed of a game's player channel (every message once, with its audience). */
hub.get("/hub/game/:id{[0-9]+}/relay", async (c) => {
  if (!fromRelay(c)) throw notFound("common.route_not_found");
  requireUpgrade(c);
  const gameId = Number(c.req.param("id"));
  const stub = roomOf(c.env, gameId);
  return forward(c, stub, { [HUB_HEADERS.channel]: "game", [HUB_HEADERS.relay]: "1" });
});

hub.get("/hub/game/:id{[0-9]+}/monitor", async (c) => {
  requireUpgrade(c);
  const gameId = Number(c.req.param("id"));
  const user = await requireAuth(c, "Monitor");
  const access = await getGameAccess(c.get("db"), gameId, user);
  if (!access.exists) throw notFound("game.not_found");
  const stub = roomOf(c.env, gameId);
  return forward(c, stub, { [HUB_HEADERS.channel]: "monitor", ...(await ownerHeaders(c, user!.id)) });
});
