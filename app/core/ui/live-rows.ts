/** The fields that tell two log rows apart (records carry no id on the wire). */
interface LiveRow {
  time: number;
  level: string;
  name: string | null;
  ip: string | null;
  msg: string;
}

const identity = (row: LiveRow) => JSON.stringify([row.time, row.level, row.name, row.ip, row.msg]);

/**
 * The rows pushed live that a freshly read first page does not hold yet. A page read may have been answered
 * from the database before a pushed record was written (the read started first, the push arrived first), so
 * dropping every pushed row when the page changes would lose that record until the next reload. Kept: rows of
 * the shown level that the page does not list and that are not older than its oldest row (an older one would
 * belong further down, past the page the admin is looking at).
 */
export function liveRowsToKeep<T extends LiveRow>(live: readonly T[], page: readonly LiveRow[], level: string): T[] {
  const listed = new Set(page.map(identity));
  const oldest = page.reduce((min, row) => Math.min(min, row.time), Number.POSITIVE_INFINITY);
  return live.filter((row) => (level === "All" || row.level === level) && !listed.has(identity(row)) && (page.length === 0 || row.time >= oldest));
}
