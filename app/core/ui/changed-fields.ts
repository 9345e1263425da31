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

/** The name of the hidden input holding a field's value as the form was drawn (`original.phone`). */
export const originalFieldName = (field: string): string => `original.${field}`;

/**
 * The fields of a form's body to write, given the values the form was drawn with as it carried them back
 * (hidden `original.<field>` inputs): a field whose value is still its original is left out, so a stale tab's
 * save does not write back a value another writer changed meanwhile (an admin's correction of the real name).
 * A field with no original (an older page, a hand-made post) is written, as before.
 */
export function changedFromOriginals<T extends Record<string, unknown>>(body: T, originals: Partial<Record<keyof T, unknown>>): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(body) as (keyof T)[]) {
    const original = originals[key];
    if (original === undefined || JSON.stringify(body[key]) !== JSON.stringify(original)) out[key] = body[key];
  }
  return out;
}
