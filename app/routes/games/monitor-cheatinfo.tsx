import { env } from "cloudflare:workers";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/auth/guard";
import type { CheatInfoModel } from "~/.server/services/submissions";
import { formatDateTime } from "~/components/games/time";
import { MonitorShell } from "~/components/monitor/monitor-shell";
import { Alert } from "~/components/ui/alert";
import { api, errorMessage } from "~/lib/api";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/monitor-cheatinfo";

/** /games/{id}/monitor/cheatinfo (Monitor): submissions of another team's flag. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Monitor");
  return { pageTitle: getInstance(context).t("monitor.cheatInfo"), gameId: Number(params.id) };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

export default function MonitorCheatInfoPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { gameId } = loaderData;
  const [rows, setRows] = useState<CheatInfoModel[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<CheatInfoModel[]>(`/api/game/${gameId}/cheatinfo`)
      .then(setRows)
      .catch((err: unknown) => setError(errorMessage(err)));
  }, [gameId]);
  return (
    <MonitorShell gameId={gameId}>
      {error ? <Alert tone="error">{error}</Alert> : null}
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
                <td className="px-2 py-1">{r.submission.user}</td>
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
