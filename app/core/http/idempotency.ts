/**
 * The `Idempotency-Key` request header (IETF draft "The Idempotency-Key HTTP Header Field"): a signed-in
 * client's POST carrying a key is done once; the same request again under that key gets the first answer
 * back instead of a second effect (a retry after an answer lost on the way). The store is
 * app/.server/services/idempotency.ts, the step around a route workers/api/idempotency.ts.
 */

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
/** Set on an answer given again from the store rather than by running the request. */
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";

/** 16–64 characters of the URL-safe alphabet: a UUID, a base64url token. */
const KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export const isValidIdempotencyKey = (key: string): boolean => KEY_PATTERN.test(key);

/** A key is kept this long after its first use; after that the same key is a new request. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3_600_000;
/**
 * A claim whose request has not finished after this long is taken to be lost (the runtime died in it, so
 * neither the answer nor the release was written). Whether its write was made is unknown: a retry is
 * refused (`lost`), never run again — it could do the thing twice.
 */
export const IDEMPOTENCY_LOCK_MS = 60_000;
/** Seconds a client is told to wait (Retry-After) while the first request under its key still runs. */
export const IDEMPOTENCY_RETRY_AFTER_S = 1;
/** Answers larger than this are not kept (the claim is released): creations answer with a few hundred bytes. */
export const IDEMPOTENCY_STORED_BODY_MAX = 256 * 1024;
/** Expired keys removed per claim, so that the sweep's cost stays bounded. */
export const IDEMPOTENCY_SWEEP_MAX = 100;

/** What makes two requests "the same" under one key. */
export interface IdempotentRequest {
  method: string;
  path: string;
  /** SHA-256 of the body, lower-case hex. */
  bodyHash: string;
}

/** A key as stored: its request, and either its answer (`status` set) or the running claim. */
export interface StoredIdempotencyKey extends IdempotentRequest {
  createdAt: number;
  /** When the running request claimed the key; null once answered. */
  lockedAt: number | null;
  status: number | null;
  body: string | null;
  contentType: string | null;
}

export type ExistingKeyDecision =
  | { kind: "replay"; status: number; body: string | null; contentType: string | null }
  /** The same key with another method, path or body: a client error (422). */
  | { kind: "mismatch" }
  /** The first request under the key is still running (409). */
  | { kind: "inProgress" }
  /** The first request's claim is older than IDEMPOTENCY_LOCK_MS, unanswered: its outcome is unknown (409, no retry). */
  | { kind: "lost" }
  /** Older than IDEMPOTENCY_KEY_TTL_MS: forgotten, the request runs as a new one. */
  | { kind: "expired" };

/** What to do with a request whose key is already stored. */
export function decideOnExistingKey(stored: StoredIdempotencyKey, request: IdempotentRequest, now: number): ExistingKeyDecision {
  if (stored.createdAt <= now - IDEMPOTENCY_KEY_TTL_MS) return { kind: "expired" };
  if (stored.method !== request.method || stored.path !== request.path || stored.bodyHash !== request.bodyHash) return { kind: "mismatch" };
  if (stored.status !== null) return { kind: "replay", status: stored.status, body: stored.body, contentType: stored.contentType };
  if (stored.lockedAt !== null && stored.lockedAt > now - IDEMPOTENCY_LOCK_MS) return { kind: "inProgress" };
  return { kind: "lost" };
}

/**
 * Whether an answer is kept for replay: a success (2xx) without a cookie (a session handed out once must
 * not be handed out again), JSON or empty, and small. Anything else releases the key, so a retry runs.
 */
export function isStorableAnswer(answer: { status: number; setsCookie: boolean; contentType: string | null; size: number }): boolean {
  if (answer.status < 200 || answer.status > 299 || answer.setsCookie) return false;
  if (answer.size > IDEMPOTENCY_STORED_BODY_MAX) return false;
  return answer.size === 0 || (answer.contentType ?? "").toLowerCase().includes("json");
}
