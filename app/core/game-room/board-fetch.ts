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

/** The shortest wait before a board refused as "not started" is fetched again: a clock a little fast, a start just moved. */
export const START_RETRY_MIN_MS = 1_000;
/** The wait when the game's start could not be read. */
export const START_UNKNOWN_WAIT_MS = 30_000;
/** The longest single wait: a timer overflows past 2^31 − 1 ms; a start further away is waited for in steps. */
export const START_WAIT_MAX_MS = 6 * 3_600_000;

/**
 * How long a page refused the board as "not started" (rules.md §1) waits before fetching it again. Nothing
 * is pushed when a game starts, so the page waits until the game's start on the server's clock (`now`),
 * never less than START_RETRY_MIN_MS (a refusal right at the start is answered again a second later, not
 * in a loop), nor more than START_WAIT_MAX_MS.
 */
export function waitForStartMs(start: number | null, now: number): number {
  if (start === null || !Number.isFinite(start)) return START_UNKNOWN_WAIT_MS;
  return Math.min(Math.max(start - now, START_RETRY_MIN_MS), START_WAIT_MAX_MS);
}
