/**
 * D1 binds at most 100 parameters per statement (shared/reference/stack-notes.md). A list bound into one
 * statement (`inArray`) is cut into parts of this size, leaving room for the statement's other parameters.
 */
export const D1_LIST_MAX = 90;

/**
 * Runs `run` on consecutive parts of `values`, one after another, and concatenates what they return.
 * Use it where the list cannot be replaced by a join or a subquery.
 */
export async function inChunks<T, R>(values: readonly T[], run: (part: T[]) => Promise<R[]>, size = D1_LIST_MAX): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < values.length; i += size) out.push(...(await run(values.slice(i, i + size))));
  return out;
}
