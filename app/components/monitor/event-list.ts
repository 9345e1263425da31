import { withoutBidiControls } from "~/core/bidi";
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

/**
 * The events monitor's filter as its address keeps it (`?type=<type>&team=<id>&containers=shown`): container
 * events hidden unless `containers=shown`, a type only among those offered, a team id or all (null).
 */
export interface EventAddressFilter extends EventFilter {
  team: number | null;
}

/** The filter an address asks for; anything unreadable (or a container type while those are hidden) is no filter. */
export function eventFilterFrom(params: URLSearchParams): EventAddressFilter {
  const hideContainer = params.get("containers") !== "shown";
  const type = params.get("type") ?? "";
  const team = Number(params.get("team"));
  return {
    hideContainer,
    type: (eventTypeOptions(hideContainer) as string[]).includes(type) ? (type as EventType) : "",
    team: params.get("team") !== null && Number.isSafeInteger(team) && team > 0 ? team : null,
  };
}

/**
 * The address parameters a filter change sets (an empty value drops the parameter): hiding container
 * events again also drops a container type.
 */
export function eventFilterChanges(current: EventAddressFilter, next: Partial<EventAddressFilter>): Record<string, string> {
  const changes: Record<string, string> = {};
  if (next.hideContainer !== undefined) {
    changes.containers = next.hideContainer ? "" : "shown";
    if (next.hideContainer && next.type === undefined && current.type !== "" && isContainerEvent(current.type)) changes.type = "";
  }
  if (next.type !== undefined) changes.type = next.type;
  if (next.team !== undefined) changes.team = next.team === null ? "" : String(next.team);
  return changes;
}

export function matchesEventFilter(event: GameEvent, filter: EventFilter): boolean {
  if (filter.hideContainer && isContainerEvent(event.type)) return false;
  return filter.type === "" || event.type === filter.type;
}

/** A translation function: a key of common.json and its values. */
export type Translate = (key: string, values?: Record<string, string>) => string;

/**
 * An event's sentence (rules.md §11 values): every line whose event has a user names them after the team
 * ("team / user"), as the flag lines always did. A player's event whose user was deleted says so; a
 * ContainerDestroy without a user was the platform's removal (expiry, an admin, the team's limit).
 */
export function eventText(e: GameEvent, t: Translate): string {
  // Values go into a sentence: a direction control in a team name or an answer must not turn it around.
  const v = e.values.map(withoutBidiControls);
  // A team's or user's event outlives them (its reference is emptied): the sentence says who is gone.
  const team = e.team === null ? t("monitor.deletedTeam") : withoutBidiControls(e.team);
  const user = e.user ? withoutBidiControls(e.user) : t("monitor.deletedUser");
  switch (e.type) {
    case "FlagSubmit":
      return t("monitor.event.FlagSubmit", { team, user, answer: v[1] ?? "", challenge: v[2] ?? "", result: t(`monitor.status.${v[0] ?? "FlagSubmitted"}`) });
    case "CheatDetected":
      return t("monitor.event.CheatDetected", { challenge: v[0] ?? "", submitTeam: v[1] ?? "", user, ownedTeam: v[2] ?? "" });
    case "ContainerStart":
      return t("monitor.event.ContainerStart", { team, user, challenge: v[1] ?? "" });
    case "ContainerDestroy":
      return e.user ? t("monitor.event.ContainerDestroy", { team, user, challenge: v[1] ?? "" }) : t("monitor.event.ContainerRemoved", { team, challenge: v[1] ?? "" });
    default:
      // The platform's own notes have no user; one that has names them.
      return e.user ? t("monitor.event.NormalBy", { text: v[0] ?? "", user }) : t("monitor.event.Normal", { text: v[0] ?? "" });
  }
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

/** Events held beyond the ones shown, at most (a rare type filter over a busy game). */
export const HELD_MAX = 1_000;

/**
 * A live event on top of the held ones (newest first), the held list then cut after the `limit`-th event
 * the filter shows, or at HELD_MAX: a page open for hours keeps what it shows, not everything pushed.
 * The held list stays the newest part of the server's, so the next page still starts at its length;
 * `trimmed` says older events were let go (the server has more again).
 */
export function prependLiveEvent(held: readonly GameEvent[], event: GameEvent, filter: EventFilter, limit: number): { events: GameEvent[]; trimmed: boolean } {
  const next = [event, ...held];
  let seen = 0;
  for (let i = 0; i < next.length && i < HELD_MAX; i++) {
    if (matchesEventFilter(next[i]!, filter) && ++seen === limit) {
      return i + 1 < next.length ? { events: next.slice(0, i + 1), trimmed: true } : { events: next, trimmed: false };
    }
  }
  return next.length > HELD_MAX ? { events: next.slice(0, HELD_MAX), trimmed: true } : { events: next, trimmed: false };
}
