import { and, eq, isNull, sql } from "drizzle-orm";
import { decideOnExistingKey, IDEMPOTENCY_KEY_TTL_MS, IDEMPOTENCY_SWEEP_MAX, type IdempotentRequest } from "~/core/http/idempotency";
import type { Db } from "../db/client";
import { idempotencyKeys } from "../db/schema";

/** One use of a key: whose, which, and the request it comes with. */
export interface KeyUse extends IdempotentRequest {
  userId: string;
  key: string;
}

export type ClaimOutcome =
  /** The request runs; `token` stores its answer or releases the key afterwards. */
  | { kind: "claimed"; token: string }
  | { kind: "replay"; status: number; body: string | null; contentType: string | null }
  | { kind: "mismatch" }
  | { kind: "inProgress" }
  /** The first request under the key never answered (the runtime died in it): whether it took effect is unknown. */
  | { kind: "lost" };

/** Claims and expired rows that can race each other before the claim is given up as in progress. */
const CLAIM_ATTEMPTS = 3;

/**
 * Claims a key for a request, atomically (INSERT … ON CONFLICT DO NOTHING): the first request under a key
 * runs; a later one gets the stored answer, or is refused (another request under the key, or the first
 * still running). Expired keys of anyone are removed on the way, at most IDEMPOTENCY_SWEEP_MAX a claim.
 */
export async function claimIdempotencyKey(db: Db, now: number, use: KeyUse): Promise<ClaimOutcome> {
  const where = and(eq(idempotencyKeys.userId, use.userId), eq(idempotencyKeys.key, use.key));
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const token = crypto.randomUUID();
    // The sweep and the claim in one round trip; `rowid` is the table's own (its primary key is composite).
    const [, inserted] = await db.batch([
      db
        .delete(idempotencyKeys)
        .where(sql`rowid IN (SELECT rowid FROM ${idempotencyKeys} WHERE ${idempotencyKeys.createdAt} <= ${now - IDEMPOTENCY_KEY_TTL_MS} LIMIT ${IDEMPOTENCY_SWEEP_MAX})`),
      db
        .insert(idempotencyKeys)
        .values({ userId: use.userId, key: use.key, method: use.method, path: use.path, bodyHash: use.bodyHash, createdAt: now, lockedAt: now, lockToken: token })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key }),
    ]);
    if (inserted.length === 1) return { kind: "claimed", token };

    const stored = await db.select().from(idempotencyKeys).where(where).get();
    if (!stored) continue;
    const decision = decideOnExistingKey(stored, use, now);
    if (decision.kind !== "expired") return decision;
    await db.delete(idempotencyKeys).where(and(where, eq(idempotencyKeys.createdAt, stored.createdAt))).run();
  }
  return { kind: "inProgress" };
}

/** Keeps the answer of the request that holds the claim, for a retry under the same key. */
export async function storeIdempotentAnswer(db: Db, use: Pick<KeyUse, "userId" | "key">, token: string, answer: { status: number; body: string | null; contentType: string | null }): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status: answer.status, body: answer.body, contentType: answer.contentType, lockedAt: null, lockToken: null })
    .where(and(eq(idempotencyKeys.userId, use.userId), eq(idempotencyKeys.key, use.key), eq(idempotencyKeys.lockToken, token)))
    .run();
}

/** Gives a key back after a refusal or an exception: a retry under it runs again. */
export async function releaseIdempotencyKey(db: Db, use: Pick<KeyUse, "userId" | "key">, token: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, use.userId), eq(idempotencyKeys.key, use.key), eq(idempotencyKeys.lockToken, token), isNull(idempotencyKeys.status)))
    .run();
}
