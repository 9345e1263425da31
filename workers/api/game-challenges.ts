import { Hono } from "hono";
import { getPlayerChallenge, requirePlayer } from "~/.server/services/player-challenges";
import { refreshRoom, roomOf } from "~/.server/services/room";
import type { ApiContext, ApiEnv } from "./context";
import { editGameId, pathId } from "./edit";
import { logEvent } from "./log";
import { defineRoute } from "./registry";

/** Game — a player's view of one challenge (api.md §10). Submissions live in game-room.ts. */
export const gameChallenges = new Hono<ApiEnv>();
const tag = "Game";

defineRoute(gameChallenges, { method: "GET", path: "/game/:id/challenges/:cid", auth: "User", access: "Player", tag, summary: "A challenge for the caller's team (Player); assigns its flag on first open" }, async (c: ApiContext, { user }) => {
  const player = await requirePlayer(c.get("db"), editGameId(c), user!.id, c.get("now"));
  const detail = await getPlayerChallenge({ db: c.get("db"), now: c.get("now"), log: (entry) => logEvent(c, entry) }, player, pathId(c, "cid", "challenge.not_found"));
  // The team's own flag may have just been assigned: the room's judge must know it before the player submits.
  await refreshRoom(c.env, player.game.id, { challengeId: detail.id, participationId: player.participation.id });
  // With a limit, the attempts are the room's count: D1 gets the newest submissions only when the room drains.
  if (detail.limit > 0) detail.attempts = (await roomOf(c.env, player.game.id).attempts(player.game.id, player.participation.id, detail.id)) ?? detail.attempts;
  // The value as the room's board has it: a solve judged a moment ago counts (D1 has it a few times a second).
  const score = (await roomOf(c.env, player.game.id).challengeScores(player.game.id))?.[detail.id];
  if (score !== undefined) detail.score = score;
  return c.json(detail);
});
