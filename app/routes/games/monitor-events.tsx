import { env } from "cloudflare:workers";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/auth/guard";
import { createDb } from "~/.server/db/client";
import { monitorPageGame } from "~/.server/services/games";
import { gameTeamOptions } from "~/.server/services/submissions";
import { formatDateTime } from "~/components/games/time";
import {
  appendOlderEvents,
  type EventAddressFilter,
  eventFilterChanges,
  eventFilterFrom,
  eventTypeOptions,
  isContainerEvent,
  matchesEventFilter,
  prependLiveEvent,
} from "~/components/monitor/event-list";
import { MonitorShell, useEventText } from "~/components/monitor/monitor-shell";
import { TeamFilter } from "~/components/monitor/team-filter";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { selectClass } from "~/components/ui/select";
import type { EventType } from "~/core/enums";
import type { GameEvent } from "~/core/protocol";
import { useAddressFilter } from "~/lib/address-filter";
import { api, errorMessage } from "~/lib/api";
import { ACCESS_ENDED, useSessionEnd } from "~/lib/session-end";
import { pageTitle } from "~/lib/meta";
import { useHubSocket } from "~/lib/realtime";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/monitor-events";

/**
 * /games/{id}/monitor/events (Monitor): live game events, newest first, paged back with "Load more". Container
 * events and other teams' (the team filter) are left out by the server; the type filter runs here and reads
 * older pages until it has rows. The filter lives in the address (`?type=&team=&containers=shown`).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Monitor");
  const db = createDb(env.DB);
  const { gameId, sheets } = await monitorPageGame(db, params.id);
  const teams = await gameTeamOptions(db, gameId);
  return { pageTitle: getInstance(context).t("monitor.events"), gameId, teams, sheets };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** The API's largest page (api.md §10). */
const PAGE = 100;
/** Matching events one round of loading (the first, or a "Load more") adds to those shown. */
const ROUND_ROWS = 100;
/** Pages one round reads at most: a rare type is searched in steps the monitor asks for, not all at once. */
const ROUND_PAGES = 10;

