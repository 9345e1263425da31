import { serverNow } from "./server-clock";

/**
 * Where the data a page shows can be older than its live feed: the page reads its lists, then its socket
 * opens, and a message sent in between reaches nobody on that page. The socket's greeting says when the
 * channel's last message for all was sent (`lastAt`); a listener whose page started reading before then
 * refetches (app/lib/realtime.ts).
 */

/**
 * Local clocks within this of the server's are left uncorrected (server-clock.ts): a page's start is
 * counted this much earlier, so such a clock never makes a message look older than the read.
 */
const CLOCK_MARGIN_MS = 2_000;

// The document's own load (server-rendered data was read after it began), then each client loading.
let startedAt = typeof performance === "undefined" ? 0 : performance.timeOrigin;

/**
 * Called when the page's loaders start (root's client middleware): what they read is newer than this. The
 * loaders that run as the page hydrates keep the document's start: the server-rendered data beside theirs
 * is older than them.
 */
export function markPageReads(): void {
  if (typeof document !== "undefined" && document.documentElement.dataset.hydrated !== "true") return;
  startedAt = Date.now();
}

/** The earliest moment, on the server's clock, the page's current data can have been read. */
export function pageReadsSince(): number {
  return startedAt + (serverNow() - Date.now()) - CLOCK_MARGIN_MS;
}
