import type { AnswerResult, EventType, NoticeType, SubmissionType } from "~/core/enums";

/**
 * The room's D1 writes, collected between drains and written as one `db.batch` (one transaction).
 * Every multi-row write is one statement over a JSON array (`json_each`), so a drain is a handful of
 * statements whatever the number of submissions, and D1's bound-parameter limit never applies.
 */

export interface NewSubmission {
  challengeId: number;
  participationId: number;
  userId: string;
  answer: string;
  time: number;
  ip: string;
}

export interface PendingWrites {
  /**
   * Journaled submissions with their verdicts, stored in D1 with the ids the room gave them:
   * [id, challengeId, participationId, userId, answer, status, time, ip].
   */
  submissions: [number, number, number, string | null, string, AnswerResult, number, string][];
  /** Verdicts of rows D1 already holds as FlagSubmitted (stored before the room kept a journal). */
  statuses: [number, AnswerResult][];
  /** [participationId, challengeId, submissionId, userId, time, type] */
  firstSolves: [number, number, number, string | null, number, SubmissionType][];
  /** [ownedParticipationId, submitParticipationId, submissionId] */
  cheats: [number, number, number][];
  /** [type, values, time, userId, teamId] */
  events: [EventType, string[], number, string | null, number | null][];
  /** [type, values, time] — pushed once stored (they need their ids). */
  notices: [NoticeType, string[], number][];
  /** Challenges whose stored `accepted_count` the drain writes again (from the room's counts then). */
  acceptedChallenges: Set<number>;
  /** [time, userName, ip, message, key, params] — Information records of the Game logger (services/logs composeLogText). */
  logs: [number, string | null, string | null, string, string, Record<string, unknown>][];
}

export const emptyWrites = (): PendingWrites => ({
  submissions: [],
  statuses: [],
  firstSolves: [],
  cheats: [],
  events: [],
  notices: [],
  acceptedChallenges: new Set(),
  logs: [],
});

export const hasWrites = (w: PendingWrites) =>
  w.submissions.length +
  w.statuses.length + w.firstSolves.length + w.cheats.length + w.events.length + w.notices.length + w.logs.length + w.acceptedChallenges.size > 0;


/** `older` then `newer`, in that order (a drain that failed goes back in front of what came since). */
export function mergeWrites(older: PendingWrites, newer: PendingWrites): PendingWrites {
  return {
    submissions: [...older.submissions, ...newer.submissions],
    statuses: [...older.statuses, ...newer.statuses],
    firstSolves: [...older.firstSolves, ...newer.firstSolves],
    cheats: [...older.cheats, ...newer.cheats],
    events: [...older.events, ...newer.events],
    notices: [...older.notices, ...newer.notices],
    acceptedChallenges: new Set([...older.acceptedChallenges, ...newer.acceptedChallenges]),
    logs: [...older.logs, ...newer.logs],
  };
}

/**
 * Submission ids handed to one room (blocks reserved in D1), taken in ascending order. Blocks
 * arrive in ascending order too, so the ids of a room's submissions ascend with their arrival.
 */
export class IdPool {
  private readonly ranges: [next: number, end: number][] = [];

  get available(): number {
    return this.ranges.reduce((n, [next, end]) => n + end - next, 0);
  }

  /** The id the pool hands out next (every id it hands out later is above it); null when it is empty. */
  get next(): number | null {
    return this.ranges[0]?.[0] ?? null;
  }

  /** Adds the ids [first, end). */
  add(first: number, end: number): void {
    const last = this.ranges[this.ranges.length - 1];
    if (end <= first || (last && first < last[1])) throw new RangeError(`id block ${first}..${end} does not follow the pool's last block`);
    this.ranges.push([first, end]);
  }

  /** The next `n` ids; throws when fewer are available (check `available` first). */
  take(n: number): number[] {
    if (n > this.available) throw new RangeError(`${n} ids asked, ${this.available} available`);
    const ids: number[] = [];
    while (ids.length < n) {
      const range = this.ranges[0]!;
      ids.push(range[0]++);
      if (range[0] === range[1]) this.ranges.shift();
    }
    return ids;
  }
}

/**
 * The D1 statements reserving `size` submission ids: SQLite's AUTOINCREMENT counter for `submissions`
 * (its row in sqlite_sequence, made if missing) moves past them, so no insert without an id can take
 * one, and the next block starts above every stored submission and every block handed out before. The
 * last statement returns `seq`, the block's last id: the ids are (seq - size, seq].
 */
export function reserveIdsStatements(db: D1Database, size: number): D1PreparedStatement[] {
  return [
    db.prepare("INSERT INTO sqlite_sequence (name, seq) SELECT 'submissions', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'submissions')"),
    db
      .prepare("UPDATE sqlite_sequence SET seq = max(seq, (SELECT coalesce(max(id), 0) FROM submissions)) + ?1 WHERE name = 'submissions' RETURNING seq")
      .bind(size),
  ];
}

/** Element `i` of the row `j` of a `json_each` over an array of arrays. */
export const j = (i: number) => `json_extract(j.value, '$[${i}]')`;

export interface DrainStatements {
  statements: D1PreparedStatement[];
  /** Index of the notices insert (RETURNING id), or -1. */
  noticeIndex: number;
}

