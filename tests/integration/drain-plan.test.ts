import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { drainStatements, emptyWrites, type PendingWrites } from "../../workers/game-room/writes";

/**
 * A drain is one D1 transaction: it holds the runtime's thread for as long as SQLite works on it, and every
 * request waits meanwhile. Its statements must reach each row through an index (BENCHMARKS.md, thirty-fourth
 * round: a join from each solve to its participation made a 250 ms drain of a 1,000-team storm take ≈ 27 ms;
 * the solve counts are now the room's own, written by key).
 * The plans come from SQLite itself on the migrated schema, so a statement or an index change that brings
 * back a per-solve table read fails here.
 */

interface Captured {
  sql: string;
  args: unknown[];
}

/** The statements' SQL and arguments, as the room would send them. */
function captured(writes: PendingWrites): Captured[] {
  const recorder = {
    prepare: (sql: string) => ({ bind: (...args: unknown[]) => ({ sql, args }) }),
  } as unknown as D1Database;
  return drainStatements(recorder, 1, writes, [...writes.acceptedChallenges].map((id) => [id, 1])).statements as unknown as Captured[];
}

async function planOf(statement: Captured): Promise<string[]> {
  const result = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
    .bind(...statement.args)
    .all<{ detail: string }>();
  return result.results.map((row) => row.detail);
}

function everyKindOfWrite(): PendingWrites {
  const writes = emptyWrites();
  writes.submissions.push([10, 2, 3, "u1", "flag{a}", "Accepted", 1_000, "127.0.0.1"]);
  writes.statuses.push([9, "WrongAnswer"]);
  writes.firstSolves.push([3, 2, 10, "u1", 1_000, "FirstBlood"]);
  writes.cheats.push([4, 3, 11]);
  writes.events.push(["FlagSubmit", ["flag{a}", "c"], 1_000, "u1", 5]);
  writes.notices.push(["FirstBlood", ["team", "c"], 1_000]);
  writes.acceptedChallenges.add(2);
  writes.logs.push([1_000, "u1", "127.0.0.1", "text", "key", {}]);
  return writes;
}

describe("a drain's query plans", () => {
  it("writes the room's solve counts by the challenges' keys, reading no solve", async () => {
    const statements = captured(everyKindOfWrite());
    const recount = statements.find((s) => s.sql.startsWith("UPDATE challenges SET accepted_count"));
    expect(recount).toBeDefined();
    const plan = await planOf(recount!);
    expect(plan.some((line) => /^SEARCH challenges USING INTEGER PRIMARY KEY/.test(line))).toBe(true);
    expect(plan.filter((line) => /first_solves|participations/.test(line))).toEqual([]);
  });

  it("scans no table but the batch's own JSON array", async () => {
    for (const statement of captured(everyKindOfWrite())) {
      const plan = await planOf(statement);
      expect(plan.length, statement.sql).toBeGreaterThan(0);
      for (const line of plan) {
        expect(line, statement.sql).not.toMatch(/^SCAN (?!json_each|j\b|CONSTANT ROW)/);
      }
    }
  });
});
