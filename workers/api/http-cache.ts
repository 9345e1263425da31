import type { Context } from "hono";
import { ChangeTimes, type Conditions, isNotModified, lastModifiedOf } from "~/core/http/conditional";
import { parseIfMatch, type Versioned, versionEtag } from "~/core/http/if-match";
import { attachmentDisposition } from "~/core/writeup-names";
import type { ApiEnv } from "./context";

/** FNV-1a of the body: cheap, stable, good enough for a weak validator. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/** Per-isolate change times of `jsonWithEtag` resources (conditional.ts); a few hundred bytes a key. */
const changeTimes = new ChangeTimes(4096);

/**
 * JSON with a weak ETag, `Last-Modified` and `Cache-Control: no-cache`; answers 304 to `If-None-Match`
 * or, without it, `If-Modified-Since` (api.md §1 HTTP caching). The change time is when this isolate
 * first served this ETag for this resource: the path and query, and the user for private answers.
 */
export function jsonWithEtag(c: Context<ApiEnv>, value: unknown, opts: { private?: boolean } = {}): Response {
  const body = JSON.stringify(value);
  const etag = `W/"${fnv1a(body)}-${body.length.toString(36)}"`;
  const url = new URL(c.req.url);
  const key = `${opts.private ? (c.get("user")?.id ?? "") : ""} ${url.pathname.toLowerCase()}${url.search}`;
  // The clock now, after the content was read, not the request's start (see ChangeTimes).
  const now = Date.now();
  const changedAt = changeTimes.changedAt(key, etag, now);
  const headers = validatorHeaders(etag, changedAt, now, opts.private ? "private, no-cache" : "no-cache");
  if (isNotModified(conditionsOf(c), { etag, changedAt }, now)) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers });
}

/** The conditional headers of a GET. */
export function conditionsOf(c: Context<ApiEnv>): Conditions {
  return { ifNoneMatch: c.req.header("if-none-match") ?? null, ifModifiedSince: c.req.header("if-modified-since") ?? null };
}

/** The headers a JSON answer and its 304 share: ETag, Cache-Control and, once 1 s old, Last-Modified. */
export function validatorHeaders(etag: string, changedAt: number, now: number, cacheControl: string): Record<string, string> {
  const headers: Record<string, string> = { ETag: etag, "Cache-Control": cacheControl, "Content-Type": "application/json; charset=UTF-8" };
  const lastModified = lastModifiedOf(changedAt, now);
  if (lastModified) headers["Last-Modified"] = lastModified;
  return headers;
}

/** JSON of a versioned edit resource with its strong ETag (app/core/http/if-match.ts); never cached. */
export function jsonWithVersion(c: Context<ApiEnv>, { value, version }: Versioned<unknown>): Response {
  return c.json(value, 200, { ETag: versionEtag(version), "Cache-Control": "no-store" });
}

/** The versions a write's `If-Match` accepts, or null when it sets no condition. */
export const ifMatchOf = (c: Context<ApiEnv>): number[] | null => parseIfMatch(c.req.header("if-match"));

/** A file download: saved under `name`, never cached, never sniffed into another type. */
export function downloadResponse(body: BodyInit | null, name: string, type: string, init: { headers?: Record<string, string>; encodeBody?: "manual" } = {}): Response {
  return new Response(body, {
    ...(init.encodeBody ? { encodeBody: init.encodeBody } : {}),
    headers: {
      "Content-Type": type,
      "Content-Disposition": attachmentDisposition(name),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      ...init.headers,
    },
  });
}
