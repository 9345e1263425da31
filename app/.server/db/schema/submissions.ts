import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ANSWER_RESULTS, SUBMISSION_TYPES } from "~/core/enums";
import { challenges } from "./challenges";
import { games } from "./games";
import { participations } from "./participations";
import { users } from "./users";

/**
 * A flag submission. The game's room journals it in its own storage before its id is returned (ids from
 * blocks the room reserves through sqlite_sequence, so an insert without an id never takes one), judges
 * it, and writes it here with its verdict a moment later (workers/game-room). Rows still FlagSubmitted
 * (stored so by earlier versions) are re-judged in id order when the room wakes (index game_status_id).
 * The user reference is cleared when the user is deleted so the history survives.
 */
export const submissions = sqliteTable(
  "submissions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    gameId: integer("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    participationId: integer("participation_id")
      .notNull()
      .references(() => participations.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    answer: text("answer").notNull(),
    status: text("status", { enum: ANSWER_RESULTS }).notNull().default("FlagSubmitted"),
    submitTime: integer("submit_time").notNull(),
    ip: text("ip").notNull().default(""),
  },
  (t) => [
    index("submissions_game_time_idx").on(t.gameId, t.submitTime),
    index("submissions_game_status_id_idx").on(t.gameId, t.status, t.id),
    // Submission limit: earlier submissions of the team for the challenge.
    index("submissions_participation_challenge_idx").on(t.participationId, t.challengeId),
    index("submissions_challenge_idx").on(t.challengeId),
    // No index on user_id: nothing reads submissions by user, and that index cost each stored submission
    // a random page write (a UUID key) — a third of the insert's WAL pages. Deleting a user scans the table
    // once for the ON DELETE SET NULL (DECISIONS.md, eighth session).
  ],
);

/** A team's first accepted submission of a challenge (its solve), with the rank it took. */
export const firstSolves = sqliteTable(
  "first_solves",
  {
    participationId: integer("participation_id")
      .notNull()
      .references(() => participations.id, { onDelete: "cascade" }),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    gameId: integer("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    submissionId: integer("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The submission's time (when it was stored). */
    submitTime: integer("submit_time").notNull(),
    type: text("type", { enum: SUBMISSION_TYPES }).notNull().default("Normal"),
  },
  (t) => [
    primaryKey({ columns: [t.participationId, t.challengeId] }),
    uniqueIndex("first_solves_submission_unique").on(t.submissionId),
    index("first_solves_game_time_idx").on(t.gameId, t.submitTime),
    index("first_solves_challenge_time_idx").on(t.challengeId, t.submitTime),
  ],
);

/** A submitted flag that belongs to another team's instance of the same challenge (rules.md §7). */
export const cheatInfos = sqliteTable(
  "cheat_infos",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    gameId: integer("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    ownedParticipationId: integer("owned_participation_id")
      .notNull()
      .references(() => participations.id, { onDelete: "cascade" }),
    submitParticipationId: integer("submit_participation_id")
      .notNull()
      .references(() => participations.id, { onDelete: "cascade" }),
    submissionId: integer("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
  },
  (t) => [
    uniqueIndex("cheat_infos_submission_unique").on(t.submissionId),
    index("cheat_infos_game_idx").on(t.gameId),
    index("cheat_infos_owned_idx").on(t.ownedParticipationId),
    index("cheat_infos_submit_idx").on(t.submitParticipationId),
  ],
);

export type Submission = typeof submissions.$inferSelect;
export type NewSubmission = typeof submissions.$inferInsert;
export type FirstSolve = typeof firstSolves.$inferSelect;
export type NewFirstSolve = typeof firstSolves.$inferInsert;
export type CheatInfo = typeof cheatInfos.$inferSelect;
export type NewCheatInfo = typeof cheatInfos.$inferInsert;
