/**
 * The one place dates are formatted for people (spec §9): DD/MM/YYYY HH:mm:ss in the viewer's time zone
 * (the browser's; the server has no zone of its own to offer), plus countdowns and datetime-local values.
 */

const pad = (n: number) => String(n).padStart(2, "0");

/** DD/MM/YYYY HH:mm:ss in the viewer's time zone. */
export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** DD/MM/YYYY of the UTC date: what a server render shows before the browser knows the zone. */
export function formatUtcDate(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

/** The translation function formatCountdown needs: the day unit (`common.days`, plural by count). */
export type DayUnitT = (key: "common.days", options: { count: number }) => string;

/** A duration as `<days> HH:mm:ss` (days only when there are some), the day unit in the viewer's language. */
export function formatCountdown(ms: number, t: DayUnitT): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hms = `${pad(Math.floor((total % 86_400) / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
  return days > 0 ? `${t("common.days", { count: days })} ${hms}` : hms;
}

/** `YYYY-MM-DDTHH:mm` in the viewer's time zone, for <input type="datetime-local">. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const LOCAL_INPUT = /^(\d{4,6})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/**
 * The ms of a datetime-local value (viewer's time zone), or null when empty or invalid. Read by its parts:
 * `Date` parses no five-digit year, which the last time the API takes (9999-12-31 UTC) is east of UTC.
 */
export function fromLocalInput(value: string): number | null {
  const m = LOCAL_INPUT.exec(value);
  if (!m) return null;
  const [, year, month, day, hours, minutes, seconds = "0", fraction = "0"] = m;
  const date = new Date(0);
  date.setFullYear(Number(year), Number(month) - 1, Number(day));
  date.setHours(Number(hours), Number(minutes), Number(seconds), Number(fraction.padEnd(3, "0")));
  // 30 February and 25 o'clock roll over into another day: not a time that was meant.
  if (date.getMonth() !== Number(month) - 1 || date.getDate() !== Number(day) || date.getHours() !== Number(hours)) return null;
  return date.getTime();
}

/** `count` + 1 evenly spaced instants from `start` to `end` (both included), for a chart's time axis. */
export function axisTicks(start: number, end: number, count = 4): number[] {
  const span = Math.max(0, end - start);
  return Array.from({ length: count + 1 }, (_, i) => Math.round(start + (span * i) / count));
}

/**
 * The labelled ticks of a time axis from `start` to `end`: evenly spaced, and only where the label differs
 * from the one before it (a board read in a game's first second spans under a second: five ticks would all
 * read the same time).
 */
export function axisLabels(start: number, end: number, count = 4): { time: number; text: string }[] {
  const span = Math.max(0, end - start);
  const labels: { time: number; text: string }[] = [];
  for (const time of axisTicks(start, end, count)) {
    const text = formatAxisTime(time, span);
    if (labels.at(-1)?.text !== text) labels.push({ time, text });
  }
  return labels;
}

/**
 * A time axis label: HH:mm within a day's span, DD/MM HH:mm beyond, HH:mm:ss under ten minutes (ticks
 * less than a minute apart would repeat a minute) — in the viewer's time zone.
 */
export function formatAxisTime(ms: number, spanMs: number): string {
  const d = new Date(ms);
  if (spanMs < 600_000) return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return spanMs <= 86_400_000 ? time : `${pad(d.getDate())}/${pad(d.getMonth() + 1)} ${time}`;
}
