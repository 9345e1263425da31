import { createRequestHandler, RouterContextProvider } from "react-router";
import { apiHandlerContext } from "~/.server/in-process-api";
import { matchAssetPath, serveAsset } from "~/.server/storage/assets";
import { pathOf } from "~/core/http/path";
import { languageFromAcceptLanguage } from "~/core/i18n/languages";
import { getTranslator } from "~/core/i18n/translator";
import { api } from "./api";
import { lingerOnUnreadBody, refuseOversizeOutsideApi } from "./api/body-limit";
import { internal } from "./api/internal";
import { hub } from "./hub";
import { type LocalServerEnv, serveLocal } from "./local-server";
import { withSecurityHeaders } from "./security-headers";

export { AdminHub } from "./admin-hub/admin-hub";
export { GameRoom } from "./game-room/game-room";

const handleRequest = createRequestHandler(
  () => import("virtual:react-router/server-build"),
  import.meta.env.MODE,
);

/** Routes by the first path segment (case-insensitive): /api, /hub, /__internal, /assets/{hash}/{name}, then React Router. */
export default {
  fetch(request, env, ctx) {
    const next = async (r: Request) => lingerOnUnreadBody(r, withSecurityHeaders(r, await route(r, env, ctx)), ctx);
    // `npm start` (scripts/start.mjs): built files and the cached /api/config before the routes.
    if (env.STATIC_FILES && env.STATIC) return serveLocal(request, env as Env & LocalServerEnv, next);
    return next(request);
  },
} satisfies ExportedHandler<Env>;

function route(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
  const path = pathOf(request.url);
  const first = path.slice(1, path.indexOf("/", 1) >>> 0).toLowerCase();
  if (first === "api") return api.fetch(request, env, ctx);
  const oversize = refuseOversizeOutsideApi(request);
  if (oversize) return oversize;
  if (first === "hub") return hub.fetch(request, env, ctx);
  if (first === "__internal") return internal.fetch(request, env, ctx);
  // Uploaded files; built client files also live under /assets/ and fall through.
  const asset = first === "assets" ? matchAssetPath(path) : null;
  if (asset) {
    const t = getTranslator(languageFromAcceptLanguage(request.headers.get("accept-language") ?? undefined));
    return serveAsset(request, env, asset, t("common.not_found"));
  }
  // A page's server action calls the API in process (a form posted before the page's JavaScript ran).
  const context = new RouterContextProvider();
  context.set(apiHandlerContext, async (apiRequest) => api.fetch(apiRequest, env, ctx));
  return handleRequest(request, context);
}
