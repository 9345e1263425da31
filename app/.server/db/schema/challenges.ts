import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CHALLENGE_CATEGORIES, CHALLENGE_TYPES, NETWORK_MODES } from "~/core/enums";
import { attachments } from "./files";
import { divisions, games } from "./games";

/** A challenge of a game (api.md ChallengeEditDetailModel). `type` is fixed at creation. */
export const challenges = sqliteTable(
  "challenges",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    gameId: integer("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    content: text("content").notNull().default(""),
    category: text("category", { enum: CHALLENGE_CATEGORIES }).notNull().default("Misc"),
    type: text("type", { enum: CHALLENGE_TYPES }).notNull(),
    hints: text("hints", { mode: "json" }).$type<string[]>().notNull().default([]),
    /** DynamicContainer flag template (≤ 120); null = empty template. */
    flagTemplate: text("flag_template"),
    isEnabled: integer("is_enabled", { mode: "boolean" }).notNull().default(false),
    /** A NewChallenge notice was posted for this challenge (once: re-enabling after a pause posts none). */
    announced: integer("announced", { mode: "boolean" }).notNull().default(false),
    originalScore: integer("original_score").notNull().default(1000),
    minScoreRate: real("min_score_rate").notNull().default(0.25),
    difficulty: real("difficulty").notNull().default(5),
    containerImage: text("container_image"),
    /** MB. */
    memoryLimit: integer("memory_limit").notNull().default(64),
    /** Units of 0.1 core. */
    cpuCount: integer("cpu_count").notNull().default(1),
    /** MB. */
    storageLimit: integer("storage_limit").notNull().default(256),
    exposePort: integer("expose_port").notNull().default(80),
    networkMode: text("network_mode", { enum: NETWORK_MODES }).notNull().default("Open"),
    enableTrafficCapture: integer("enable_traffic_capture", { mode: "boolean" }).notNull().default(false),
    disableBloodBonus: integer("disable_blood_bonus", { mode: "boolean" }).notNull().default(false),
    /** The shared attachment of static types; DynamicAttachment keeps attachments on its flags. */
    attachmentId: integer("attachment_id").references(() => attachments.id, { onDelete: "set null" }),
    /** Common download name of dynamic attachments. */
    fileName: text("file_name").notNull().default("attachment"),
    /** Optional per-challenge deadline (ms); null = none. */
    deadline: integer("deadline"),
    /** 0 = unlimited. */
    submissionLimit: integer("submission_limit").notNull().default(0),
    /** Counted solves (rules.md §3, the board's `solved`): written by the game's room with each solve's drain and by `updateaccepted`. */
    acceptedCount: integer("accepted_count").notNull().default(0),
    /**
     * Bumped by every admin write to the challenge (settings, hints, flags, attachment); its ETag, which PUT's
     * `If-Match` is checked against in the same statement as the write. Not by what play changes
     * (acceptedCount, a pair handed to a team, the test container).
     */
    version: integer("version").notNull().default(1),
  },
  (t) => [index("challenges_game_enabled_idx").on(t.gameId, t.isEnabled)],
);

/** A division's permission bit set for one challenge; replaces the division default for it. */
export const divisionChallengeConfigs = sqliteTable(
  "division_challenge_configs",
  {
    divisionId: integer("division_id")
      .notNull()
      .references(() => divisions.id, { onDelete: "cascade" }),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    permissions: integer("permissions").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.divisionId, t.challengeId] }),
    index("division_challenge_configs_challenge_idx").on(t.challengeId),
  ],
);

/**
 * An accepted flag of a challenge. Static types: any flag is accepted. DynamicAttachment: a (flag,
 * attachment) pair handed to one team; `occupied` marks it taken and the owning game instance points at it
 * (`game_instances.flag_id`, unique). DynamicContainer has no rows here: its flags live on game instances.
 */
export const flags = sqliteTable(
  "flags",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    flag: text("flag").notNull(),
    attachmentId: integer("attachment_id").references(() => attachments.id, { onDelete: "set null" }),
    occupied: integer("occupied", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    uniqueIndex("flags_challenge_flag_unique").on(t.challengeId, t.flag),
    index("flags_challenge_occupied_idx").on(t.challengeId, t.occupied),
  ],
);

export type Challenge = typeof challenges.$inferSelect;
export type NewChallenge = typeof challenges.$inferInsert;
export type DivisionChallengeConfig = typeof divisionChallengeConfigs.$inferSelect;
export type NewDivisionChallengeConfig = typeof divisionChallengeConfigs.$inferInsert;
export type Flag = typeof flags.$inferSelect;
export type NewFlag = typeof flags.$inferInsert;
