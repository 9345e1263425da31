/**
 * Conditional GET (api.md §1 "HTTP caching", RFC 9110 §13) for representations that can change several
 * times within one second, while an HTTP-date has one-second precision.
 *
 * Each representation has a change time `t` (ms). The rule (DECISIONS.md, 2026-11-21 fourth session):
 * - `Last-Modified` is the HTTP-date of floor(t), sent only once the representation is at least 1 s old
 *   (now − t ≥ 1000). Any later representation is made after that moment, so its floor(t) is strictly
 *   greater than every `Last-Modified` already handed out: a client's date never matches a newer one.
 * - `If-None-Match`, when present, alone decides (RFC 9110 §13.1.3). Otherwise a valid
 *   `If-Modified-Since` date D gives 304 iff floor(t) ≤ D; an invalid date is ignored, and so is a date
 *   later than the server's clock (RFC 7232 §3.3: no `Last-Modified` was ever that late, so the client
 *   cannot hold the representation it names).
 * - A 304 carries the validators and Cache-Control the 200 would.
 */

const SECOND = 1000;
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const LONG_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const floorToSecond = (ms: number) => Math.floor(ms / SECOND) * SECOND;

/** IMF-fixdate of the second `ms` falls in, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`. */
export function formatHttpDate(ms: number): string {
  return new Date(floorToSecond(ms)).toUTCString();
}

const IMF_FIXDATE = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const RFC850_DATE = /^(Sunday|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday), (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const ASCTIME_DATE = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

function utc(year: number, monthName: string, day: number, hour: number, minute: number, second: number): number | null {
  const month = MONTHS.indexOf(monthName);
  if (month < 0 || hour > 23 || minute > 59 || second > 59 || day < 1) return null;
  const ms = Date.UTC(year, month, day, hour, minute, second);
  // Date.UTC rolls 31 Feb over into March: such a date is invalid, not another day.
  return new Date(ms).getUTCDate() === day ? ms : null;
}

/**
 * The time (ms) of an HTTP-date in any of the three formats recipients must accept (RFC 9110 §5.6.7), or
 * null if `text` is not one. A two-digit year more than 50 years after `now` is read as the past century.
 */
export function parseHttpDate(text: string, now: number): number | null {
  const value = text.trim();
  let m = IMF_FIXDATE.exec(value);
  if (m) return utc(Number(m[4]), m[3]!, Number(m[2]), Number(m[5]), Number(m[6]), Number(m[7]));
  m = RFC850_DATE.exec(value);
  if (m && LONG_DAYS.includes(m[1]!)) {
    const thisYear = new Date(now).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(m[4]);
    if (year > thisYear + 50) year -= 100;
    return utc(year, m[3]!, Number(m[2]), Number(m[5]), Number(m[6]), Number(m[7]));
  }
  m = ASCTIME_DATE.exec(value);
  if (m && DAYS.includes(m[1]!)) return utc(Number(m[7]), m[2]!, Number(m[3]!.trim()), Number(m[4]), Number(m[5]), Number(m[6]));
  return null;
}

/** The `Last-Modified` value for a representation changed at `changedAt`, or null while it is under 1 s old. */
export function lastModifiedOf(changedAt: number, now: number): string | null {
  return now - changedAt >= SECOND ? formatHttpDate(changedAt) : null;
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, "");

/** `If-None-Match` against the current ETag by weak comparison (RFC 9110 §8.8.3.2); `*` matches any. */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === "*") return true;
  const current = opaque(etag);
  return ifNoneMatch.split(",").some((candidate) => opaque(candidate) === current);
}

export interface Conditions {
  ifNoneMatch?: string | null;
  ifModifiedSince?: string | null;
}

export interface Validators {
  etag: string | null;
  /** The representation's change time (ms); null when unknown, so `If-Modified-Since` never gives 304. */
  changedAt: number | null;
}

/** Whether a GET with these conditions is answered 304 (the rule above; `now` is the server's clock). */
export function isNotModified(conditions: Conditions, current: Validators, now: number): boolean {
  if (conditions.ifNoneMatch != null) return current.etag !== null && etagMatches(conditions.ifNoneMatch, current.etag);
  if (conditions.ifModifiedSince == null || current.changedAt === null) return false;
  const since = parseHttpDate(conditions.ifModifiedSince, now);
  return since !== null && since <= now && floorToSecond(current.changedAt) <= since;
}

/**
 * When each resource's current ETag was first served by this isolate: its change time for
 * `Last-Modified` when nothing better is known. A different ETag (a revert to an older one included)
 * starts a new time. `now` must be the clock when the response is made, not when its request arrived: a
 * slow request that read the new content must not date it before a `Last-Modified` a faster one handed
 * out meanwhile. Bounded: the least recently read key is forgotten first, and a forgotten key starts
 * again at its next read, which only makes its time later (a 200 where a 304 could have been).
 */
export class ChangeTimes {
  private readonly entries = new Map<string, { etag: string; since: number }>();

  constructor(private readonly limit: number) {}

  /** Records that `key` is served as `etag` at `now`; returns since when that has been so. */
  changedAt(key: string, etag: string, now: number): number {
    let entry = this.entries.get(key);
    if (entry) this.entries.delete(key);
    if (!entry || entry.etag !== etag) entry = { etag, since: now };
    this.entries.set(key, entry);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
    return entry.since;
  }

  get size(): number {
    return this.entries.size;
  }
}
