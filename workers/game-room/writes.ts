import type { AnswerResult, EventType, NoticeType, SubmissionType } from "~/core/enums";

/**
 * The room's D1 writes, collected between flushes and written as one `db.batch` (one transaction).
 * Every multi-row write is one statement over a JSON array (`json_each`), so a flush is a handful of
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
  statuses: [number, AnswerResult][];
  /** [participationId, challengeId, submissionId, userId, time, type] */
  firstSolves: [number, number, number, string | null, number, SubmissionType][];
  /** [ownedParticipationId, submitParticipationId, submissionId] */
  cheats: [number, number, number][];
  /** [type, values, time, userId, teamId] */
  events: [EventType, string[], number, string | null, number | null][];
  /** [type, values, time] — pushed once stored (they need their ids). */
  notices: [NoticeType, string[], number][];
  acceptedChallenges: Set<number>;
  /** [time, userName, ip, message] — Information records of the Game logger. */
  logs: [number, string | null, string | null, string][];
}

export const emptyWrites = (): PendingWrites => ({
  statuses: [],
  firstSolves: [],
  cheats: [],
  events: [],
  notices: [],
  acceptedChallenges: new Set(),
  logs: [],
});

export const hasWrites = (w: PendingWrites) =>
  w.statuses.length + w.firstSolves.length + w.cheats.length + w.events.length + w.notices.length + w.logs.length + w.acceptedChallenges.size > 0;


const j = (i: number) => `json_extract(j.value, '$[${i}]')`;

export interface FlushStatements {
  statements: D1PreparedStatement[];
  /**
   * Index of the submissions insert in the batch results, or -1. It returns `{id, p, c}` (participation,
   * challenge) for each stored row; a row whose participation or challenge was deleted while it waited is
   * left out (`storedOf` tells which).
   */
  insertIndex: number;
  /** Index of the notices insert, or -1. */
  noticeIndex: number;
}

/** The statements of one flush: new submissions first (RETURNING id, participation, challenge), then the verdict writes. */
export function flushStatements(db: D1Database, gameId: number, subs: NewSubmission[], w: PendingWrites): FlushStatements {
  const statements: D1PreparedStatement[] = [];
  let insertIndex = -1;
  let noticeIndex = -1;
  if (subs.length > 0) {
    // A row whose participation or challenge no longer exists (deleted while it waited) is left out
    // instead of failing the whole batch on a foreign key.
    const stored = `EXISTS (SELECT 1 FROM participations p WHERE p.id = ${j(1)} AND p.game_id = ?1) AND EXISTS (SELECT 1 FROM challenges c WHERE c.id = ${j(0)} AND c.game_id = ?1)`;
    const rows = JSON.stringify(subs.map((s) => [s.challengeId, s.participationId, s.userId, s.answer, s.time, s.ip]));
    insertIndex = statements.length;
    statements.push(
      db
        .prepare(
          `INSERT INTO submissions (game_id, challenge_id, participation_id, user_id, answer, status, submit_time, ip)
           SELECT ?1, ${j(0)}, ${j(1)}, (SELECT id FROM users WHERE id = ${j(2)}), ${j(3)}, 'FlagSubmitted', ${j(4)}, ${j(5)}
           FROM json_each(?2) j WHERE ${stored} ORDER BY j.key RETURNING id, participation_id AS p, challenge_id AS c`,
        )
        .bind(gameId, rows),
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
           FROM json_each(?2) j ORDER BY j.key`,
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
           SELECT ?1, ${j(0)}, json_extract(j.value, '$[1]'), ${j(2)} FROM json_each(?2) j ORDER BY j.key RETURNING id`,
        )
        .bind(gameId, JSON.stringify(w.notices)),
    );
  }
  if (w.acceptedChallenges.size > 0) {
    statements.push(
      db
        .prepare(
          `UPDATE challenges SET accepted_count = (SELECT count(*) FROM first_solves f WHERE f.challenge_id = challenges.id)
           WHERE id IN (SELECT value FROM json_each(?1))`,
        )
        .bind(JSON.stringify([...w.acceptedChallenges])),
    );
  }
  if (w.logs.length > 0) {
    statements.push(
      db
        .prepare(
          `INSERT INTO logs (time, level, logger, user_name, ip, message, status)
           SELECT ${j(0)}, 'Information', 'Game', ${j(1)}, ${j(2)}, ${j(3)}, 'Success' FROM json_each(?1) j ORDER BY j.key`,
        )
        .bind(JSON.stringify(w.logs)),
    );
  }
  return { statements, insertIndex, noticeIndex };
}

/** A stored submission as the flush's insert returns it. */
export interface StoredRow {
  id: number;
  p: number;
  c: number;
}

/**
 * The id of each new submission in `subs` (insertion order), or null for one that was not stored. Rows
 * are inserted in order, so ids ascend with it; a left-out row's participation or challenge is gone for
 * every row of the batch that names it, so the next stored row never has its pair.
 */
export function storedOf(subs: readonly NewSubmission[], rows: readonly StoredRow[]): (number | null)[] {
  const sorted = [...rows].sort((a, b) => a.id - b.id);
  let k = 0;
  return subs.map((s) => {
    const row = sorted[k];
    if (row && row.p === s.participationId && row.c === s.challengeId) {
      k++;
      return row.id;
    }
    return null;
  });
}
