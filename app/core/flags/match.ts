/** Flag matching (rules.md §5): exact, case-sensitive, after trimming the submission; constant time. */

const encoder = new TextEncoder();

/** Compares in time that depends only on the lengths, never on where the first difference is. */
export function flagsEqual(submitted: string, expected: string): boolean {
  const a = encoder.encode(submitted.trim());
  const b = encoder.encode(expected);
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** Whether the answer equals any of the flags (all are compared, so timing reveals nothing). */
export function matchesAny(submitted: string, flags: readonly string[]): boolean {
  let hit = false;
  for (const f of flags) hit = flagsEqual(submitted, f) || hit;
  return hit;
}
