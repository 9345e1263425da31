import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { CLOSE_ACCESS_ENDED, FINAL_CLOSE_CODES, type ServerMessage } from "~/core/protocol";
import { pageReadsSince } from "./page-reads";
import { serverNow } from "./server-clock";
import { streamSeqTracker } from "./stream-seq";

/**
 * `ended`: the server closed the feed for good (access taken away, game deleted); nothing is retried.
 * `offline`: the browser says it has no network; the feed opens again as soon as it says it is back.
 */
export type SocketState = "connecting" | "open" | "closed" | "ended" | "offline";

export interface SocketOptions {
  /** Called for every server message except hello/pong. */
  onMessage: (message: ServerMessage) => void;
  /**
   * Called after a reconnect or a `seq` gap: the client may have missed messages and should refetch the
   * affected lists (rules.md §11). Also once when the server ends the feed for good: the lists are read
   * again, and the page shows what the API now says (signed out, no longer a player, game hidden…).
   */
  onResync?: () => void;
}

export interface HubOptions extends SocketOptions {
  onState?: (state: SocketState) => void;
  /**
   * When the data the messages update was read (server clock, ms): a first greeting saying the channel's
   * last message for all came at or after it asks for a resync (the message may be missing from it).
   */
  since?: number;
  /** Every greeting: when the channel's last message for all was sent (absent from older servers). */
  onHello?: (hello: { seq: number; lastAt: number | undefined; first: boolean }) => void;
  /** First reconnect delay; doubles up to `maxDelayMs` and resets once connected. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Keep-alive ping period. */
  pingMs?: number;
  /** A ping that gets no frame back within this time means the connection is dead (e.g. half-open). */
  pongTimeoutMs?: number;
}

/** The reconnect delay after `attempt` failed tries (0-based): base·2^attempt capped at max, with ±20 % jitter. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const raw = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 16));
  return Math.round(raw * (0.8 + 0.4 * random()));
}

/** ws(s)://host{path} for the current page. */
export function hubUrl(path: string, location: Pick<Location, "protocol" | "host">): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}

/**
 * Whether data read at `since` may lack a message the channel sent at `lastAt` (both on the server's clock;
 * either unknown: no).
 */
function readBefore(lastAt: number | undefined, since: number | undefined): boolean {
  return lastAt !== undefined && since !== undefined && lastAt >= since;
}

/**
 * Keeps a WebSocket to a hub path (e.g. `/hub/game/12`) open until the returned function is called:
 * reconnects with backoff (at once when the browser comes back online), pings to keep intermediaries from
 * closing it and drops a connection whose ping goes unanswered (a silently dead one would otherwise look
 * open forever), and asks for a resync after a reconnect or a missed `seq` (rules.md §11).
 */
export function connectHub(path: string, options: HubOptions): () => void {
  const { onMessage, onResync, onState, onHello, since, baseDelayMs = 1000, maxDelayMs = 30_000, pingMs = 25_000, pongTimeoutMs = 10_000 } = options;
  let greeted = false;
  let socket: WebSocket | null = null;
  // The current socket was greeted (the server let it in). After the server ended access (4403: signed out
  // elsewhere, role or team changed), a new socket asks again as whoever the cookies now name — a visitor
  // may still follow a public game; refused before its greeting, the feed ends for good. Each such end
  // waits longer before asking (the backoff, never reset), so a server that keeps ending it is not hammered.
  let socketGreeted = false;
  let askingAgain = false;
  let accessEnds = 0;
  let ended = false;
  let attempt = 0;
  let stopped = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  let pongTimer: ReturnType<typeof setTimeout> | undefined;
  const track = streamSeqTracker();

  // The socket is gone (closed, failed, or declared dead): retry later. Frames of a replaced socket are ignored.
  const lost = (ws: WebSocket, code?: number) => {
    if (socket !== ws) return;
    socket = null;
    clearInterval(pingTimer);
    clearTimeout(pongTimer);
    if (stopped) return;
    const wasGreeted = socketGreeted;
    socketGreeted = false;
    if (code === CLOSE_ACCESS_ENDED && wasGreeted) {
      askingAgain = true;
      onState?.("connecting");
      retryTimer = setTimeout(open, backoffDelay(accessEnds, baseDelayMs, maxDelayMs));
      accessEnds += 1;
      return;
    }
    if ((code !== undefined && FINAL_CLOSE_CODES.has(code)) || (askingAgain && !wasGreeted)) {
      askingAgain = false;
      ended = true;
      onState?.("ended");
      onResync?.();
      return;
    }
    onState?.("closed");
    retryTimer = setTimeout(open, backoffDelay(attempt, baseDelayMs, maxDelayMs));
    attempt += 1;
  };

  const open = () => {
    if (stopped) return;
    onState?.("connecting");
    const ws = new WebSocket(hubUrl(path, window.location));
    socket = ws;
    ws.addEventListener("open", () => {
      if (socket !== ws) return;
      attempt = 0;
      onState?.("open");
      pingTimer = setInterval(() => {
        if (ws.readyState !== WebSocket.OPEN) return;
        ws.send("ping");
        clearTimeout(pongTimer);
        pongTimer = setTimeout(() => {
          lost(ws);
          ws.close();
        }, pongTimeoutMs);
      }, pingMs);
    });
    ws.addEventListener("message", (event) => {
      if (socket !== ws || typeof event.data !== "string") return;
      clearTimeout(pongTimer);
      let message: ServerMessage;
      try {
        message = JSON.parse(event.data) as ServerMessage;
      } catch {
        return;
      }
      const { resync, deliver } = track(message);
      if (message.type === "hello") {
        socketGreeted = true;
        askingAgain = false;
        const first = !greeted;
        greeted = true;
        const lastAt = message.data.lastAt;
        onHello?.({ seq: message.seq, lastAt, first });
        if (first && readBefore(lastAt, since)) onResync?.();
      }
      if (resync) onResync?.();
      if (deliver) onMessage(message);
    });
    ws.addEventListener("close", (event) => lost(ws, event.code));
    ws.addEventListener("error", () => ws.close());
  };

  // Back online while waiting to retry: try now instead of after the backoff.
  const online = () => {
    if (stopped || ended || socket !== null) return;
    clearTimeout(retryTimer);
    attempt = 0;
    open();
  };
  // The browser lost its network: the feed can carry nothing now. Say so at once (the unanswered ping would
  // take up to 35 s) and wait for `online` instead of retrying into no network.
  const offline = () => {
    if (stopped || ended) return;
    const ws = socket;
    if (ws) {
      lost(ws);
      ws.close();
      if (ended) return;
    }
    clearTimeout(retryTimer);
    onState?.("offline");
  };
  if (typeof window.addEventListener === "function") {
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
  }

  open();
  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    clearInterval(pingTimer);
    clearTimeout(pongTimer);
    if (typeof window.removeEventListener === "function") {
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
    }
    const ws = socket;
    socket = null;
    ws?.close(1000);
  };
}

