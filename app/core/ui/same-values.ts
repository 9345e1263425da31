/**
 * Whether two request bodies are the same as they would be sent: plain objects compare key by key (in any
 * order), lists item by item, anything else by `Object.is`. A property whose value is `undefined` counts as
 * absent, because JSON does not send it; `null`, `undefined` and `""` are otherwise all different values.
 * An edit form compares the body it would send with the one built from the values it loaded, and says
 * "no change" instead of sending a save that would change nothing.
 */
export function sameValues(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameValues(item, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = (o: Record<string, unknown>) => Object.keys(o).filter((key) => o[key] !== undefined);
  const aKeys = keys(a);
  const bKeys = keys(b);
  return aKeys.length === bKeys.length && aKeys.every((key) => Object.hasOwn(b, key) && sameValues(a[key], b[key]));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
