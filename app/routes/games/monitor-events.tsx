import { env } from "cloudflare:workers";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/auth/guard";
import { formatDateTime } from "~/components/games/time";
import { MonitorShell, useEventText } from "~/components/monitor/monitor-shell";
import { Alert } from "~/components/ui/alert";
import { selectClass } from "~/components/ui/select";
import { EVENT_TYPES, type EventType } from "~/core/enums";
import type { GameEvent } from "~/core/protocol";
import { api, errorMessage } from "~/lib/api";
import { pageTitle } from "~/lib/meta";
import { useHubSocket } from "~/lib/realtime";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/monitor-events";

/** /games/{id}/monitor/events (Monitor): live game events, filter by type, container events hideable. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Monitor");
  return { pageTitle: getInstance(context).t("monitor.events"), gameId: Number(params.id) };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

export default function MonitorEventsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const text = useEventText();
  const { gameId } = loaderData;
  const [events, setEvents] = useState<GameEvent[]>([]);
  const [hideContainer, setHideContainer] = useState(true);
  const [type, setType] = useState<EventType | "">("");
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    api<GameEvent[]>(`/api/game/${gameId}/events?count=100&hideContainer=${hideContainer}`)
      .then((list) => {
        setEvents(list);
        setError(null);
      })
      .catch((err: unknown) => setError(errorMessage(err)));
  }, [gameId, hideContainer]);
  useEffect(load, [load]);
  useHubSocket(`/hub/game/${gameId}/monitor`, {
    onResync: load,
    onMessage: (m) => {
      if (m.type === "event") setEvents((prev) => [m.data, ...prev].slice(0, 500));
    },
  });
  const shown = events.filter((e) => (!hideContainer || (e.type !== "ContainerStart" && e.type !== "ContainerDestroy")) && (type === "" || e.type === type));
  return (
    <MonitorShell gameId={gameId}>
      <div className="mb-3 flex flex-wrap items-center gap-4 text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={hideContainer} onChange={(e) => setHideContainer(e.target.checked)} />
          {t("monitor.hideContainer")}
        </label>
        <select aria-label={t("monitor.allTypes")} className={selectClass} value={type} onChange={(e) => setType(e.target.value as EventType | "")}>
          <option value="">{t("monitor.allTypes")}</option>
          {EVENT_TYPES.map((x) => (
            <option key={x} value={x}>
              {t(`monitor.eventType.${x}`)}
            </option>
          ))}
        </select>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {shown.length === 0 ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("monitor.empty")}</p> : null}
      <ul className="space-y-1 text-sm" data-testid="monitor-events">
        {shown.map((e, i) => (
          <li key={`${e.time}-${i}`} className="flex gap-3 border-b border-zinc-100 py-1 dark:border-zinc-900">
            <time className="shrink-0 tabular-nums text-zinc-600 dark:text-zinc-400">{formatDateTime(e.time)}</time>
            <span className={e.type === "CheatDetected" ? "text-red-600 dark:text-red-400" : ""}>{text(e)}</span>
          </li>
        ))}
      </ul>
    </MonitorShell>
  );
}
