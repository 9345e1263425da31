import { type AnyColumn, type SQL, sql } from "drizzle-orm";

/**
 * The SET value of a versioned row's `version` column (games, challenges; app/core/http/if-match.ts): one
 * more, and, when `If-Match` names other versions, NULL. The column is NOT NULL, so that statement fails,
 * and with it the batch it is in (one transaction): the check and the write are one statement, and no
 * other write can land between them. D1 has no interactive transaction to hold a read over.
 */
export function bumpVersion(column: AnyColumn, ifMatch: readonly number[] | null = null): SQL {
  if (ifMatch === null) return sql`${column} + 1`;
  return sql`case when ${column} in (select value from json_each(${JSON.stringify(ifMatch)})) then ${column} + 1 end`;
}

/** Whether a failed write was `bumpVersion`'s refusal on `table` (the stored version is not the one expected). */
export function isVersionRefusal(err: unknown, table: string): boolean {
  const text = String((err as { cause?: unknown })?.cause ?? err);
  return new RegExp(`NOT NULL constraint failed: ${table}\\.version`, "i").test(text);
}
