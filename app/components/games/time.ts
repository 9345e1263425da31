import { useEffect, useState } from "react";
import { computeGamePhase, type GamePhase } from "~/core/game/phase";

export { formatDateTime } from "~/components/admin/user-types";

/** The current time, ticking every `intervalMs` (for countdowns); null until mounted so SSR output is stable. */
export function useNow(intervalMs = 1000): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const first = setTimeout(() => setNow(Date.now()), 0);
    const id = setInterval(() => setNow(Date.now()), intervalMs);
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

/** A duration as `Dd HH:mm:ss` (days only when there are some). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const pad = (n: number) => String(n).padStart(2, "0");
  const hms = `${pad(Math.floor((total % 86_400) / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
  return days > 0 ? `${days}d ${hms}` : hms;
}

/** `YYYY-MM-DDTHH:mm` in the viewer's time zone, for <input type="datetime-local">. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The ms of a datetime-local value (viewer's time zone), or null when empty or invalid. */
export function fromLocalInput(value: string): number | null {
  if (!value) return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : null;
}
