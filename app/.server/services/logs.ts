import { desc, eq, lt } from "drizzle-orm";
import type { Db } from "~/.server/db/client";
import { logs } from "~/.server/db/schema/logs";
import type { LogLevel, TaskStatus } from "~/core/enums";
import { getTranslator, hasKey } from "~/core/i18n/translator";
import { type LogText, renderLogText } from "~/core/log-messages";
import { redactField, redactParams } from "~/core/log-redact";
import type { LogMessage } from "~/core/protocol";

/** A stored level (the `All` filter is never written). */
export type StoredLogLevel = Exclude<LogLevel, "All">;

export interface LogEntry {
  level: StoredLogLevel;
  /** The area that writes, e.g. `Account`, `Admin`, `Game`, `Container`, `Api`. */
  logger: string;
  /** Who acted (or the name tried, for a failed login). */
  userName?: string | null;
  ip?: string | null;
  /** The message as a key and parameters (ids, names, identifiers; never a request body). Redacted anyway. */
  text: LogText;
  status?: TaskStatus | null;
  /** Error details for Error/Fatal records (stored, not pushed live). */
  exception?: string | null;
}

/** The publish side of the AdminHub namespace (kept structural so callers can pass `env.ADMIN_HUB`). */
export interface AdminHubNamespace {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): { publish(channel: "admin", type: "log", data: LogMessage): Promise<number> };
}

export interface LogDeps {
  db: Db;
  /** Pushes the record live to admins; omitted in contexts without the binding. */
  adminHub?: AdminHubNamespace | undefined;
  /** Defers the write past the response (`ctx.waitUntil`); without it the write is awaited. */
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
  /** Clock, for tests; defaults to Date.now(). */
  now?: number | undefined;
}

/** api.md LogMessageModel. */
export type LogMessageModel = LogMessage;

export const DEFAULT_LOG_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;

/** Retention in days from `FLAGSTAFF_LOG_RETENTION_DAYS` (a positive integer), else 30. */
export function logRetentionDays(raw: string | undefined | null): number {
  const days = Number(raw);
  return Number.isInteger(days) && days > 0 ? days : DEFAULT_LOG_RETENTION_DAYS;
}

const english = getTranslator("en-US", "common");
const recordOptions = { t: english, exists: (key: string) => hasKey("en-US", "common", key), mode: "record" } as const;

/**
 * A message as stored: its parameters redacted, and its English text (api.md `msg`) written from them by
 * the en-US template. Used by writeLog and by the game room's batched writes.
 */
export function composeLogText(text: LogText): { message: string; key: LogText["key"]; params: Record<string, unknown> } {
  const params = redactParams(text.params) as Record<string, unknown>;
  const message = redactField(renderLogText(text.key, params, recordOptions) ?? text.key) ?? "";
  return { message, key: text.key, params };
}

async function persist(deps: LogDeps, entry: LogEntry): Promise<void> {
  try {
    const text = composeLogText(entry.text);
    const record = {
      time: deps.now ?? Date.now(),
      level: entry.level,
      logger: entry.logger.slice(0, 64),
      userName: redactField(entry.userName, 64),
      ip: entry.ip ? entry.ip.slice(0, 64) : null,
      message: text.message,
      exception: redactField(entry.exception, 8000),
      status: entry.status ?? null,
      messageKey: text.key,
      messageParams: text.params,
    };
    await deps.db.insert(logs).values(record).run();
    if (deps.adminHub) {
      const message: LogMessage = {
        time: record.time,
        name: record.userName,
        level: record.level,
        ip: record.ip,
        msg: record.message,
        status: record.status,
        key: text.key,
        params: text.params,
      };
      const hub = deps.adminHub.get(deps.adminHub.idFromName("admin"));
      await hub.publish("admin", "log", message);
    }
  } catch (err) {
    console.error("[logs] could not write a log record", err);
  }
}

/**
 * Writes one structured log record (redacted) and pushes it to admins on /hub/admin. Never throws:
 * logging must not fail the request that logs. With `waitUntil` the work runs after the response.
 */
export async function writeLog(deps: LogDeps, entry: LogEntry): Promise<void> {
  const work = persist(deps, entry);
  if (deps.waitUntil) {
    try {
      deps.waitUntil(work);
      return;
    } catch {
      // No execution context after all: fall through and wait.
    }
  }
  await work;
}

/**
 * GET admin/logs: newest first, optionally one level only. A record written with a message key also
 * carries `key` and `params` (what the page translates); older records have only `msg`.
 */
export async function listLogs(db: Db, query: { level: LogLevel; count: number; skip: number }): Promise<LogMessageModel[]> {
  const rows = await db
    .select({
      time: logs.time,
      name: logs.userName,
      level: logs.level,
      ip: logs.ip,
      msg: logs.message,
      status: logs.status,
      key: logs.messageKey,
      params: logs.messageParams,
    })
    .from(logs)
    .where(query.level === "All" ? undefined : eq(logs.level, query.level))
    .orderBy(desc(logs.time), desc(logs.id))
    .limit(query.count)
    .offset(query.skip)
    .all();
  return rows.map(({ key, params, ...r }) => ({ ...r, level: r.level as StoredLogLevel, ...(key ? { key, params: params ?? {} } : {}) }));
}

/** Deletes records older than `days` days; returns how many went. */
export async function purgeOldLogs(db: Db, days: number, now = Date.now()): Promise<number> {
  const cutoff = now - days * DAY_MS;
  const result = await db.delete(logs).where(lt(logs.time, cutoff)).run();
  return result.meta.changes ?? 0;
}
