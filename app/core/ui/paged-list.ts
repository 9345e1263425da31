/**
 * A list read page by page (`count` and `skip`, newest first) where the pages after the first are read on
 * demand. When the first page is read again, the later pages shown are read again with it, from `size`
 * on: the list may have moved under them since.
 */

/** The `skip` of each page after the first that together held `loaded` rows, `size` rows a page. */
export function olderPageSkips(loaded: number, size: number): number[] {
  if (!(size > 0) || !(loaded > 0)) return [];
  return Array.from({ length: Math.ceil(loaded / size) }, (_, i) => size * (i + 1));
}

/**
 * Rows in order with each id once, where it first occurs: a page read after the list moved can repeat a row
 * an earlier page already holds.
 */
export function uniqueById<T extends { id: number }>(rows: readonly T[]): T[] {
  const seen = new Set<number>();
  return rows.filter((row) => {
    if (seen.has(row.id)) return false;
    seen.add(row.id);
    return true;
  });
}
