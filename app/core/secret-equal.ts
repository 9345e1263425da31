/**
 * Compares a secret the server holds (a per-process token, an expected signature) with what a request
 * carried, in time that depends only on the expected length, never on where the first difference is.
 * Never equal when either side is missing or the lengths differ.
 */
export function secretEquals(expected: string | undefined, given: string | undefined): boolean {
  if (!expected || !given || expected.length !== given.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  return diff === 0;
}
