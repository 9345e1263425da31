import { foreignKey, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { PARTICIPATION_STATUSES } from "~/core/enums";
import { divisions, games } from "./games";
import { teams } from "./teams";
import { users } from "./users";

/**
 * A team's registration in a game (one per team and game). A division still holding participations cannot
 * be deleted (no-action foreign key); deleting the game or the team removes the participation.
 */
export const participations = sqliteTable(
  "participations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    gameId: integer("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    divisionId: integer("division_id").references(() => divisions.id),
    status: text("status", { enum: PARTICIPATION_STATUSES }).notNull().default("Pending"),
    /** Team token `{teamId}:{base64 Ed25519 signature}` signed with the game's private key. */
    token: text("token").notNull(),
  },
  (t) => [
    uniqueIndex("participations_game_team_unique").on(t.gameId, t.teamId),
    // Parent key of participation_members' (participation_id, game_id) foreign key.
    uniqueIndex("participations_id_game_unique").on(t.id, t.gameId),
    index("participations_game_status_idx").on(t.gameId, t.status),
    index("participations_team_idx").on(t.teamId),
    index("participations_division_idx").on(t.divisionId),
  ],
);

/**
 * A user registered in a game through a team. `game_id` repeats the participation's game (enforced by a
 * composite foreign key) so that a user plays each game for one team only: unique (game_id, user_id).
 */
export const participationMembers = sqliteTable(
  "participation_members",
  {
    participationId: integer("participation_id").notNull(),
    gameId: integer("game_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.participationId, t.userId] }),
    foreignKey({
      name: "participation_members_participation_fk",
      columns: [t.participationId, t.gameId],
      foreignColumns: [participations.id, participations.gameId],
    }).onDelete("cascade"),
    uniqueIndex("participation_members_game_user_unique").on(t.gameId, t.userId),
    index("participation_members_user_idx").on(t.userId),
  ],
);

export type Participation = typeof participations.$inferSelect;
export type NewParticipation = typeof participations.$inferInsert;
export type ParticipationMember = typeof participationMembers.$inferSelect;
export type NewParticipationMember = typeof participationMembers.$inferInsert;
