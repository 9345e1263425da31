import { createDb } from "~/.server/db/client";
import { type LogDeps, type LogEntry, writeLog } from "~/.server/services/logs";
import { type ApiContext, backgroundOf } from "./context";

/** Log dependencies of a request: its database, the AdminHub and `waitUntil` (no latency on the response). */
export function logDeps(c: ApiContext): LogDeps {
  return { db: c.get("db") ?? createDb(c.env.DB), adminHub: c.env.ADMIN_HUB, waitUntil: backgroundOf(c) };
}

/**
 * Writes a log record for the current request: the IP and (unless given) the signed-in user's name are
 * filled in. Never throws.
 */
export function logEvent(c: ApiContext, entry: Omit<LogEntry, "ip"> & { ip?: string | null }): Promise<void> {
  return writeLog(logDeps(c), {
    ...entry,
    ip: entry.ip ?? c.get("ip") ?? null,
    userName: entry.userName !== undefined ? entry.userName : (c.get("user")?.userName ?? null),
  });
}
