import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { GamePermission } from "~/core/enums";

/** Packed per-mille triple 50/30/10 (+5 % / +3 % / +1 %), rules.md §3. */
export const DEFAULT_BLOOD_BONUS = 52459530;

/**
 * A game. `privateKey` (base64 Ed25519, never sent to clients) signs team tokens and is the source of the
 * team hash salt (rules.md §6): it must never change once teams have joined.
 */
export const games = sqliteTable(
  "games",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    summary: text("summary").notNull().default(""),
    content: text("content").notNull().default(""),
    posterHash: text("poster_hash"),
    hidden: integer("hidden", { mode: "boolean" }).notNull().default(false),
    startTime: integer("start_time").notNull(),
    endTime: integer("end_time").notNull(),
    /** "" = no invite code. */
    inviteCode: text("invite_code").notNull().default(""),
    /** 0 = unlimited. */
    teamMemberCountLimit: integer("team_member_count_limit").notNull().default(0),
    /** 0 = unlimited. */
    containerCountLimit: integer("container_count_limit").notNull().default(3),
    acceptWithoutReview: integer("accept_without_review", { mode: "boolean" }).notNull().default(false),
    practiceMode: integer("practice_mode", { mode: "boolean" }).notNull().default(true),
    writeupRequired: integer("writeup_required", { mode: "boolean" }).notNull().default(false),
    /** A time ≥ endTime; services set it to endTime when the admin gives none. */
    writeupDeadline: integer("writeup_deadline").notNull(),
    writeupNote: text("writeup_note").notNull().default(""),
    bloodBonus: integer("blood_bonus").notNull().default(DEFAULT_BLOOD_BONUS),
    /** base64 Ed25519 public key (32 bytes). */
    publicKey: text("public_key").notNull(),
    /** base64 Ed25519 private key as stored; server-side only. */
    privateKey: text("private_key").notNull(),
    /**
     * Bumped by every write to what GET edit/games/{id} shows (settings, divisions, poster); its ETag, which
     * PUT's `If-Match` is checked against in the same statement as the write.
     */
    version: integer("version").notNull().default(1),
  },
  (t) => [index("games_hidden_start_idx").on(t.hidden, t.startTime), index("games_start_idx").on(t.startTime)],
);

/** A division (organisation) of a game with its default GamePermission bit set. */
export const divisions = sqliteTable(
  "divisions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    gameId: integer("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** "" = the game's code applies; otherwise it replaces it for this division. */
    inviteCode: text("invite_code").notNull().default(""),
    defaultPermissions: integer("default_permissions").notNull().default(GamePermission.All),
  },
  (t) => [uniqueIndex("divisions_game_name_unique").on(t.gameId, t.name)],
);

export type Game = typeof games.$inferSelect;
export type NewGame = typeof games.$inferInsert;
export type Division = typeof divisions.$inferSelect;
export type NewDivision = typeof divisions.$inferInsert;
