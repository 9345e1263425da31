// The table of build/client files the app worker serves under `npm start` (workers/local-server.ts), computed once at startup.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";

const CONTENT_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
  ".wasm": "application/wasm",
  ".pdf": "application/pdf",
};

export const IMMUTABLE = "public, max-age=31536000, immutable";
export const REVALIDATE = "public, max-age=0, must-revalidate";

export function contentTypeOf(path) {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
}

/**
 * Maps each file under `root` (URL path, e.g. "/assets/root-abc.js") to its headers. Dotfiles and
 * dot-folders (such as .assetsignore and .vite) are not served. Vite's hashed files under /assets/ get a
 * one-year immutable cache; anything else is revalidated by ETag.
 */
export function collectStaticFiles(root) {
  const files = {};
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (entry.isFile()) {
        const path = "/" + relative(root, full).split(sep).join("/");
        const hash = createHash("sha256").update(readFileSync(full)).digest("base64url").slice(0, 22);
        files[path] = {
          type: contentTypeOf(path),
          cacheControl: path.startsWith("/assets/") ? IMMUTABLE : REVALIDATE,
          etag: `"${hash}"`,
          size: statSync(full).size,
        };
      }
    }
  };
  walk(root);
  return files;
}
