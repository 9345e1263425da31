import { useEffect, useRef, useState } from "react";
import { computeGamePhase, type GamePhase } from "~/core/game/phase";
import { serverNow } from "~/lib/server-clock";

export { formatCountdown, formatDateTime, fromLocalInput, toLocalInput } from "~/lib/datetime";

/**
 * The current time on the server's clock, ticking every `intervalMs` (for countdowns); null until mounted
 * so SSR output is stable.
 */
export function useNow(intervalMs = 1000): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const first = setTimeout(() => setNow(serverNow()), 0);
    const id = setInterval(() => setNow(serverNow()), intervalMs);
    return () => {
      clearTimeout(first);
      clearInterval(id);
    };
  }, [intervalMs]);
  return now;
}

/** setTimeout's longest wait; a later moment is looked at again after it. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Whether the server's clock has reached `at` (null: never); turns true at that moment, without a reload.
 * Counted from `serverTime` (the server's time when the page's data was read, so the server's render and
 * the hydration agree) on the browser's monotonic clock: a computer clock that is minutes off changes
 * nothing. Without `serverTime`, from the server's clock as the browser knows it (server-clock.ts).
 */
export function useTimeReached(at: number | null, serverTime?: number): boolean {
  // The moment seen reached, kept with the reading it was counted from: a moved moment, or the same moment
  // read again and still ahead on the server's clock (a browser clock that ran ahead, a sleep), is looked at
  // afresh from the new reading instead of staying reached.
  const reading = `${at}@${serverTime ?? ""}`;
  const [reached, setReached] = useState<string | null>(null);
  useEffect(() => {
    if (at === null) return;
    const from = serverTime ?? serverNow();
    const mountedAt = performance.now();
    let timer: ReturnType<typeof setTimeout>;
    const look = () => {
      const left = at - (from + performance.now() - mountedAt);
      if (left <= 0) setReached(reading);
      else timer = setTimeout(look, Math.min(left + 50, MAX_TIMER_MS));
    };
    timer = setTimeout(look, 0);
    return () => clearTimeout(timer);
  }, [at, serverTime, reading]);
  return at !== null && ((serverTime !== undefined && at <= serverTime) || reached === reading);
}

/**
 * Calls `callback` every `everyMs` (null: never) while the tab is visible, and at once when it becomes
 * visible again (a page read again while nobody looks at it would only cost requests).
 */
export function useWhileVisible(callback: () => void, everyMs: number | null): void {
  const callbackRef = useRef(callback);
  useEffect(() => {
    callbackRef.current = callback;
  });
  useEffect(() => {
    if (everyMs === null) return;
    const call = () => {
      if (document.visibilityState === "visible") callbackRef.current();
    };
    const timer = setInterval(call, everyMs);
    document.addEventListener("visibilitychange", call);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", call);
    };
  }, [everyMs]);
}

export function phaseOf(game: { start: number; end: number }, now: number): GamePhase {
  return computeGamePhase({ startTime: game.start, endTime: game.end }, now);
}
