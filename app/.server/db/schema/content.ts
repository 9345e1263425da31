import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { EVENT_TYPES, NOTICE_TYPES } from "~/core/enums";
import { files } from "./files";
import { games } from "./games";
import { participations } from "./participations";
import { teams } from "./teams";
import { users } from "./users";

/** A news post; `id` is an 8-character string. */
export const posts = sqliteTable(
  "posts",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    summary: text("summary").notNull().default(""),
    content: text("content").notNull().default(""),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default([]),
    isPinned: integer("is_pinned", { mode: "boolean" }).notNull().default(false),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    updateTime: integer("update_time").notNull(),
  },
  (t) => [index("posts_pinned_time_idx").on(t.isPinned, t.updateTime)],
);

/** A game notice; `values` by type are listed in rules.md §11. Only Normal notices are edited by admins. */
export const gameNotices = sqliteTable(
  "game_notices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    gameId: integer("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    type: text("type", { enum: NOTICE_TYPES }).notNull(),
    values: text("values_json", { mode: "json" }).$type<string[]>().notNull().default([]),
    publishTime: integer("publish_time").notNull(),
  },
  (t) => [index("game_notices_game_time_idx").on(t.gameId, t.publishTime)],
);

/** A monitor event of a game; user and team survive their deletion as null. */
export const gameEvents = sqliteTable(
  "game_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    gameId: integer("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    type: text("type", { enum: EVENT_TYPES }).notNull(),
    values: text("values_json", { mode: "json" }).$type<string[]>().notNull().default([]),
    publishTime: integer("publish_time").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    teamId: integer("team_id").references(() => teams.id, { onDelete: "set null" }),
  },
  (t) => [
    index("game_events_game_time_idx").on(t.gameId, t.publishTime),
    index("game_events_game_type_time_idx").on(t.gameId, t.type, t.publishTime),
  ],
);

/** A team's writeup for a game (one per participation; a new upload replaces it). */
export const writeups = sqliteTable(
  "writeups",
  {
    participationId: integer("participation_id")
      .primaryKey()
      .references(() => participations.id, { onDelete: "cascade" }),
    fileHash: text("file_hash")
      .notNull()
      .references(() => files.hash),
    /** Stored name `Writeup-{gameId}-{teamId}-{yyyyMMdd-HH.mm.ss}Z.pdf`. */
    fileName: text("file_name").notNull(),
    size: integer("size").notNull(),
    uploadTime: integer("upload_time").notNull(),
  },
  (t) => [index("writeups_file_hash_idx").on(t.fileHash)],
);

export type Post = typeof posts.$inferSelect;
export type NewPost = typeof posts.$inferInsert;
export type GameNotice = typeof gameNotices.$inferSelect;
export type NewGameNotice = typeof gameNotices.$inferInsert;
export type GameEvent = typeof gameEvents.$inferSelect;
export type NewGameEvent = typeof gameEvents.$inferInsert;
export type Writeup = typeof writeups.$inferSelect;
export type NewWriteup = typeof writeups.$inferInsert;
