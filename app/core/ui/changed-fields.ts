/**
 * The fields of a form's body that differ from what the form was loaded with (compared as JSON, so lists
 * and objects compare by content). Sent as a partial update (api.md: the edit PUTs are partial), a save
 * changes only what this form changed: a second tab's save of the summary no longer sends back its stale
 * title, or a game's divisions without the one another tab just added (which deleted it).
 */
export function changedFields<T extends Record<string, unknown>>(loaded: T, body: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(body) as (keyof T)[]) {
    if (JSON.stringify(body[key]) !== JSON.stringify(loaded[key])) out[key] = body[key];
  }
  return out;
}
