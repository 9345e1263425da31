import { PARTICIPATION_STATUSES, type ParticipationStatus } from "../enums";
import type { ParticipationInfo } from "../schemas/game";
import { matchesQuery } from "../ui/list-page";

export type ReviewStatusFilter = ParticipationStatus | "all";
/** A division's id, teams without one (`none`), or every team (`all`). */
export type ReviewDivisionFilter = number | "none" | "all";

export interface ReviewFilter {
  status: ReviewStatusFilter;
  division: ReviewDivisionFilter;
  query: string;
}

export const NO_REVIEW_FILTER: ReviewFilter = { status: "all", division: "all", query: "" };

/** The statuses in the order the review table lists them: what waits for the admin first. */
const ORDER: Record<ParticipationStatus, number> = { Pending: 0, Accepted: 1, Rejected: 2, Suspended: 3, Unsubmitted: 4 };

/** Participations per status, and `all`. */
export function reviewCounts(list: readonly ParticipationInfo[]): Record<ReviewStatusFilter, number> {
  const counts = Object.fromEntries([...PARTICIPATION_STATUSES, "all"].map((s) => [s, 0])) as Record<ReviewStatusFilter, number>;
  for (const p of list) counts[p.status] += 1;
  counts.all = list.length;
  return counts;
}

/**
 * The rows of the review table: those matching the filter (the query looks at the team's name and id and
 * its members' user names, also of registered members who have left the team), pending requests first,
 * then by the order teams asked to join.
 */
export function reviewRows(list: readonly ParticipationInfo[], filter: ReviewFilter): ParticipationInfo[] {
  return list
    .filter(
      (p) =>
        (filter.status === "all" || p.status === filter.status) &&
        (filter.division === "all" || (filter.division === "none" ? p.divisionId === null : p.divisionId === filter.division)) &&
        matchesQuery(filter.query, p.team.id, [p.team.name, ...p.team.members.map((m) => m.userName), ...p.formerMembers.map((m) => m.userName)]),
    )
    .sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.id - b.id);
}

/** A filter read from the page's address (`status`, `division`, `q`); anything unknown means no filter. */
export function parseReviewFilter(params: URLSearchParams): ReviewFilter {
  const status = PARTICIPATION_STATUSES.find((s) => s === params.get("status")) ?? "all";
  const rawDivision = params.get("division");
  const division = rawDivision === "none" ? "none" : rawDivision && /^\d+$/.test(rawDivision) ? Number(rawDivision) : "all";
  return { status, division, query: params.get("q") ?? "" };
}

/**
 * Whether a review action is asked about first: suspending a team, or rejecting an accepted one, takes it
 * off the scoreboard in the middle of a game (one stray click in a table of 1,000 teams); rejecting a
 * suspended one lifts its ban (a rejected team may apply again, rules.md §2).
 */
export function needsConfirmation(current: ParticipationStatus, next: ParticipationStatus): boolean {
  return next === "Suspended" || (next === "Rejected" && (current === "Accepted" || current === "Suspended"));
}

/** The confirmation's message key under `adminGames.review.confirm` for a move that needs one. */
export function confirmationMessage(current: ParticipationStatus, next: ParticipationStatus): "suspend" | "reject" | "rejectSuspended" {
  if (next === "Suspended") return "suspend";
  return current === "Suspended" ? "rejectSuspended" : "reject";
}
