import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/**
 * A POST's `Idempotency-Key` (app/core/http/idempotency.ts), per user: the request it was first used
 * for and, once that answered with a success, the answer, given again to a retry under the same key.
 * A row without `status` is a request still running; a refusal or an exception deletes its row.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    method: text("method").notNull(),
    /** The lower-cased path with its query string. */
    path: text("path").notNull(),
    /** SHA-256 of the request body, lower-case hex. */
    bodyHash: text("body_hash").notNull(),
    createdAt: integer("created_at").notNull(),
    /** When the running request claimed the key; null once answered. */
    lockedAt: integer("locked_at"),
    /** The running claim's own token: only it may store the answer or release the key. */
    lockToken: text("lock_token"),
    status: integer("status"),
    body: text("body"),
    contentType: text("content_type"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_created_at_idx").on(t.createdAt)],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
