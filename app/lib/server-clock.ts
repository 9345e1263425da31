/**
 * The server's clock as the browser best knows it. Game times (start, end, deadlines) are the server's;
 * a browser clock that is minutes off showed countdowns and "not scored" against the wrong moment. Every
 * API answer says the server's time (`X-Server-Time`, ms; else the `Date` header, to the second); only a
 * difference beyond what the round trip leaves uncertain is applied, so a well-set clock is left alone.
 */
let offsetMs = 0;

/** Differences smaller than this are noise of the round trip (or of the Date header's whole seconds). */
const TOLERANCE_MS = 2000;

/** The server's time a response gives, in ms: its X-Server-Time, else the middle of its Date second. */
function serverTimeOf(headers: { get(name: string): string | null }): number {
  const exact = Number(headers.get("X-Server-Time") ?? NaN);
  if (Number.isFinite(exact) && exact > 0) return exact;
  const date = headers.get("Date");
  const parsed = date ? Date.parse(date) : NaN;
  return Number.isFinite(parsed) ? parsed + 500 : NaN;
}

/** Server time minus local time, or 0 within tolerance. */
function offsetFrom(server: number, sentAt: number, receivedAt: number): number {
  const difference = server - (sentAt + receivedAt) / 2;
  return Math.abs(difference) > TOLERANCE_MS ? Math.round(difference) : 0;
}

/** The correction a response implies: server time minus local time, or 0 when within tolerance (or unknown). */
export function clockOffset(headers: { get(name: string): string | null }, sentAt: number, receivedAt: number): number {
  const server = serverTimeOf(headers);
  return Number.isFinite(server) ? offsetFrom(server, sentAt, receivedAt) : 0;
}

/** Records what a response says about the server's clock (responses that say nothing change nothing). */
export function noteServerTime(headers: { get(name: string): string | null }, sentAt: number, receivedAt: number): void {
  const server = serverTimeOf(headers);
  if (Number.isFinite(server)) offsetMs = offsetFrom(server, sentAt, receivedAt);
}

/** Now, on the server's clock. */
export const serverNow = (): number => Date.now() + offsetMs;
