/** The scoreboard's filter, kept in the page's address (`?division=<id>&q=<text>`, useAddressFilter). */
export interface BoardFilter {
  /** A division id, or null for all divisions. */
  division: number | null;
  /** The team search as typed. */
  query: string;
}

/** The team search's longest text (the box's maxLength). */
export const BOARD_QUERY_MAX = 40;

/** The filter an address asks for; anything unreadable is no filter, a search too long is cut to the box's length. */
export function boardFilterFrom(params: URLSearchParams): BoardFilter {
  const raw = params.get("division");
  const n = Number(raw);
  return {
    division: raw !== null && Number.isSafeInteger(n) && n > 0 ? n : null,
    query: (params.get("q") ?? "").slice(0, BOARD_QUERY_MAX),
  };
}

/** The division the board shows: the one asked for when the game has it, otherwise all (null). */
export function knownDivision(division: number | null, divisions: readonly { id: number }[]): number | null {
  return division !== null && divisions.some((d) => d.id === division) ? division : null;
}

/** The address parameters a filter change sets (an empty value drops the parameter). */
export function boardFilterChanges(next: Partial<BoardFilter>): Record<string, string> {
  const changes: Record<string, string> = {};
  if ("division" in next) changes.division = next.division === null || next.division === undefined ? "" : String(next.division);
  if ("query" in next) changes.q = next.query ?? "";
  return changes;
}
