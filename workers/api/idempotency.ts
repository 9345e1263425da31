import type { CurrentUser } from "~/.server/auth/current-user";
import { claimIdempotencyKey, type KeyUse, releaseIdempotencyKey, storeIdempotentAnswer } from "~/.server/services/idempotency";
import { AppError, badRequest } from "~/core/errors";
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_RETRY_AFTER_S, IDEMPOTENT_REPLAYED_HEADER, isStorableAnswer, isValidIdempotencyKey } from "~/core/http/idempotency";
import { type ApiContext, backgroundOf } from "./context";

/**
 * The `Idempotency-Key` step of a route (app/core/http/idempotency.ts), run by defineRoute after the
 * guard, the body cap and validation: a signed-in user's POST with a key runs once; the same request
 * under the key again gets the stored answer with `Idempotent-Replayed: true`. Without a session the
 * header is ignored (registration and sign-in hand out a session, which is never replayed).
 */
export async function runIdempotent(c: ApiContext, user: CurrentUser | null, run: () => Promise<Response>): Promise<Response> {
  const key = c.req.header(IDEMPOTENCY_KEY_HEADER);
  if (key === undefined || c.req.method !== "POST" || user === null) return run();
  if (!isValidIdempotencyKey(key)) throw badRequest("idempotency.key_invalid");

  const url = new URL(c.req.url);
  const use: KeyUse = { userId: user.id, key, method: "POST", path: url.pathname.toLowerCase() + url.search, bodyHash: await bodyHashOf(c) };
  const db = c.get("db");
  const claim = await claimIdempotencyKey(db, c.get("now"), use);
  if (claim.kind === "mismatch") throw new AppError(422, "idempotency.key_reused");
  if (claim.kind === "inProgress") throw conflictInProgress();
  // Not run again: the first may have done it before the runtime died (no Retry-After: the key is settled).
  if (claim.kind === "lost") throw new AppError(409, "idempotency.outcome_unknown");
  if (claim.kind === "replay") {
    const headers = new Headers({ [IDEMPOTENT_REPLAYED_HEADER]: "true" });
    if (claim.contentType) headers.set("Content-Type", claim.contentType);
    return new Response(claim.body, { status: claim.status, headers });
  }

  // The request and the keeping of its answer go on if the client goes away meanwhile (its retry must find
  // the answer, not a claim left without one).
  const work = (async () => {
    let response: Response;
    try {
      response = await run();
    } catch (error) {
      await releaseQuietly(c, use, claim.token);
      throw error;
    }
    const text = response.body === null ? "" : await response.text();
    const answer = { status: response.status, body: text === "" ? null : text, contentType: response.headers.get("Content-Type") };
    const storable = isStorableAnswer({ ...answer, setsCookie: response.headers.has("Set-Cookie"), size: new TextEncoder().encode(text).byteLength });
    if (!storable) await releaseQuietly(c, use, claim.token);
    else {
      // The request has had its effect: a failed store must not turn its answer into an error.
      await storeIdempotentAnswer(db, use, claim.token, answer).catch((error: unknown) => console.error("Idempotency-Key answer not kept", error));
    }
    // The body was read to be kept: the client gets the same bytes in a new response.
    return new Response(answer.body, response);
  })();
  backgroundOf(c)?.(work.catch(() => undefined));
  return work;
}

/** 409 while the first request under the key runs; Retry-After tells the client to keep its key and ask again. */
const conflictInProgress = () => new AppError(409, "idempotency.in_progress", undefined, { "Retry-After": String(IDEMPOTENCY_RETRY_AFTER_S) });

/** A release that fails leaves the claim to expire after IDEMPOTENCY_LOCK_MS; the request's own outcome wins. */
async function releaseQuietly(c: ApiContext, use: KeyUse, token: string): Promise<void> {
  try {
    await releaseIdempotencyKey(c.get("db"), use, token);
  } catch (error) {
    console.error("Idempotency-Key release failed", error);
  }
}

/**
 * SHA-256 of the body as the route read it (its cap already applied; Hono keeps it for the handler to read
 * again). A multipart body is hashed by its parts (names, file names, types, contents): a client sending
 * the same form again picks a new boundary, so its bytes differ while the request does not.
 */
async function bodyHashOf(c: ApiContext): Promise<string> {
  const bytes = await c.req.arrayBuffer();
  const contentType = c.req.header("Content-Type") ?? "";
  if (!/^multipart\/form-data\b/i.test(contentType)) return sha256Hex(bytes);
  const form = await new Response(bytes, { headers: { "Content-Type": contentType } }).formData().catch(() => null);
  // A form that does not parse is refused by its route; its bytes are what identifies it.
  if (!form) return sha256Hex(bytes);
  const parts: BlobPart[] = [];
  for (const [name, value] of form) {
    const file = typeof value === "string" ? null : (value as File);
    const head = { name, file: file?.name ?? null, type: file?.type ?? null, size: file ? file.size : new TextEncoder().encode(value as string).byteLength };
    parts.push(`${JSON.stringify(head)}\n`, file ?? (value as string));
  }
  return sha256Hex(await new Blob(parts).arrayBuffer());
}

async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}
