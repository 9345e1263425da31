import { createDb } from "~/.server/db/client";
import { logRetentionDays, purgeOldLogs } from "~/.server/services/logs";
import type { Channel, LogMessage, PayloadOf, ServerMessageType } from "~/core/protocol";
import { SocketHub } from "../shared/socket-hub";

/** How often old log records are purged (at most; only while logs are being written). */
export const LOG_PURGE_INTERVAL_MS = 3_600_000;

/**
 * The single admin hub (named `admin`): streams new log records to admins on channel `admin`, and runs
 * log retention from its alarm — armed by the first log published after the previous purge, so the
 * purge runs at most once an hour and never while nothing is logged.
 */
export class AdminHub extends SocketHub {
  protected allowedChannels: readonly Channel[] = ["admin"];
  private alarmArmed = false;

  override async publish<T extends ServerMessageType>(channel: Channel, type: T, data: PayloadOf<T>, teamId?: number): Promise<number> {
    if (type === "log") await this.armPurge();
    return super.publish(channel, type, data, teamId);
  }

  /** Streams several new log records in order (one call for a batch of them). */
  async publishLogs(logs: LogMessage[]): Promise<number> {
    if (logs.length === 0) return 0;
    await this.armPurge();
    return this.publishMany(logs.map((data) => ({ channel: "admin", type: "log", data })));
  }

  private async armPurge(): Promise<void> {
    if (this.alarmArmed) return;
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + LOG_PURGE_INTERVAL_MS);
    this.alarmArmed = true;
  }

  /** Deletes log records older than FLAGSTAFF_LOG_RETENTION_DAYS (default 30). Returns how many went. */
  async purgeLogs(now = Date.now()): Promise<number> {
    return purgeOldLogs(createDb(this.env.DB), logRetentionDays(this.env.FLAGSTAFF_LOG_RETENTION_DAYS), now);
  }

  async alarm(): Promise<void> {
    this.alarmArmed = false;
    try {
      await this.purgeLogs();
    } catch (err) {
      console.error("[logs] retention purge failed", err);
    }
  }
}
