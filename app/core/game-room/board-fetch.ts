/**
 * Which fetched scoreboard may replace the one a page shows (app/components/scoreboard/use-live-board.ts).
 * A page fetches the board at load, after a reconnect, a `seq` gap or a refetch delta, and applies pushed
 * deltas in between; answers can arrive out of order. A fetched board is taken only when it answers the
 * latest request, and, if a delta was applied after that request left, only when it is not older than the
 * board the delta made (versions count within one wake of the room; a wake shows as a gap, which sends a
 * new request, so an answer from before it is never the latest).
 */
export interface BoardFetchState {
  /** The id of the latest request sent. */
  latestRequest: number;
  /** Whether a pushed delta changed the shown board since the latest request was sent. */
  deltaSinceRequest: boolean;
  /** The version of the board shown, or null when none is. */
  shownVersion: number | null;
}

export function takesFetchedBoard(state: BoardFetchState, fetched: { request: number; version: number }): boolean {
  if (fetched.request !== state.latestRequest) return false;
  if (state.deltaSinceRequest && state.shownVersion !== null && fetched.version < state.shownVersion) return false;
  return true;
}
