import { and, eq, getTableColumns, sql } from "drizzle-orm";
import { roleRank } from "~/core/enums";
import { gameView } from "~/core/socket-access";
import type { CurrentUser } from "../auth/current-user";
import type { Db } from "../db/client";
import { games, participationMembers, participations, teamMembers, teams } from "../db/schema";

export interface GameAccess {
  exists: boolean;
  hidden: boolean;
  /** Whether the caller may see the game at all (hidden games: monitors, admins and the game's players). */
  canView: boolean;
  /**
   * The caller's team in this game when its participation is Accepted and the caller is still in the team,
   * else null (a member who left keeps the registration, not the play: teams.ts removeMember).
   */
  teamId: number | null;
  /**
   * Whether the caller is registered for the game but no longer in the team they registered with: they keep
   * the registration, not the play, and are told so (403 `submission.left_team`) where a player is asked for.
   */
  leftTeam: boolean;
  /** Whether the caller may read the scoreboard (hidden games: monitors and admins only). */
  canReadBoard: boolean;
  /** Whether the caller is a monitor or an admin (who see hidden games by their role). */
  staff: boolean;
}

/**
 * SQL condition on a registration joined with its participation: the registered user is still a member
 * of the participation's team (a lookup of team_members' primary key). A member who left or was kicked
 * keeps a registration with results (teams.ts removeMember) but no longer plays for the team.
 */
export const stillInTeam = sql`exists (
  select 1 from ${teamMembers} where ${teamMembers.teamId} = ${participations.teamId} and ${teamMembers.userId} = ${participationMembers.userId}
)`;

/**
 * SQL count of a participation's registered members still in its team: those the game's member limit
 * counts (a member who left keeps the registration, not the place; teams.ts removeMember).
 */
export const playingMembers = (participationId: number | typeof participations.id, teamId: number | typeof participations.teamId) => sql`(
  select count(*) from ${participationMembers} m
  where m.participation_id = ${participationId}
    and exists (select 1 from ${teamMembers} t where t.team_id = ${teamId} and t.user_id = m.user_id)
)`;

/**
 * The caller's registration in a game, whatever its status: the participation's columns, its team's name, and
 * `playing` — whether they are still in that team (a member who left keeps the registration, not the play:
 * teams.ts removeMember). Undefined when they are not registered.
 */
export function callerRegistration(db: Db, gameId: number, userId: string) {
  return db
    .select({ ...getTableColumns(participations), teamName: teams.name, playing: sql<number>`${stillInTeam}` })
    .from(participationMembers)
    .innerJoin(participations, eq(participations.id, participationMembers.participationId))
    .innerJoin(teams, eq(teams.id, participations.teamId))
    .where(and(eq(participationMembers.gameId, gameId), eq(participationMembers.userId, userId)))
    .get();
}

/** What the caller may see of one game, in one query. */
export async function getGameAccess(db: Db, gameId: number, user: CurrentUser | null): Promise<GameAccess> {
  const game = await db.select({ hidden: games.hidden }).from(games).where(eq(games.id, gameId)).get();
  if (!game) return { exists: false, hidden: false, canView: false, teamId: null, leftTeam: false, canReadBoard: false, staff: false };
  let teamId: number | null = null;
  let leftTeam = false;
  if (user) {
    const row = await callerRegistration(db, gameId, user.id);
    leftTeam = row !== undefined && !row.playing;
    if (row?.status === "Accepted" && row.playing) teamId = row.teamId;
  }
  const staff = user !== null && roleRank(user.role) >= roleRank("Monitor");
  return { exists: true, hidden: game.hidden, teamId, leftTeam, staff, ...gameView(game.hidden, { staff, teamId }) };
}
