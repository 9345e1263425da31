import { useSyncExternalStore } from "react";
import { formatDateTime, formatUtcDate } from "~/lib/datetime";

const noSubscription = () => () => {};

/**
 * A time as DD/MM/YYYY HH:mm:ss in the browser's time zone. The server does not know that zone, so the
 * server render (and hydration) shows the UTC date only; the full local time follows at once.
 */
export function LocalTime({ ms }: { ms: number }) {
  const inBrowser = useSyncExternalStore(noSubscription, () => true, () => false);
  return <time dateTime={new Date(ms).toISOString()}>{inBrowser ? formatDateTime(ms) : formatUtcDate(ms)}</time>;
}
