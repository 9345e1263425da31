import type { ParticipationStatus } from "../enums";

/**
 * Joining rules of rules.md §2 that the join call and the game page share, so the Join dialog asks for
 * exactly what the server will check.
 */

/**
 * A team already registered in the game (Pending, Accepted or Suspended) keeps its division: a member
 * joining it later chooses none. A Rejected team re-applies and chooses again.
 */
export function keepsDivision(status: ParticipationStatus): boolean {
  return status !== "Rejected";
}

/** The invitation code a join must give: the division's when it has one, else the game's ("" = none). */
export function expectedInviteCode(gameInviteCode: string, division: { inviteCode: string } | null): string {
  return division?.inviteCode || gameInviteCode;
}

/**
 * The refusals of a join (rules.md §2) that the game page can tell before the Join button is pressed, in the
 * server's order: the team is suspended in the game ("You have been banned"), the caller already plays it
 * for another team, or the team's registered members still in it fill the member limit.
 */
export type JoinRefusal = "banned" | "otherTeam" | "memberLimit";

export function joinRefusal({
  teamId,
  participation,
  myTeamId,
  memberLimit,
}: {
  /** The team the caller picked. */
  teamId: number;
  /** That team's participation in the game, with its registered members still in the team; undefined when it has none. */
  participation: { status: ParticipationStatus; members: number } | undefined;
  /** The team the caller is registered with in this game (any status), null when none. */
  myTeamId: number | null;
  /** The game's member limit per team (0 = unlimited). */
  memberLimit: number;
}): JoinRefusal | null {
  if (participation?.status === "Suspended") return "banned";
  if (myTeamId !== null && myTeamId !== teamId) return "otherTeam";
  if (myTeamId === null && participation && memberLimit > 0 && participation.members >= memberLimit) return "memberLimit";
  return null;
}

/**
 * The Join dialog's first choices (null: none). A team re-applying after its rejection — the caller's team
 * in the game, Rejected — is chosen with the division it applied with, while that can still be chosen: it
 * chooses again (rules.md §2), and may change it, but need not pick what the page already knows. Else the
 * caller's first team, and the division when only one can be chosen.
 */
export function initialJoinChoice({
  teamIds,
  mine,
  joinable,
}: {
  /** The caller's teams, in the dialog's order. */
  teamIds: readonly number[];
  /** The caller's registration in the game: its team (null: none), status and division. */
  mine: { teamId: number | null; status: ParticipationStatus; division: number | null };
  /** The divisions that can be chosen when joining. */
  joinable: readonly number[];
}): { teamId: number | null; divisionId: number | null } {
  const reapplying = mine.status === "Rejected" && mine.teamId !== null && teamIds.includes(mine.teamId);
  const teamId = reapplying ? mine.teamId : (teamIds[0] ?? null);
  if (reapplying && mine.division !== null && joinable.includes(mine.division)) return { teamId, divisionId: mine.division };
  return { teamId, divisionId: joinable.length === 1 ? joinable[0]! : null };
}
