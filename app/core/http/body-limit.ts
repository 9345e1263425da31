import { AppError } from "../errors";
import type { AuthLevel } from "../permissions";

/**
 * Request body caps by route kind, checked before anything reads a body (workers/api/body-limit.ts).
 * Without them one anonymous 300 MB body took workerd from 143 to 752 MB (DECISIONS.md 2026-11-27).
 */

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The file rules of uploads (api.md §3, rules.md §13, spec §3): an image (avatar, poster, logo) 1 B – 3 MB,
 * a writeup PDF 1 B – 20 MB, an attachment 1 B – 100 MB (the Workers request limit). MB = 1024².
 */
export const FILE_LIMITS = { image: 3 * MiB, pdf: 20 * MiB, attachment: 100 * MiB } as const;

/** What a multipart route carries: one image, one PDF, or several attachments (POST /api/assets). */
export type UploadRule = "image" | "pdf" | "attachments";

/** Boundaries and part headers around one file: ≈ 0.2–1.2 KB (a 255-character name), with room to spare. */
const MULTIPART_OVERHEAD = 64 * KiB;
/** The same for many files in one request: ≈ 1.2 KB a part is room for ≈ 850 parts. */
const MULTIPART_MANY_OVERHEAD = 1 * MiB;

/**
 * - `json`: what visitors and players send (sign-in, registration, a flag, a profile, a team): the largest
 *   is a registration with a captcha token, ≈ 6 KB even \u-escaped.
 * - `largeJson`: admins' editors and the container agents' signed callbacks: the largest legitimate body
 *   measured is a batch of 1,000 flags with 2,048-character links, 2.8 MB \u-escaped (DECISIONS.md).
 * - uploads: the file rule plus multipart framing.
 */
export const BODY_LIMITS = {
  json: 64 * KiB,
  largeJson: 4 * MiB,
  image: FILE_LIMITS.image + MULTIPART_OVERHEAD,
  pdf: FILE_LIMITS.pdf + MULTIPART_OVERHEAD,
  attachments: FILE_LIMITS.attachment + MULTIPART_MANY_OVERHEAD,
} as const;

export type BodyKind = keyof typeof BODY_LIMITS;

/** What a route declares about its body (workers/api/registry.ts RouteSpec). */
export interface BodyRoute {
  auth: AuthLevel;
  internal?: true;
  rawBody?: "multipart";
  /** The file rule of a multipart route; an image unless told. */
  upload?: UploadRule;
}

/** The kind, hence the cap, of a route's body. Routes that read no body get `json`'s small cap too. */
export function bodyKindOf(route: BodyRoute): BodyKind {
  if (route.rawBody === "multipart") return route.upload ?? "image";
  return route.auth === "Admin" || route.internal ? "largeJson" : "json";
}

/**
 * The body's declared length: Content-Length when no Transfer-Encoding overrides it (RFC 9112 §6.3), or
 * null when the body has to be counted as it is read.
 */
export function declaredLength(headers: Headers): number | null {
  if (headers.has("transfer-encoding")) return null;
  const value = headers.get("content-length")?.trim();
  return value !== undefined && /^\d{1,16}$/.test(value) ? Number(value) : null;
}

/**
 * Reads a body of undeclared length with a running count, so at most `limit` bytes are ever held. Past
 * the limit it stops and answers null, leaving the rest unread and the stream unlocked, to be cancelled
 * once the refusal has reached the sender (`LINGER_MS`).
 */
export async function readWithin(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array[] | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    size += value.byteLength;
    if (size > limit) {
      reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
}

/**
 * How long a connection is held after a refusal sent before its body was read (workers/api/body-limit.ts
 * `lingerOnUnreadBody`), the body left unread meanwhile (the sender waits on TCP flow control), then
 * cancelled. Closing at once on unread bytes resets the connection, and a reset makes clients and the
 * `npm start` front drop an answer they had not read yet. Reading and dropping the rest instead cost
 * workerd ≈ 20 MB of memory per refused 300 MB body (32 MB read; 297 → 1,103 MB after 40), so nothing is read.
 */
export const LINGER_MS = 1_000;

/**
 * A refused body up to this size is read and dropped before the refusal goes out, so the client's
 * connection stays open for its next request (workerd keeps a connection whose request was read whole;
 * a lingering close ends it, and a keep-alive client's next request sent meanwhile is lost with it).
 * Larger ones linger and close: their sender is usually still sending, and reading them costs memory.
 */
export const DRAIN_MAX = 1024 * 1024;
/** How long a refused body may take to arrive for DRAIN_MAX; a slower one lingers and closes. */
export const DRAIN_MS = 2_000;

/**
 * Reads and drops the rest of a body, and says whether it ended within `maxBytes` and `ms`. On false the
 * reader may still hold a pending read; the caller cancels it.
 */
export async function dropWithin(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((done) => {
    timer = setTimeout(() => done("late"), ms);
  });
  try {
    let size = 0;
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === "late") return false;
      if (next.done) return true;
      size += next.value.byteLength;
      if (size > maxBytes) return false;
    }
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Whether an unread body is large enough to need `LINGER_MS`: the runtime reads and drops a small rest itself. */
export function needsLinger(headers: Headers): boolean {
  const length = declaredLength(headers);
  return length === null || length > BODY_LIMITS.json;
}

/** A size as the file rules write it: "64 KB", "4 MB", "3 MB" (KB = 1024, MB = 1024²). */
export function formatByteSize(bytes: number): string {
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MB`;
  if (bytes >= KiB) return `${Number((bytes / KiB).toFixed(1))} KB`;
  return `${bytes} B`;
}

/** The limit a refusal names: the file rule for an upload (the framing is not the sender's concern), else the cap. */
function namedLimit(kind: BodyKind): number {
  if (kind === "image") return FILE_LIMITS.image;
  if (kind === "pdf") return FILE_LIMITS.pdf;
  if (kind === "attachments") return FILE_LIMITS.attachment;
  return BODY_LIMITS[kind];
}

/** 413 for a body over its route's cap: `file.too_large` for an upload, `common.body_too_large` otherwise. */
export function bodyTooLarge(kind: BodyKind): AppError {
  const code = kind === "json" || kind === "largeJson" ? "common.body_too_large" : "file.too_large";
  return new AppError(413, code, { limit: formatByteSize(namedLimit(kind)) });
}
