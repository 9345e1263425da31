import type { LogMessage, ServerMessage } from "~/core/protocol";
import { streamSeqTracker } from "./stream-seq";

export type SocketState = "connecting" | "open" | "closed";

export interface AdminLogSocketOptions {
  onLog: (log: LogMessage) => void;
  onState?: (state: SocketState) => void;
  /** Records may have been missed (a reconnect, or a gap in `seq`): refetch the list. */
  onResync?: () => void;
  /** First reconnect delay; doubles up to `maxDelayMs` and resets once connected. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Keep-alive ping period. */
  pingMs?: number;
}

/** ws(s)://host/hub/admin for the current page. */
export function adminHubUrl(location: Pick<Location, "protocol" | "host">): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/hub/admin`;
}

/** The reconnect delay after `attempt` failed tries (0-based): base·2^attempt capped at max, with ±20 % jitter. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const raw = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 16));
  return Math.round(raw * (0.8 + 0.4 * random()));
}

/**
 * Subscribes the browser to new log records on /hub/admin (the session cookie authenticates), reconnecting
 * with exponential backoff and calling `onResync` when records may have been missed. Returns a function that closes the socket for good.
 */
export function connectAdminLogs(options: AdminLogSocketOptions): () => void {
  const { onLog, onState, onResync, baseDelayMs = 1000, maxDelayMs = 30_000, pingMs = 30_000 } = options;
  let socket: WebSocket | null = null;
  let attempt = 0;
  let stopped = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  const track = streamSeqTracker();

  const open = () => {
    if (stopped) return;
    onState?.("connecting");
    const ws = new WebSocket(adminHubUrl(window.location));
    socket = ws;
    ws.addEventListener("open", () => {
      attempt = 0;
      onState?.("open");
      pingTimer = setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send("ping");
      }, pingMs);
    });
    ws.addEventListener("message", (event) => {
      if (typeof event.data !== "string") return;
      let message: ServerMessage;
      try {
        message = JSON.parse(event.data) as ServerMessage;
      } catch {
        return;
      }
      // Records logged while the socket was down never arrive over it: a reconnect or a gap resyncs.
      const { resync, deliver } = track(message);
      if (resync) onResync?.();
      if (deliver && message.type === "log") onLog(message.data);
    });
    ws.addEventListener("close", () => {
      clearInterval(pingTimer);
      if (socket === ws) socket = null;
      if (stopped) return;
      onState?.("closed");
      retryTimer = setTimeout(open, backoffDelay(attempt, baseDelayMs, maxDelayMs));
      attempt += 1;
    });
  };

  open();
  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    clearInterval(pingTimer);
    socket?.close(1000);
    socket = null;
  };
}
