import { Hono } from "hono";
import { methodNotAllowed, notFound } from "~/core/errors";
import { pathOf } from "~/core/http/path";
import { account } from "./account";
import { agentApi } from "./agent";
import { capturesApi } from "./captures";
import { containersApi } from "./containers";
import { proxyApi } from "./proxy";
import { admin } from "./admin";
import { assets } from "./assets";
import { editPosts } from "./edit-posts";
import { edit } from "./edit";
import { editChallenges } from "./edit-challenges";
import { game } from "./game";
import { gameRoomApi } from "./game-room";
import { gameChallenges } from "./game-challenges";
import type { ApiEnv } from "./context";
import { info } from "./info";
import { team } from "./team";
import { writeups } from "./writeups";
import { apiContext, csrfGuard, errorResponse, globalRateLimit } from "./middleware";
import { buildOpenApi } from "./registry";

/**
 * The JSON API under /api. Paths are matched case-insensitively: the router sees the lower-cased path,
 * and every path parameter is case-insensitive by design (numeric ids, UUIDs, lower-case hashes).
 */
export const api = new Hono<ApiEnv>({ getPath: (req) => pathOf(req.url).toLowerCase() });

api.use("*", apiContext);
api.use("*", csrfGuard);
// Container agents' signed callbacks come before the per-IP limit: a busy agent must never lose events.
api.route("/api", agentApi);
api.use("*", globalRateLimit);
api.route("/api", account);
api.route("/api", info);
api.route("/api", admin);
api.route("/api", team);
api.route("/api", editPosts);
api.route("/api", edit);
api.route("/api", editChallenges);
api.route("/api", game);
api.route("/api", gameRoomApi);
api.route("/api", gameChallenges);
api.route("/api", assets);
api.route("/api", writeups);
api.route("/api", containersApi);
api.route("/api", capturesApi);
api.route("/api", proxyApi);

let openApi: Record<string, unknown> | null = null;
api.get("/api/openapi.json", (c) => c.json((openApi ??= buildOpenApi())));

/** The methods a route of the API could answer: what `defineRoute` registers, and PATCH (never used). */
const ROUTE_METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH"] as const;

/**
 * The methods `path` has routes for, asked of the API's own router (so exactly what a request would reach):
 * HEAD with GET (Hono answers it from the GET route), and OPTIONS whenever there is any. Middleware (`use`,
 * method ALL) matches every path and does not count.
 */
function allowedMethods(path: string): string[] {
  const allowed: string[] = [];
  for (const method of ROUTE_METHODS) {
    if (!api.router.match(method, path)[0].some(([[, route]]) => route.method !== "ALL")) continue;
    allowed.push(method);
    if (method === "GET") allowed.push("HEAD");
  }
  if (allowed.length > 0) allowed.push("OPTIONS");
  return allowed;
}

// No route for the method: an address with routes under other methods answers 405 with Allow (OPTIONS,
// 204 with Allow: the API serves its own origin only, so there is no CORS preflight to answer), else 404.
api.notFound((c) => {
  const allow = allowedMethods(c.req.path);
  if (allow.length === 0) return errorResponse(c, notFound("common.route_not_found"));
  if (c.req.method === "OPTIONS") return c.body(null, 204, { Allow: allow.join(", ") });
  return errorResponse(c, methodNotAllowed(allow));
});
api.onError((err, c) => errorResponse(c, err));
