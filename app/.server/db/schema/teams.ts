import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/**
 * A team. The captain is `captainId` (and also has a `team_members` row); the unique index enforces that a
 * user captains at most one team. A captain cannot be deleted while they own a team (no-action foreign key).
 */
export const teams = sqliteTable(
  "teams",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    bio: text("bio").notNull().default(""),
    avatarHash: text("avatar_hash"),
    captainId: text("captain_id")
      .notNull()
      .references(() => users.id),
    locked: integer("locked", { mode: "boolean" }).notNull().default(false),
    /** 32 lower-case hex; the invite code is `{name}:{id}:{inviteToken}`. Renewing it replaces the token. */
    inviteToken: text("invite_token").notNull(),
  },
  (t) => [uniqueIndex("teams_captain_unique").on(t.captainId), index("teams_name_idx").on(t.name)],
);

/** Membership of a user in a team, captain included. */
export const teamMembers = sqliteTable(
  "team_members",
  {
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index("team_members_user_idx").on(t.userId)],
);

export type Team = typeof teams.$inferSelect;
export type NewTeam = typeof teams.$inferInsert;
export type TeamMember = typeof teamMembers.$inferSelect;
export type NewTeamMember = typeof teamMembers.$inferInsert;
