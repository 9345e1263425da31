/**
 * How a challenges page that shows no board finds out that it may show one now, without a reload.
 */

/** Why the page shows no board (the challenges route's states besides "ready"). */
export type ClosedBoardState = "notStarted" | "ended" | "forbidden" | "banned" | "notJoined" | "leftTeam";

export interface ClosedBoardRecheck {
  /** How often the page reads its data again while the tab is visible. */
  everyMs: number;
  /**
   * Whether the game's feed also tells it: a review that accepts the team or lifts its suspension puts the
   * team on the board, and the board's readers are told to refetch at once (rules.md §2, §11). A hidden
   * game lets only its players hold the feed, so a team not accepted listens to nothing there.
   */
  listen: boolean;
}

/**
 * Waiting on the organisers' times ("not started", "ended"): a read every 30 s, as the game's overview does
 * (the start and the end pass by the clock, which the page watches apart). Waiting on a review or on
 * joining: the 10 s of a list (rules.md §15), and the feed of a visible game at once.
 */
export function closedBoardRecheck(state: ClosedBoardState, hidden: boolean): ClosedBoardRecheck {
  if (state === "notStarted" || state === "ended") return { everyMs: 30_000, listen: false };
  return { everyMs: 10_000, listen: !hidden };
}
