import type { Context } from "hono";
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

/**
 * JSON with a weak ETag and `Cache-Control: no-cache`; answers 304 when `If-None-Match` matches
 * (api.md §1 HTTP caching).
 */
export function jsonWithEtag(c: Context<ApiEnv>, value: unknown, opts: { private?: boolean } = {}): Response {
  const body = JSON.stringify(value);
  const etag = `W/"${fnv1a(body)}-${body.length.toString(36)}"`;
  const headers: Record<string, string> = {
    ETag: etag,
    "Cache-Control": opts.private ? "private, no-cache" : "no-cache",
    "Content-Type": "application/json; charset=UTF-8",
  };
  const inm = c.req.header("if-none-match");
  if (inm && inm.split(",").some((t) => t.trim() === etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers });
}

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
