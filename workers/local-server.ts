import { etagMatches, isNotModified, parseHttpDate } from "~/core/http/conditional";
import { bodyCodingFor } from "~/core/http/encoding";
import { pathOf } from "~/core/http/path";
import { withSecurityHeaders } from "./security-headers";

/**
 * What the `npm start` server adds in front of the routes, in the app worker itself: scripts/start.mjs
 * gives it the listening socket and two bindings, STATIC (a workerd disk service rooted at build/client)
 * and STATIC_FILES (that folder's table: decoded path → Content-Type, Cache-Control, ETag, size). On
 * Cloudflare neither binding exists and the platform serves the built files.
 *
 * A text file of 1 KiB or more also has a gzipped copy (STATIC_GZIP, made by scripts/lib/static-files.mjs at
 * each start), sent to clients that accept gzip: on Cloudflare the edge compresses, under `npm start`
 * nothing else would (≈ 1 MB of text in build/client, ≈ 0.34 MB gzipped).
 *
 * Doing this here instead of in a separate front worker saves one JS invocation per request (measured:
 * a route through the app 4,772–5,096 → 8,081–8,435 req/s; DECISIONS.md).
 */

export interface StaticFile {
  type: string;
  cacheControl: string;
  etag: string;
  size: number;
  /** The gzipped copy in STATIC_GZIP, with its own ETag; absent when the file is not worth compressing. */
  gzip?: { etag: string; size: number };
}

export interface LocalServerEnv {
  STATIC_FILES: Record<string, StaticFile>;
  STATIC: Fetcher;
  STATIC_GZIP?: Fetcher;
}

type Next = (request: Request) => Promise<Response>;

function lookup(files: Record<string, StaticFile>, pathname: string): [string, StaticFile] | undefined {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  return Object.prototype.hasOwnProperty.call(files, path) ? [path, files[path]!] : undefined;
}

/** One built file, or undefined when it vanished after startup (a rebuild in progress: the app answers). */
async function serveFile(request: Request, env: LocalServerEnv, path: string, file: StaticFile): Promise<Response | undefined> {
  const gzip = file.gzip && env.STATIC_GZIP && bodyCodingFor(request.headers.get("accept-encoding")) === "gzip" ? file.gzip : undefined;
  const etag = gzip?.etag ?? file.etag;
  const headers = new Headers({ "content-type": file.type, "cache-control": file.cacheControl, etag });
  // Which copy is sent depends on Accept-Encoding: caches must key on it.
  if (file.gzip) headers.set("vary", "Accept-Encoding");
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch !== null && etagMatches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  const encoded = path.split("/").map(encodeURIComponent).join("/");
  const response = await (gzip ? env.STATIC_GZIP! : env.STATIC).fetch(`http://static${encoded}`);
  if (!response.ok) return undefined;
  headers.set("content-length", String(gzip?.size ?? file.size));
  if (gzip) headers.set("content-encoding", "gzip");
  // The gzipped bytes go as they are: "automatic" would have the runtime compress them again.
  return new Response(request.method === "HEAD" ? null : response.body, { status: 200, headers, encodeBody: gzip ? "manual" : "automatic" });
}

/**
 * GET /api/config — the same public JSON for everyone, read by every page and API client — is answered
 * from this isolate for up to CONFIG_TTL_MS after the app produced it. Any other method passing through
 * (an admin saving the settings is one) drops it at once, and a response read while such a request was
 * in flight is not kept, so a change is never hidden behind the cache (DECISIONS.md "/api/config from
 * the front worker").
 */
const CONFIG_PATH = "/api/config";
const CONFIG_TTL_MS = 1000;
// The headers are kept as a Headers object: copying one is a native clone, while building one from an
// array of pairs walks it through the iterator protocol — a fifth of the runtime's time per cached answer
// (perf, BENCHMARKS.md thirty-sixth round).
let configCache: { body: string; headers: Headers; at: number } | null = null;
let writesInFlight = 0;
let writeGeneration = 0;

/**
 * The app's answer is kept with its validators (ETag, and Last-Modified once the config was 1 s old), so
 * the client's If-None-Match, or else If-Modified-Since, is judged here by the app's rule
 * (app/core/http/conditional.ts): the Last-Modified date stands for floor(t); without one, no date gives 304.
 */
function notModified(request: Request, headers: Headers): boolean {
  const lastModified = headers.get("last-modified");
  const now = Date.now();
  return isNotModified(
    { ifNoneMatch: request.headers.get("if-none-match"), ifModifiedSince: request.headers.get("if-modified-since") },
    { etag: headers.get("etag"), changedAt: lastModified === null ? null : parseHttpDate(lastModified, now) },
    now,
  );
}

function cachedConfig(request: Request): Response | null {
  if (!configCache || Date.now() - configCache.at > CONFIG_TTL_MS || writesInFlight > 0) return null;
  const headers = new Headers(configCache.headers);
  // The clock of this answer, not of the one kept: browsers set their clock by it (app/lib/server-clock.ts).
  headers.set("X-Server-Time", String(Date.now()));
  if (notModified(request, headers)) return new Response(null, { status: 304, headers });
  return new Response(request.method === "HEAD" ? null : configCache.body, { status: 200, headers });
}

async function fetchConfig(request: Request, next: Next): Promise<Response> {
  const generation = writeGeneration;
  // Always the full body from the app (no conditional headers), so it can be kept; the client's are
  // checked here.
  const headers = new Headers(request.headers);
  headers.delete("if-none-match");
  headers.delete("if-modified-since");
  const response = await next(new Request(request, { headers }));
  const etag = response.headers.get("etag");
  if (response.status !== 200 || !etag || response.headers.has("set-cookie")) return response;
  const body = await response.text();
  if (generation === writeGeneration && writesInFlight === 0) {
    configCache = { body, headers: new Headers(response.headers), at: Date.now() };
  }
  if (notModified(request, response.headers)) return new Response(null, { status: 304, headers: response.headers });
  return new Response(request.method === "HEAD" ? null : body, { status: 200, headers: response.headers });
}

/**
 * The socket listens on loopback only, so the peer is this machine: a client's claim of another address
 * is removed (the app then reads 127.0.0.1).
 */
function withoutAddressClaims(request: Request): Request {
  if (!request.headers.has("cf-connecting-ip") && !request.headers.has("x-real-ip")) return request;
  const headers = new Headers(request.headers);
  headers.delete("cf-connecting-ip");
  headers.delete("x-real-ip");
  return new Request(request, { headers });
}

/** Built files (with the security headers of every response), the cached /api/config, then the app (`next`). */
export async function serveLocal(incoming: Request, env: LocalServerEnv, next: Next): Promise<Response> {
  const request = withoutAddressClaims(incoming);
  if (request.method === "GET" || request.method === "HEAD") {
    const path = pathOf(request.url);
    const found = lookup(env.STATIC_FILES, path);
    if (found) {
      const response = await serveFile(request, env, found[0], found[1]);
      if (response) return withSecurityHeaders(request, response);
    }
    if (path === CONFIG_PATH && new URL(request.url).search === "") return cachedConfig(request) ?? fetchConfig(request, next);
    return next(request);
  }
  configCache = null;
  writesInFlight++;
  writeGeneration++;
  try {
    return await next(request);
  } finally {
    writesInFlight--;
    writeGeneration++;
  }
}
