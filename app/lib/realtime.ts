import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { ServerMessage } from "~/core/protocol";
import { streamSeqTracker } from "./stream-seq";

export type SocketState = "connecting" | "open" | "closed";

export interface SocketOptions {
  /** Called for every server message except hello/pong. */
  onMessage: (message: ServerMessage) => void;
  /**
   * Called after a reconnect or a `seq` gap: the client may have missed messages and should refetch the
   * affected lists (rules.md §11).
   */
  onResync?: () => void;
}

const PING_MS = 25_000;
const BACKOFF_MIN_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;

/** The next reconnect delay: doubling from 1 s up to 30 s, with jitter so clients do not reconnect in step. */
export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.max(0, attempt));
  return Math.round(base / 2 + random() * (base / 2));
}

function socketUrl(path: string): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss:" : "ws:"}//${host}${path}`;
}

/**
 * Keeps a WebSocket to a hub path (e.g. `/hub/game/12`) open while mounted: reconnects with backoff,
 * pings to keep intermediaries from closing it, and asks for a resync after a reconnect or a missed `seq`.
 * A null path closes it.
 */
export function useHubSocket(path: string | null, options: SocketOptions): SocketState {
  const [state, setState] = useState<SocketState>("connecting");
  const handlers = useRef(options);
  useLayoutEffect(() => {
    handlers.current = options;
  });

  useEffect(() => {
    if (!path) return;
    let socket: WebSocket | null = null;
    let attempt = 0;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let ping: ReturnType<typeof setInterval> | undefined;
    const track = streamSeqTracker();

    const connect = () => {
      const ws = new WebSocket(socketUrl(path));
      socket = ws;
      ws.onopen = () => {
        attempt = 0;
        setState("open");
        ping = setInterval(() => {
          if (ws.readyState === WebSocket.OPEN) ws.send("ping");
        }, PING_MS);
      };
      ws.onmessage = (event) => {
        let message: ServerMessage;
        try {
          message = JSON.parse(String(event.data)) as ServerMessage;
        } catch {
          return;
        }
        const { resync, deliver } = track(message);
        if (resync) handlers.current.onResync?.();
        if (deliver) handlers.current.onMessage(message);
      };
      ws.onclose = () => {
        clearInterval(ping);
        if (stopped) return;
        setState("closed");
        retry = setTimeout(() => {
          setState("connecting");
          connect();
        }, backoffDelay(attempt++));
      };
      ws.onerror = () => ws.close();
    };

    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearInterval(ping);
      socket?.close(1000);
    };
  }, [path]);

  return path ? state : "closed";
}
