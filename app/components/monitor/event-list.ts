import { EVENT_TYPES, type EventType } from "~/core/enums";
import type { GameEvent } from "~/core/protocol";

/** The monitor's event filter: container events hidden (on the server) and one type or all (in the browser). */
export interface EventFilter {
  hideContainer: boolean;
  type: EventType | "";
}

export function isContainerEvent(type: EventType): boolean {
  return type === "ContainerStart" || type === "ContainerDestroy";
}

/** The types the filter offers: no container types while container events are hidden. */
export function eventTypeOptions(hideContainer: boolean): EventType[] {
  return EVENT_TYPES.filter((type) => !hideContainer || !isContainerEvent(type));
}

export function matchesEventFilter(event: GameEvent, filter: EventFilter): boolean {
  if (filter.hideContainer && isContainerEvent(event.type)) return false;
  return filter.type === "" || event.type === filter.type;
}

function eventKey(e: GameEvent): string {
  return JSON.stringify([e.time, e.type, e.team, e.user, e.values]);
}

/**
 * The held events (newest first) followed by the next older page. An event stored while the page loaded
 * shifts the server's offsets by one, so the page may start with events already held: those are dropped.
 */
export function appendOlderEvents(held: GameEvent[], page: GameEvent[]): GameEvent[] {
  const tail = new Set(held.slice(-page.length).map(eventKey));
  let start = 0;
  while (start < page.length && tail.has(eventKey(page[start]!))) start++;
  return start === page.length ? held : [...held, ...page.slice(start)];
}
