/**
 * The platform's own address for links that leave it (account mail). It is never taken from a request's
 * `Host`: behind a reverse proxy that passes the client's `Host` on, a password-recovery request naming
 * another host would mail the victim a reset link to that host (reset poisoning). `FLAGSTAFF_PUBLIC_URL`
 * names the address; `npm start` sets it to its own loopback address when unset and checks a given one
 * here (scripts/start.mjs loads this file under Node: it imports nothing). On Cloudflare a request reaches
 * the worker only through its routes, so its URL is the platform's.
 */

/** The origin of an http(s) URL (`https://ctf.example.org/` → `https://ctf.example.org`), else null. */
export function parsePublicUrl(value: string | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return url.origin;
}

/** The origin for links: the configured public URL when valid, else the request's own. */
export function publicOrigin(configured: string | undefined, requestUrl: string): string {
  return parsePublicUrl(configured) ?? new URL(requestUrl).origin;
}
