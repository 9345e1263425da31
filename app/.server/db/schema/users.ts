import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ROLES } from "~/core/enums";

/** A user account. `id` is a UUID; user names and emails are unique case-insensitively (stored lower-cased keys). */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    userName: text("user_name").notNull(),
    /** lower(userName): uniqueness and login lookup. */
    userNameKey: text("user_name_key").notNull(),
    email: text("email").notNull(),
    /** lower(email): uniqueness and login lookup. */
    emailKey: text("email_key").notNull(),
    emailConfirmed: integer("email_confirmed", { mode: "boolean" }).notNull().default(false),
    passwordHash: text("password_hash").notNull(),
    /** Rotated on password change/reset and ban; binds mail tokens and invalidates them. */
    securityStamp: text("security_stamp").notNull(),
    role: text("role", { enum: ROLES }).notNull().default("User"),
    realName: text("real_name").notNull().default(""),
    stdNumber: text("std_number").notNull().default(""),
    phone: text("phone").notNull().default(""),
    bio: text("bio").notNull().default(""),
    avatarHash: text("avatar_hash"),
    /** Preferred language for mail (en-US, ja-JP, zh-CN). */
    language: text("language").notNull().default("en-US"),
    registerTime: integer("register_time").notNull(),
    lastVisitedTime: integer("last_visited_time").notNull().default(0),
    lastVisitedIp: text("last_visited_ip").notNull().default(""),
  },
  (t) => [
    uniqueIndex("users_user_name_key_unique").on(t.userNameKey),
    uniqueIndex("users_email_key_unique").on(t.emailKey),
    index("users_role_idx").on(t.role),
    index("users_register_time_idx").on(t.registerTime),
  ],
);

/** A signed-in session. Only the SHA-256 of the cookie's random id is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

/** Key/value platform settings (account policy, global config, container policy), JSON values. */
export const configEntries = sqliteTable("config", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: integer("updated_at").notNull().default(sql`0`),
});

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type Session = typeof sessions.$inferSelect;
export type NewSession = typeof sessions.$inferInsert;
export type ConfigEntry = typeof configEntries.$inferSelect;
