import { createDb } from "../db/client";
import { blobKey, getFile, isFileHash, sanitizeFileName } from "./files";
import { contentTypeForName } from "./magic-bytes";

const ASSET_PATH = /^\/assets\/([0-9a-f]{64})\/([^/]+)$/i;
const WEEK_SECONDS = 7 * 24 * 3600;
/** Types a browser may show inline; anything else is a download, so an upload can never run as a page. */
const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/x-icon", "application/pdf"]);

/**
 * The hash (lower-case) and download name when `pathname` is `/assets/{64 hex}/{name}` in any case, else
 * null. A name with a broken escape is taken as written: the file is still the hash's (or a JSON 404).
 */
export function matchAssetPath(pathname: string): { hash: string; name: string } | null {
  const m = ASSET_PATH.exec(pathname);
  const hash = m?.[1]!.toLowerCase();
  if (!m || !hash || !isFileHash(hash)) return null;
  let name: string;
  try {
    name = decodeURIComponent(m[2]!);
  } catch {
    name = m[2]!;
  }
  return { hash, name };
}

const contentDisposition = (type: "inline" | "attachment", requested: string) => {
  // The name asked for in the address, reduced as a stored name is (`../../etc/passwd` → `passwd`).
  const name = sanitizeFileName(requested);
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
};

/**
 * `GET /assets/{hash}/{name}`: the stored blob with a content type from the name's extension (the
 * stored type when the name has none), `Content-Disposition` with the name, a 7-day cache and the hash as
 * ETag. Missing files answer 404 in the `{title, status}` shape.
 */
export async function serveAsset(
  request: Request,
  env: Env,
  target: { hash: string; name: string },
  notFoundTitle: string,
): Promise<Response> {
  const notFound = () => Response.json({ title: notFoundTitle, status: 404 }, { status: 404 });
  if (request.method !== "GET" && request.method !== "HEAD") {
    return Response.json({ title: notFoundTitle, status: 405 }, { status: 405, headers: { Allow: "GET, HEAD" } });
  }
  const row = await getFile(createDb(env.DB), target.hash);
  // A file at zero references is being dropped, or was left so by a crash between release and drop.
  if (!row || row.referenceCount <= 0) return notFound();
  const etag = `"${target.hash}"`;
  const byName = contentTypeForName(target.name);
  const contentType = byName === "application/octet-stream" ? row.contentType : byName;
  const headers = new Headers({
    "Content-Type": contentType,
    "Content-Disposition": contentDisposition(INLINE_TYPES.has(contentType) ? "inline" : "attachment", target.name),
    "Cache-Control": `public, max-age=${WEEK_SECONDS}, immutable`,
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  });
  const inm = request.headers.get("if-none-match");
  if (inm && inm.split(",").some((v) => v.trim().replace(/^W\//, "") === etag)) return new Response(null, { status: 304, headers });
  const object = await env.FILES.get(blobKey(target.hash));
  if (!object) return notFound();
  headers.set("Content-Length", String(object.size));
  return new Response(request.method === "HEAD" ? null : object.body, { headers });
}
