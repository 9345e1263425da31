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
