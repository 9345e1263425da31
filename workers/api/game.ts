import { Hono } from "hono";
import * as gameService from "~/.server/services/games";
import { getGameAccess } from "~/.server/services/game-access";
import * as noticeService from "~/.server/services/notices";
import * as participationService from "~/.server/services/participations";
import { refreshRoom } from "~/.server/services/room";
import { forbidden, unauthorized } from "~/core/errors";
import { computeGamePhase, gameNotStarted } from "~/core/game/phase";
import { gamesQuerySchema, joinGameSchema, noticesQuerySchema } from "~/core/schemas/game";
import type { ApiContext, ApiEnv } from "./context";
import { editGameId } from "./edit";
import { jsonWithEtag } from "./http-cache";
import { enforceLimit, limiters } from "./middleware";
import { defineRoute } from "./registry";

/** Game — list, detail, join/leave, notices, participations (api.md §10). */
export const game = new Hono<ApiEnv>();
const tag = "Game";

const deps = (c: ApiContext) => ({ db: c.get("db"), now: c.get("now") });

defineRoute(game, { method: "GET", path: "/game", auth: "Public", tag, summary: "Public games, newest start first (ETag/Last-Modified, 304)", query: gamesQuerySchema }, async (c, { query, user }) => {
  enforceLimit(c, limiters.query, [user ? `u:${user.id}` : `ip:${c.get("ip")}`]);
  return jsonWithEtag(c, await gameService.listGames(c.get("db"), query));
});

defineRoute(game, { method: "GET", path: "/game/:id", auth: "Public", tag, summary: "A game's details and the caller's registration (private ETag/Last-Modified, 304)" }, async (c, { user }) =>
  jsonWithEtag(c, await gameService.getGameDetail(c.get("db"), editGameId(c), user), { private: true }),
);

defineRoute(game, { method: "POST", path: "/game/:id", auth: "User", tag, summary: "Join a game with one of the caller's teams", body: joinGameSchema }, async (c, { body, user }) => {
  const status = await participationService.joinGame(deps(c), user!.id, editGameId(c), body);
  await refreshRoom(c.env, editGameId(c), "participations");
  return c.json({ title: c.get("t")(status === "Accepted" ? "game.joined_accepted" : "game.joined_pending"), status: 200 });
});

defineRoute(game, { method: "DELETE", path: "/game/:id", auth: "User", tag, summary: "Leave a game (Pending or Rejected only)" }, async (c, { user }) => {
  await participationService.leaveGame({ ...deps(c), bucket: c.env.FILES }, user!.id, editGameId(c));
  await refreshRoom(c.env, editGameId(c), "participations");
  return c.json({ title: c.get("t")("game.left"), status: 200 });
});

defineRoute(game, { method: "GET", path: "/game/:id/notices", auth: "Public", access: "Public; hidden game: Monitor or the game's players", tag, summary: "Notices: Normal first, each group newest first (ETag/Last-Modified, 304)", query: noticesQuerySchema }, async (c, { query, user }) => {
  const id = editGameId(c);
  const g = await gameService.requireGame(c.get("db"), id);
  const access = await getGameAccess(c.get("db"), id, user);
  // A member who left the team keeps the registration, not the play: told so, as the player calls tell them.
  if (!access.canView) throw user ? forbidden(access.leftTeam ? "submission.left_team" : undefined) : unauthorized();
  if (computeGamePhase(g, c.get("now")) === "NotStarted") throw gameNotStarted();
  return jsonWithEtag(c, await noticeService.listGameNotices(c.get("db"), id, query));
});

// The review page reads it every 10 s: its ETag (of the body) lets an unchanged list answer 304.
defineRoute(game, { method: "GET", path: "/game/:id/participations", auth: "Admin", tag, summary: "Every participation of a game with its members (private ETag/Last-Modified, 304)" }, async (c) =>
  jsonWithEtag(c, await participationService.listParticipations(c.get("db"), editGameId(c)), { private: true }),
);
