/**
 * Request paths without a URL object. Every request's routing reads its path; in the Workers runtime a
 * `URL` is a native object (parsed, wrapped, later collected), and the hot paths made three of them per
 * request only to read `pathname` and `protocol` (BENCHMARKS.md, tenth round).
 */

/** Path characters that `new URL(…).pathname` keeps exactly as written (RFC 3986 pchar, '/' and '%'). */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
/** Scheme and authority as a serialised URL writes them (no whitespace, backslash, query or fragment). */
const PLAIN_HEAD = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\\\s]*$/;
/** A "." or ".." segment (also percent-encoded), which the URL parser resolves. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:\/|$)/i;

/**
 * `new URL(url).pathname` of an absolute http(s) URL such as `Request.url`: sliced from the string when
 * the path is plain, parsed only when the parser would change it (dot segments, characters it encodes).
 */
export function pathOf(url: string): string {
  const scheme = url.indexOf("://");
  const start = scheme < 0 ? -1 : url.indexOf("/", scheme + 3);
  if (start < 0) return new URL(url).pathname;
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const ch = url.charCodeAt(i);
    if (ch === 63 /* ? */ || ch === 35 /* # */) {
      end = i;
      break;
    }
  }
  if (!PLAIN_HEAD.test(url.slice(0, start))) return new URL(url).pathname;
  const path = url.slice(start, end);
  return PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path) ? path : new URL(url).pathname;
}

/** Whether the URL's scheme is https (`new URL(url).protocol === "https:"`, without parsing). */
export const isHttpsUrl = (url: string): boolean => /^https:/i.test(url.trimStart());
