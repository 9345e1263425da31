import type { LogMessage } from "~/core/protocol";
import { connectHub, hubUrl, type SocketState } from "./realtime";

export type { SocketState };
export { backoffDelay } from "./realtime";

export interface AdminLogSocketOptions {
  onLog: (log: LogMessage) => void;
  onState?: (state: SocketState) => void;
  /** Records may have been missed (a reconnect, a gap in `seq`, or one sent after `since`): refetch the list. */
  onResync?: () => void;
  /** When the shown list was read (server clock, ms): see HubOptions.since. */
  since?: number;
  /** First reconnect delay; doubles up to `maxDelayMs` and resets once connected. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Keep-alive ping period. */
  pingMs?: number;
}

/** ws(s)://host/hub/admin for the current page. */
export function adminHubUrl(location: Pick<Location, "protocol" | "host">): string {
  return hubUrl("/hub/admin", location);
}

/**
 * Subscribes the browser to new log records on /hub/admin (the session cookie authenticates), reconnecting
 * with exponential backoff and calling `onResync` when records may have been missed. Returns a function that
 * closes the socket for good.
 */
export function connectAdminLogs({ onLog, pingMs = 30_000, ...options }: AdminLogSocketOptions): () => void {
  return connectHub("/hub/admin", {
    ...options,
    pingMs,
    onMessage: (message) => {
      if (message.type === "log") onLog(message.data);
    },
  });
}