export default function MonitorEventsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const text = useEventText();
  const { gameId } = loaderData;
  const [events, setEventsState] = useState<GameEvent[]>([]);
  // The filter lives in the address (a reload or a copied link keeps it) without running the loader again;
  // a team that did not join the game is all teams.
  const [params, setParams] = useAddressFilter();
  const search = params.toString();
  const filter = useMemo(() => eventFilterFrom(new URLSearchParams(search)), [search]);
  const { hideContainer, type } = filter;
  const teamId = loaderData.teams.some((team) => team.id === filter.team) ? filter.team : null;
  const setFilter = (next: Partial<EventAddressFilter>) => setParams(eventFilterChanges(filter, next));
  const [end, setEnd] = useState(false);
  // Matching events shown (newest first): live events push older ones below it, so the page stays short
  // however long it is open; "Load more" shows the next ROUND_ROWS, reading older pages when needed.
  const [limit, setLimitState] = useState(ROUND_ROWS);
  const limitRef = useRef(ROUND_ROWS);
  // Loading from the start: the server's HTML and the first moments in the browser have read nothing, and
  // said "No records yet" over a game full of events.
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  // A refusal (the role taken away, the game deleted) ends the page: no rows read before stay.
  const pageEnded = useSessionEnd(ACCESS_ENDED);
  // Newest first, exactly the rows the server lists for `hideContainer` (plus live ones), so the next page
  // starts at `held.current.length`. Mirrored in a ref for the paging loop and the socket.
  const held = useRef<GameEvent[]>([]);
  const atEnd = useRef(false);
  // A newer round (reload, other filter, unmount) makes an older one stop.
  const round = useRef(0);
  const setEvents = useCallback((next: GameEvent[]) => {
    held.current = next;
    setEventsState(next);
  }, []);

  /** Reads older pages until `goal` events match the filter, the end is reached or the round's pages are used. */
  const fill = useCallback(
    async (mode: "reset" | "resync" | "filter" | "more") => {
      const id = ++round.current;
      const filter = { hideContainer, type };
      const matching = () => held.current.filter((e) => matchesEventFilter(e, filter)).length;
      if (mode === "reset" || mode === "resync") {
        setEvents([]);
        atEnd.current = false;
        setEnd(false);
      }
      // A reconnect reads again as many events as were shown ("Load more" rounds included).
      const goal = mode === "more" ? limitRef.current + ROUND_ROWS : mode === "resync" ? limitRef.current : ROUND_ROWS;
      limitRef.current = goal;
      setLimitState(goal);
      setLoading(true);
      setError(null);
      try {
        for (let pages = 0; pages < ROUND_PAGES && !atEnd.current && matching() < goal; pages++) {
          const team = teamId === null ? "" : `&teamId=${teamId}`;
          const page = await api<GameEvent[]>(`/api/game/${gameId}/events?count=${PAGE}&skip=${held.current.length}&hideContainer=${hideContainer}${team}`);
          if (id !== round.current) return;
          setEvents(appendOlderEvents(held.current, page));
          if (page.length < PAGE) {
            atEnd.current = true;
            setEnd(true);
          }
        }
      } catch (err) {
        if (id === round.current && !pageEnded(err)) setError(errorMessage(err));
      } finally {
        if (id === round.current) setLoading(false);
      }
    },
    [gameId, hideContainer, teamId, type, setEvents, pageEnded],
  );

  // A new game, container setting or team changes the server's list: start over. A new type searches what is held first.
  const query = `${gameId}:${hideContainer}:${teamId}`;
  const loadedQuery = useRef<string | null>(null);
  useEffect(() => {
    const reset = loadedQuery.current !== query;
    loadedQuery.current = query;
    void fill(reset ? "reset" : "filter");
  }, [query, fill]);
  useEffect(
    () => () => {
      round.current++;
    },
    [],
  );

  useHubSocket(`/hub/game/${gameId}/monitor`, {
    onResync: () => void fill("resync"),
    onMessage: (m) => {
      if (m.type !== "event" || (hideContainer && isContainerEvent(m.data.type)) || (teamId !== null && m.data.teamId !== teamId)) return;
      const { events: next, trimmed } = prependLiveEvent(held.current, m.data, { hideContainer, type }, limitRef.current);
      setEvents(next);
      if (trimmed) {
        atEnd.current = false;
        setEnd(false);
      }
    },
  });
  const matched = events.filter((e) => matchesEventFilter(e, { hideContainer, type }));
  const shown = matched.slice(0, limit);
  return (
    <MonitorShell gameId={gameId} sheets={loaderData.sheets} live>
      <div className="mb-3 flex flex-wrap items-center gap-4 text-sm">
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={hideContainer}
            onChange={(e) => setFilter({ hideContainer: e.target.checked })}
          />
          {t("monitor.hideContainer")}
        </label>
        <select aria-label={t("monitor.typeLabel")} className={selectClass} value={type} onChange={(e) => setFilter({ type: e.target.value as EventType | "" })}>
          <option value="">{t("monitor.allTypes")}</option>
          {eventTypeOptions(hideContainer).map((x) => (
            <option key={x} value={x}>
              {t(`monitor.eventType.${x}`)}
            </option>
          ))}
        </select>
        <TeamFilter teams={loaderData.teams} value={teamId} onChange={(team) => setFilter({ team })} />
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {shown.length === 0 ? (
        <p role={loading ? "status" : undefined} className="text-sm text-zinc-600 dark:text-zinc-400">
          {loading ? t("common.loading") : t("monitor.empty")}
        </p>
      ) : null}
      <ul className="space-y-1 text-sm" data-testid="monitor-events" aria-busy={loading}>
        {shown.map((e, i) => (
          <li key={`${e.time}-${i}`} className="flex gap-3 border-b border-zinc-100 py-1 dark:border-zinc-900">
            <time className="shrink-0 tabular-nums text-zinc-600 dark:text-zinc-400">{formatDateTime(e.time)}</time>
            {/* A flag of 127 characters has no break point: it wraps anywhere instead of widening the page. */}
            <span className={`min-w-0 wrap-anywhere ${e.type === "CheatDetected" ? "text-red-600 dark:text-red-400" : ""}`}>{text(e)}</span>
          </li>
        ))}
      </ul>
      {end && matched.length <= limit ? null : (
        <Button variant="secondary" className="mt-3" disabled={loading} onClick={() => void fill("more")}>
          {loading ? t("common.loading") : t("monitor.loadMore")}
        </Button>
      )}
    </MonitorShell>
  );
}