interface Subscriber extends SocketOptions {
  onState: (state: SocketState) => void;
  /** When this listener's data was read (server clock, ms): see HubOptions.since. */
  since?: number;
}

interface SharedHub {
  subscribers: Set<Subscriber>;
  state: SocketState;
  /**
   * When the channel's last message for all was sent, as far as this page knows (server clock): the
   * greeting's, then each message that advanced `seq`, timed on arrival. Undefined before the greeting.
   */
  lastAt: number | undefined;
  lastSeq: number;
  close: () => void;
  linger: ReturnType<typeof setTimeout> | undefined;
}

/** How long a hub connection nobody listens to stays open (a navigation between two pages of a game keeps it). */
const LINGER_MS = 2_000;
const hubs = new Map<string, SharedHub>();

/**
 * One connection per hub path for the whole page, however many parts of it listen (the challenge board's
 * verdicts and notices, the scoreboard…); closed shortly after its last listener goes.
 */
export function subscribeHub(path: string, subscriber: Subscriber): () => void {
  let hub = hubs.get(path);
  if (hub?.state === "ended" && hub.subscribers.size === 0) {
    // Ended for the page that had it (e.g. before signing in again): a page that opens now asks anew.
    clearTimeout(hub.linger);
    hubs.delete(path);
    hub.close();
    hub = undefined;
  }
  if (!hub) {
    const created: SharedHub = { subscribers: new Set(), state: "connecting", lastAt: undefined, lastSeq: 0, close: () => undefined, linger: undefined };
    const each = (f: (s: Subscriber) => void) => [...created.subscribers].forEach(f);
    created.close = connectHub(path, {
      onHello: ({ seq, lastAt, first }) => {
        created.lastSeq = seq;
        created.lastAt = lastAt ?? 0;
        // A reconnect resyncs every listener anyway (connectHub).
        if (first) each((s) => readBefore(created.lastAt, s.since) && s.onResync?.());
      },
      onMessage: (message) => {
        // A board delta counts even without a new number (a hidden game's, sent to board readers only).
        if (message.seq > created.lastSeq || message.type === "scoreboard") {
          created.lastSeq = Math.max(created.lastSeq, message.seq);
          created.lastAt = serverNow();
        }
        each((s) => s.onMessage(message));
      },
      onResync: () => each((s) => s.onResync?.()),
      onState: (state) => {
        created.state = state;
        each((s) => s.onState(state));
      },
    });
    hubs.set(path, created);
    hub = created;
  }
  const current = hub;
  clearTimeout(current.linger);
  current.subscribers.add(subscriber);
  subscriber.onState(current.state);
  // Joining a feed already greeted: a message it brought after this listener's data was read reached the
  // page before the listener did.
  if (readBefore(current.lastAt, subscriber.since)) {
    queueMicrotask(() => {
      if (current.subscribers.has(subscriber)) subscriber.onResync?.();
    });
  }
  return () => {
    current.subscribers.delete(subscriber);
    if (current.subscribers.size > 0) return;
    clearTimeout(current.linger);
    current.linger = setTimeout(() => {
      if (current.subscribers.size > 0 || hubs.get(path) !== current) return;
      hubs.delete(path);
      current.close();
    }, LINGER_MS);
  };
}

/** A hub path's connection for a component (shared with the page's other listeners); a null path listens to nothing. */
export function useHubSocket(path: string | null, options: SocketOptions): SocketState {
  const [state, setState] = useState<SocketState>("connecting");
  const handlers = useRef(options);
  useLayoutEffect(() => {
    handlers.current = options;
  });

  useEffect(() => {
    if (!path) return;
    return subscribeHub(path, {
      onMessage: (message) => handlers.current.onMessage(message),
      onResync: () => handlers.current.onResync?.(),
      onState: setState,
      since: pageReadsSince(),
    });
  }, [path]);

  return path ? state : "closed";
}
