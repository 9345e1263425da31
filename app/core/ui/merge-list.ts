/**
 * Three-way merge of a list edited in one tab while another may have saved it: `base` is what this tab
 * loaded, `mine` what it now holds, `theirs` what the server holds now. The result keeps what the others
 * did (items they added, changed or removed) and applies this tab's own changes on top: its removals, its
 * edits field by field (a field this tab did not touch keeps the others' value; an item another tab
 * removed stays removed) and its new items (no id yet), in this tab's order
 * with the others' additions after. Items compare as JSON. Used where an API takes a whole list (a game's
 * divisions) and a missing item means "delete": a stale tab would otherwise delete what another added.
 */
export function mergeList<T extends { id: number | null }>(base: readonly T[], mine: readonly T[], theirs: readonly T[]): T[] {
  const baseById = new Map(base.filter((item) => item.id !== null).map((item) => [item.id, item]));
  const theirsById = new Map(theirs.filter((item) => item.id !== null).map((item) => [item.id, item]));
  const mineIds = new Set(mine.map((item) => item.id).filter((id) => id !== null));
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const out: T[] = [];
  for (const item of mine) {
    if (item.id === null) {
      out.push(item);
      continue;
    }
    const current = theirsById.get(item.id);
    if (current === undefined) continue;
    const loaded = baseById.get(item.id);
    out.push(loaded === undefined ? item : mergeFields(loaded, item, current, same));
  }
  for (const item of theirs) {
    if (item.id !== null && !mineIds.has(item.id) && !baseById.has(item.id)) out.push(item);
  }
  return out;
}

/** One item: the fields this tab changed from what it loaded, the others' current value for the rest. */
function mergeFields<T extends object>(loaded: T, mine: T, current: T, same: (a: unknown, b: unknown) => boolean): T {
  const out = { ...current };
  for (const key of Object.keys(mine) as (keyof T)[]) {
    if (!same(mine[key], loaded[key])) out[key] = mine[key];
  }
  return out;
}
