/**
 * Reading cookies and other client-sent percent-encoded text. The client writes these, so a broken escape
 * (`%`, `%E0%A4%A`) is expected input, not a server failure: `decodeURIComponent` throws a URIError on it,
 * which unguarded turned every request with such a cookie into a 500 (and every page into the error screen).
 */

/** `decodeURIComponent(text)`, or null when `text` is not a valid percent-encoding of UTF-8. */
export function decodeUriComponentOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * The value of cookie `name` in a Cookie header (or `document.cookie`), decoded, or null when absent. A
 * value that cannot be decoded counts as absent, and a later cookie of the same name (another path's) is
 * read instead: a broken cookie never hides a good one.
 */
export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0 || part.slice(0, eq).trim() !== name) continue;
    const value = decodeUriComponentOrNull(part.slice(eq + 1).trim());
    if (value !== null) return value;
  }
  return null;
}
