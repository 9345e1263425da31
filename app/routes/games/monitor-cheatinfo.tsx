import { env } from "cloudflare:workers";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/auth/guard";
import { createDb } from "~/.server/db/client";
import { monitorPageGame } from "~/.server/services/games";
import type { CheatInfoModel } from "~/.server/services/submissions";
import { formatDateTime } from "~/components/games/time";
import { MonitorShell } from "~/components/monitor/monitor-shell";
import { Alert } from "~/components/ui/alert";
import { api, errorMessage } from "~/lib/api";
import { useCachedList } from "~/lib/list-cache";
import { pageTitle } from "~/lib/meta";
import { ACCESS_ENDED } from "~/lib/session-end";
import { useHubSocket } from "~/lib/realtime";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/monitor-cheatinfo";

/** /games/{id}/monitor/cheatinfo (Monitor): submissions of another team's flag, updated live. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Monitor");
  const game = await monitorPageGame(createDb(env.DB), params.id);
  return { pageTitle: getInstance(context).t("monitor.cheatInfo"), ...game };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** How soon to ask again for a cheat the room announced but has not listed yet. */
const UNLISTED_RETRY_MS = 500;
const UNLISTED_RETRIES = 10;

export default function MonitorCheatInfoPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { gameId } = loaderData;
  // Refreshed every 10 s like the other lists (rules.md §15), and at once when the monitor stream announces a
  // cheat or reconnects. Not kept in the browser cache: the rows hold other teams' flags.
  const { data: rows, error, refresh } = useCachedList<CheatInfoModel[] | null>(`monitor-cheatinfo:${gameId}`, (signal) => api<CheatInfoModel[]>(`/api/game/${gameId}/cheatinfo`, { signal }), {
    initial: null,
    stale: true,
    persist: false,
    // The role taken away or the game deleted ends the page: other teams' flags do not stay on it.
    endsOn: ACCESS_ENDED,
  });
  // The room pushes a verdict as it judges it and stores the cheat record with its next write batch, so a
  // refresh right after the push may miss it: ask again until the announced submission is listed.
  const unlisted = useRef(new Map<number, number>());
  useHubSocket(`/hub/game/${gameId}/monitor`, {
    onResync: () => void refresh(),
    onMessage: (m) => {
      const cheat = (m.type === "event" && m.data.type === "CheatDetected") || (m.type === "submission" && m.data.status === "CheatDetected");
      if (!cheat) return;
      if (m.type === "submission") unlisted.current.set(m.data.id, 0);
      void refresh();
    },
  });
  useEffect(() => {
    if (!rows) return;
    const waiting = unlisted.current;
    for (const r of rows) waiting.delete(r.submission.id);
    for (const [id, tries] of waiting) if (tries >= UNLISTED_RETRIES) waiting.delete(id);
    if (waiting.size === 0) return;
    const timer = window.setTimeout(() => {
      for (const [id, tries] of waiting) waiting.set(id, tries + 1);
      void refresh();
    }, UNLISTED_RETRY_MS);
    return () => window.clearTimeout(timer);
  }, [rows, refresh]);
  return (
    <MonitorShell gameId={gameId} sheets={loaderData.sheets} live>
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {rows && rows.length === 0 ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("monitor.empty")}</p> : null}
      {rows && rows.length > 0 ? (
        <table className="min-w-full text-sm" data-testid="monitor-cheatinfo">
          <thead>
            <tr className="border-b border-zinc-200 text-left dark:border-zinc-800">
              <th className="px-2 py-1">{t("monitor.time")}</th>
              <th className="px-2 py-1">{t("monitor.submitTeam")}</th>
              <th className="px-2 py-1">{t("monitor.user")}</th>
              <th className="px-2 py-1">{t("monitor.ownedTeam")}</th>
              <th className="px-2 py-1">{t("monitor.challenge")}</th>
              <th className="px-2 py-1">{t("monitor.answer")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.submission.id} className="border-b border-zinc-100 dark:border-zinc-900">
                <td className="px-2 py-1 tabular-nums">{formatDateTime(r.submission.time)}</td>
                <td className="px-2 py-1">{r.submitTeam.team.name}</td>
                <td className="px-2 py-1">{r.submission.user || t("monitor.deletedUser")}</td>
                <td className="px-2 py-1">{r.ownedTeam.team.name}</td>
                <td className="px-2 py-1">{r.submission.challenge}</td>
                <td className="px-2 py-1 font-mono break-all">{r.submission.answer}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </MonitorShell>
  );
}
