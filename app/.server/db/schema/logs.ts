import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { LOG_LEVELS, TASK_STATUSES } from "~/core/enums";

/** A platform log record (admin logs view); never holds secrets. `level` is never `All` (a filter only). */
export const logs = sqliteTable(
  "logs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    time: integer("time").notNull(),
    level: text("level", { enum: LOG_LEVELS }).notNull(),
    logger: text("logger").notNull().default(""),
    userName: text("user_name"),
    ip: text("ip"),
    message: text("message").notNull(),
    exception: text("exception"),
    status: text("status", { enum: TASK_STATUSES }),
    /** The message's key (app/core/log-messages.ts) and its parameters as JSON; null on records older than them. */
    messageKey: text("msg_key"),
    messageParams: text("msg_params", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [index("logs_time_idx").on(t.time), index("logs_level_time_idx").on(t.level, t.time)],
);

export type LogRecord = typeof logs.$inferSelect;
export type NewLogRecord = typeof logs.$inferInsert;
