import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { challenges, flags } from "./challenges";
import { participations } from "./participations";

/**
 * A team's instance of a challenge (one per participation and challenge), created on acceptance or when a
 * challenge is enabled; its flag is attached lazily on first open:
 * - DynamicAttachment: `flagId` = the assigned (flag, attachment) pair, unique so a pair serves one team;
 * - DynamicContainer: `flag` = the generated flag text, kept across container re-creation;
 * - static types: both stay null (any of the challenge's flags is accepted).
 */
export const gameInstances = sqliteTable(
  "game_instances",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    participationId: integer("participation_id")
      .notNull()
      .references(() => participations.id, { onDelete: "cascade" }),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    flagId: integer("flag_id").references(() => flags.id, { onDelete: "set null" }),
    flag: text("flag"),
    /** Time (ms) of the last container create/extend/destroy, for the 10-second cooldown; 0 = never. */
    lastContainerOperation: integer("last_container_operation").notNull().default(0),
  },
  (t) => [
    uniqueIndex("game_instances_participation_challenge_unique").on(t.participationId, t.challengeId),
    uniqueIndex("game_instances_flag_unique").on(t.flagId),
    // Cheat check: another team's instance of the same challenge holding the submitted flag.
    index("game_instances_challenge_flag_idx").on(t.challengeId, t.flag),
  ],
);

export type GameInstance = typeof gameInstances.$inferSelect;
export type NewGameInstance = typeof gameInstances.$inferInsert;
