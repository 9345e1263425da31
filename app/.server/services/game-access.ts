import { and, eq } from "drizzle-orm";
import { roleRank } from "~/core/enums";
import { gameView } from "~/core/socket-access";
import type { CurrentUser } from "../auth/current-user";
import type { Db } from "../db/client";
import { games, participationMembers, participations } from "../db/schema";

export interface GameAccess {
  exists: boolean;
  hidden: boolean;
  /** Whether the caller may see the game at all (hidden games: monitors, admins and the game's players). */
  canView: boolean;
  /** The caller's team in this game when its participation is Accepted, else null. */
  teamId: number | null;
  /** Whether the caller may read the scoreboard (hidden games: monitors and admins only). */
  canReadBoard: boolean;
  /** Whether the caller is a monitor or an admin (who see hidden games by their role). */
  staff: boolean;
}

/** What the caller may see of one game, in one query. */
export async function getGameAccess(db: Db, gameId: number, user: CurrentUser | null): Promise<GameAccess> {
  const game = await db.select({ hidden: games.hidden }).from(games).where(eq(games.id, gameId)).get();
  if (!game) return { exists: false, hidden: false, canView: false, teamId: null, canReadBoard: false, staff: false };
  let teamId: number | null = null;
  if (user) {
    const row = await db
      .select({ teamId: participations.teamId, status: participations.status })
      .from(participationMembers)
      .innerJoin(participations, eq(participations.id, participationMembers.participationId))
      .where(and(eq(participationMembers.gameId, gameId), eq(participationMembers.userId, user.id)))
      .get();
    if (row?.status === "Accepted") teamId = row.teamId;
  }
  const staff = user !== null && roleRank(user.role) >= roleRank("Monitor");
  return { exists: true, hidden: game.hidden, teamId, staff, ...gameView(game.hidden, { staff, teamId }) };
}