/**
 * The statements of one drain: the journaled submissions first (with their ids and verdicts), then what
 * their verdicts wrote. A submission whose participation or challenge was deleted while it waited is
 * left out, and so is everything that refers to it; nothing is written for a deleted game. Submissions
 * D1 already has (a drain whose answer was lost after it committed, written again) are skipped.
 * `acceptedCounts`: [challengeId, counted solves] of `w.acceptedChallenges`, as the room counts them now.
 */
export function drainStatements(db: D1Database, gameId: number, w: PendingWrites, acceptedCounts: [number, number][]): DrainStatements {
  const statements: D1PreparedStatement[] = [];
  let noticeIndex = -1;
  const gameExists = "EXISTS (SELECT 1 FROM games WHERE id = ?1)";
  if (w.submissions.length > 0) {
    const stored = `EXISTS (SELECT 1 FROM participations p WHERE p.id = ${j(2)} AND p.game_id = ?1) AND EXISTS (SELECT 1 FROM challenges c WHERE c.id = ${j(1)} AND c.game_id = ?1)`;
    statements.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO submissions (id, game_id, challenge_id, participation_id, user_id, answer, status, submit_time, ip)
           SELECT ${j(0)}, ?1, ${j(1)}, ${j(2)}, (SELECT id FROM users WHERE id = ${j(3)}), ${j(4)}, ${j(5)}, ${j(6)}, ${j(7)}
           FROM json_each(?2) j WHERE ${stored} ORDER BY j.key`,
        )
        .bind(gameId, JSON.stringify(w.submissions)),
    );
  }
  if (w.statuses.length > 0) {
    statements.push(
      db
        .prepare(`UPDATE submissions SET status = x.status FROM (SELECT ${j(0)} AS id, ${j(1)} AS status FROM json_each(?1) j) x WHERE submissions.id = x.id`)
        .bind(JSON.stringify(w.statuses)),
    );
  }
  if (w.firstSolves.length > 0) {
    statements.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO first_solves (participation_id, challenge_id, game_id, submission_id, user_id, submit_time, type)
           SELECT ${j(0)}, ${j(1)}, ?1, s.id, (SELECT id FROM users WHERE id = ${j(3)}), ${j(4)}, ${j(5)}
           FROM json_each(?2) j JOIN submissions s ON s.id = ${j(2)}`,
        )
        .bind(gameId, JSON.stringify(w.firstSolves)),
    );
  }
  if (w.cheats.length > 0) {
    statements.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO cheat_infos (game_id, owned_participation_id, submit_participation_id, submission_id)
           SELECT ?1, o.id, sp.id, s.id FROM json_each(?2) j JOIN submissions s ON s.id = ${j(2)} JOIN participations o ON o.id = ${j(0)}
           JOIN participations sp ON sp.id = ${j(1)}`,
        )
        .bind(gameId, JSON.stringify(w.cheats)),
    );
  }
  if (w.events.length > 0) {
    statements.push(
      db
        .prepare(
          `INSERT INTO game_events (game_id, type, values_json, publish_time, user_id, team_id)
           SELECT ?1, ${j(0)}, json_extract(j.value, '$[1]'), ${j(2)}, (SELECT id FROM users WHERE id = ${j(3)}), (SELECT id FROM teams WHERE id = ${j(4)})
           FROM json_each(?2) j WHERE ${gameExists} ORDER BY j.key`,
        )
        .bind(gameId, JSON.stringify(w.events)),
    );
  }
  if (w.notices.length > 0) {
    noticeIndex = statements.length;
    statements.push(
      db
        .prepare(
          `INSERT INTO game_notices (game_id, type, values_json, publish_time)
           SELECT ?1, ${j(0)}, json_extract(j.value, '$[1]'), ${j(2)} FROM json_each(?2) j WHERE ${gameExists} ORDER BY j.key RETURNING id`,
        )
        .bind(gameId, JSON.stringify(w.notices)),
    );
  }
  if (acceptedCounts.length > 0) {
    // The room's own counts (rules.md §3 counted solves, the board's `solved`): a count in SQL would need
    // each solve's team, division and time, and read two table rows a solve (27 ms for 40 challenges of
    // 500 solves, the drain's largest part; BENCHMARKS.md, thirty-fourth round). This reads no solve;
    // the unary + keeps SQLite from walking the game's challenges by game_id instead of by key.
    statements.push(
      db
        .prepare(
          `UPDATE challenges SET accepted_count = x.n FROM (SELECT ${j(0)} AS id, ${j(1)} AS n FROM json_each(?1) j) x
           WHERE challenges.id = x.id AND +challenges.game_id = ?2`,
        )
        .bind(JSON.stringify(acceptedCounts), gameId),
    );
  }
  if (w.logs.length > 0) {
    statements.push(
      db
        .prepare(
          `INSERT INTO logs (time, level, logger, user_name, ip, message, status, msg_key, msg_params)
           SELECT ${j(0)}, 'Information', 'Game', ${j(1)}, ${j(2)}, ${j(3)}, 'Success', ${j(4)}, ${j(5)} FROM json_each(?1) j ORDER BY j.key`,
        )
        .bind(JSON.stringify(w.logs)),
    );
  }
  return { statements, noticeIndex };
}
