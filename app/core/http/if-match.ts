/**
 * Versioned edit resources (a game's and a challenge's settings, api.md §9): GET and PUT answer with a
 * strong `ETag` naming the stored version, and a PUT may carry `If-Match` (RFC 9110 §13.1.1) to be
 * refused with 412 when the resource changed since that version was read. Without the header a PUT
 * behaves as it always did.
 */

/** The strong ETag of a stored version. */
export const versionEtag = (version: number): string => `"${version}"`;

const ENTITY_TAG = /^\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(?:,|$)/;
const VERSION = /^[1-9]\d{0,14}$/;

/**
 * The versions an `If-Match` value accepts, or null when it sets no condition (absent, or `*`: any stored
 * version, the resource existing being checked anyway). Comparison is strong: a weak tag, a tag this
 * server never made and a malformed value match nothing, so such a PUT is refused (an empty list).
 */
export function parseIfMatch(header: string | null | undefined): number[] | null {
  if (header == null) return null;
  if (header.trim() === "*") return null;
  const versions: number[] = [];
  let rest = header;
  while (rest.trim() !== "") {
    const m = ENTITY_TAG.exec(rest);
    if (!m) return [];
    if (!m[1] && VERSION.test(m[2]!)) versions.push(Number(m[2]));
    rest = rest.slice(m[0].length);
  }
  return versions;
}

/** Whether a stored version satisfies a parsed `If-Match` (null: no condition). */
export const versionMatches = (ifMatch: readonly number[] | null, version: number): boolean => ifMatch === null || ifMatch.includes(version);

/** A representation with the stored version it was read at (its ETag). */
export interface Versioned<T> {
  value: T;
  version: number;
}

/**
 * The `If-Match` a client sends for an ETag it was given, or null without one. Our tags are strong; an
 * intermediary that compresses the answer (Cloudflare's edge) may hand it on weakened (`W/"3"`), which
 * would match nothing: the version it names is sent as the strong tag it was.
 */
export const ifMatchFor = (etag: string | null | undefined): string | null => (etag ? etag.trim().replace(/^W\//, "") : null);
