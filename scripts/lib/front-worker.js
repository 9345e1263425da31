// Entry worker of `npm start`: answers the exact files of build/client from a workerd disk service and
// hands every other request (pages, API, WebSocket upgrades, R2 files under /assets/{hash}/{name}) to the
// app worker. One JS hop instead of Cloudflare's asset-router chain; see DECISIONS.md.
//
// Bindings: STATIC_FILES (JSON: decoded path → {type, cacheControl, etag, size}), STATIC (disk service
// rooted at build/client), APP (service binding to the app worker).

function lookup(files, pathname) {
  let path;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  return Object.prototype.hasOwnProperty.call(files, path) ? [path, files[path]] : undefined;
}

function etagMatches(header, etag) {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag);
}

async function serveFile(request, env, path, file) {
  const headers = new Headers({
    "content-type": file.type,
    "cache-control": file.cacheControl,
    etag: file.etag,
    // The same security headers as the app's responses (workers/security-headers.ts): built files are
    // scripts, styles and images, never documents, so they may load and frame nothing.
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
    "cross-origin-opener-policy": "same-origin",
  });
  if (etagMatches(request.headers.get("if-none-match"), file.etag)) {
    return new Response(null, { status: 304, headers });
  }
  const encoded = path.split("/").map(encodeURIComponent).join("/");
  const response = await env.STATIC.fetch(`http://static${encoded}`);
  if (!response.ok) {
    // The file vanished after startup (a rebuild in progress): let the app answer.
    return undefined;
  }
  headers.set("content-length", String(file.size));
  return new Response(request.method === "HEAD" ? null : response.body, { status: 200, headers });
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
let configCache = null;
let writesInFlight = 0;
let writeGeneration = 0;

function cachedConfig(request) {
  if (!configCache || Date.now() - configCache.at > CONFIG_TTL_MS || writesInFlight > 0) return null;
  const headers = new Headers(configCache.headers);
  if (etagMatches(request.headers.get("if-none-match"), configCache.etag.replace(/^W\//, ""))) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(request.method === "HEAD" ? null : configCache.body, { status: 200, headers });
}

async function fetchConfig(request, env) {
  const generation = writeGeneration;
  // Always the full body from the app (no validator), so it can be kept; the client's validator is
  // checked here.
  const headers = forwardedHeaders(request);
  headers.delete("if-none-match");
  const response = await env.APP.fetch(new Request(request, { headers }));
  const etag = response.headers.get("etag");
  if (response.status !== 200 || !etag || response.headers.has("set-cookie")) return response;
  const body = await response.text();
  if (generation === writeGeneration && writesInFlight === 0) {
    configCache = { body, etag, headers: [...response.headers], at: Date.now() };
  }
  if (etagMatches(request.headers.get("if-none-match"), etag.replace(/^W\//, ""))) {
    return new Response(null, { status: 304, headers: response.headers });
  }
  return new Response(request.method === "HEAD" ? null : body, { status: 200, headers: response.headers });
}

function forwardedHeaders(request) {
  // The socket listens on loopback only, so the peer is this machine; never trust a client's claim.
  const headers = new Headers(request.headers);
  headers.set("cf-connecting-ip", "127.0.0.1");
  return headers;
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (request.method === "GET" || request.method === "HEAD") {
      const found = lookup(env.STATIC_FILES, url.pathname);
      if (found) {
        const response = await serveFile(request, env, found[0], found[1]);
        if (response) return response;
      }
      if (url.pathname === CONFIG_PATH && url.search === "") return cachedConfig(request) ?? fetchConfig(request, env);
      return env.APP.fetch(new Request(request, { headers: forwardedHeaders(request) }));
    }
    configCache = null;
    writesInFlight++;
    writeGeneration++;
    try {
      return await env.APP.fetch(new Request(request, { headers: forwardedHeaders(request) }));
    } finally {
      writesInFlight--;
      writeGeneration++;
    }
  },
};
