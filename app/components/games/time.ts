import { useEffect, useState } from "react";
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

export function phaseOf(game: { start: number; end: number }, now: number): GamePhase {
  return computeGamePhase({ startTime: game.start, endTime: game.end }, now);
}
