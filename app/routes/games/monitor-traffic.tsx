import { env } from "cloudflare:workers";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/auth/guard";
import { createDb } from "~/.server/db/client";
import { monitorPageGame } from "~/.server/services/games";
import { formatBytes } from "~/components/challenges/challenge-view";
import { formatDateTime } from "~/components/games/time";
import { MonitorShell } from "~/components/monitor/monitor-shell";
import { ConfirmDialog } from "~/components/teams/dialog";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClass } from "~/components/ui/button";
import { api, errorMessage } from "~/lib/api";
import { REFRESH_MS, useCachedList } from "~/lib/list-cache";
import { ACCESS_ENDED, ROLE_ENDED } from "~/lib/session-end";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/monitor-traffic";

interface CaptureChallenge {
  id: number;
  title: string;
  category: string;
  type: string;
  isEnabled: boolean;
  count: number;
}
interface CaptureTeam {
  id: number;
  teamId: number;
  name: string;
  division: string | null;
  avatar: string | null;
  count: number;
}
interface FileRecord {
  fileName: string;
  size: number;
  updateTime: number;
}

/** /games/{id}/monitor/traffic (Monitor): captured traffic by challenge → team → files. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Monitor");
  const game = await monitorPageGame(createDb(env.DB), params.id);
  return { pageTitle: getInstance(context).t("traffic.title"), ...game };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

const itemClass = (active: boolean) =>
  `flex w-full items-center justify-between gap-2 rounded-md px-3 py-2 text-start text-sm ${
    active ? "bg-primary-600 text-on-primary-600 dark:bg-primary-500 dark:text-on-primary-500" : "hover:bg-zinc-100 dark:hover:bg-zinc-800"
  }`;

type Pending = { kind: "one"; file: string } | { kind: "all" };

/** A list with the address it was read from, so a list of the previous selection is never shown for the next. */
type ListOf<T> = { url: string; list: T[] } | null;

/**
 * A list of the page, read at once and then every 10 s like the other monitor lists (rules.md §15), the
 * rows staying on screen meanwhile. `url` null (nothing selected): no list and no requests.
 */
function useCaptureList<T>(url: string | null, endsOn: readonly number[]) {
  const { data, error, refresh } = useCachedList<ListOf<T>>(
    `monitor-traffic:${url}`,
    async (signal) => (url ? { url, list: await api<T[]>(url, { signal }) } : null),
    { initial: null, stale: true, refreshMs: REFRESH_MS.list, persist: false, endsOn },
  );
  return { list: url !== null && data?.url === url ? data.list : null, error, refresh };
}

export default function MonitorTrafficPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { gameId } = loaderData;
  // The selection is the page's own state: refreshed lists never reset it.
  const [challengeId, setChallengeId] = useState<number | null>(null);
  const [teamId, setTeamId] = useState<number | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialogError, setDialogError] = useState<string | null>(null);

  const base = challengeId !== null && teamId !== null ? `/api/game/captures/${challengeId}/${teamId}` : null;
  // The role taken away or the game deleted ends the page (no capture list stays); a challenge deleted
  // meanwhile is only an error line.
  const challengeList = useCaptureList<CaptureChallenge>(`/api/game/games/${gameId}/captures`, ACCESS_ENDED);
  const teamList = useCaptureList<CaptureTeam>(challengeId !== null ? `/api/game/captures/${challengeId}` : null, ROLE_ENDED);
  const fileList = useCaptureList<FileRecord>(base, ROLE_ENDED);
  const challenges = challengeList.list;
  const teams = teamList.list;
  const files = fileList.list;
  const failure = challengeList.error ?? teamList.error ?? fileList.error;
  const error = failure ? errorMessage(failure) : null;

  const remove = async () => {
    if (!pending || !base) return;
    setBusy(true);
    setDialogError(null);
    try {
      await api(pending.kind === "all" ? `${base}/all` : `${base}/${pending.file}`, { method: "DELETE" });
      setPending(null);
      void fileList.refresh();
      void teamList.refresh();
      void challengeList.refresh();
    } catch (err) {
      setDialogError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <MonitorShell gameId={gameId} sheets={loaderData.sheets}>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="grid gap-4 md:grid-cols-[1fr_1fr_2fr]">
        <section aria-label={t("traffic.challenges")} className="space-y-1">
          <h2 className="text-sm font-semibold text-zinc-600 dark:text-zinc-400">{t("traffic.challenges")}</h2>
          {challenges && challenges.length === 0 ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("traffic.noChallenges")}</p> : null}
          {challenges?.map((c) => (
            <button
              key={c.id}
              type="button"
              className={itemClass(c.id === challengeId)}
              aria-pressed={c.id === challengeId}
              onClick={() => {
                setChallengeId(c.id);
                setTeamId(null);
              }}
            >
              <span className="truncate">{c.title}</span>
              <span className="text-xs">{t("traffic.fileCount", { count: c.count })}</span>
            </button>
          ))}
        </section>
        <section aria-label={t("traffic.teams")} className="space-y-1">
          <h2 className="text-sm font-semibold text-zinc-600 dark:text-zinc-400">{t("traffic.teams")}</h2>
          {challengeId === null ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("traffic.pickChallenge")}</p> : null}
          {teams && teams.length === 0 ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("traffic.noTeams")}</p> : null}
          {teams?.map((team) => (
            <button
              key={team.id}
              type="button"
              className={itemClass(team.id === teamId)}
              aria-pressed={team.id === teamId}
              onClick={() => setTeamId(team.id)}
            >
              <span className="truncate">
                {team.name}
                {team.division ? <span className="ms-1 text-xs opacity-75">({team.division})</span> : null}
              </span>
              <span className="text-xs">{t("traffic.fileCount", { count: team.count })}</span>
            </button>
          ))}
        </section>
        <section aria-label={t("traffic.files")} className="space-y-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-sm font-semibold text-zinc-600 dark:text-zinc-400">{t("traffic.files")}</h2>
            {base && files && files.length > 0 ? (
              <div className="flex gap-2">
                <a href={`${base}/all`} download className={buttonClass("secondary", "px-2 py-1")}>
                  {t("traffic.downloadAll")}
                </a>
                <Button variant="danger" className="px-2 py-1" onClick={() => setPending({ kind: "all" })}>
                  {t("traffic.deleteAll")}
                </Button>
              </div>
            ) : null}
          </div>
          {teamId === null ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("traffic.pickTeam")}</p> : null}
          {files && files.length === 0 ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("traffic.noFiles")}</p> : null}
          {files && files.length > 0 ? (
            <table className="w-full text-left text-sm">
              <thead className="text-xs text-zinc-600 uppercase dark:text-zinc-400">
                <tr>
                  <th className="px-2 py-1">{t("traffic.file")}</th>
                  <th className="px-2 py-1">{t("traffic.size")}</th>
                  <th className="px-2 py-1">{t("traffic.time")}</th>
                  <th className="px-2 py-1">
                    <span className="sr-only">{t("traffic.actions")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {files.map((f) => (
                  <tr key={f.fileName} className="border-t border-zinc-100 dark:border-zinc-900">
                    <td className="px-2 py-1 font-mono text-xs">
                      <a href={`${base}/${f.fileName}`} download={f.fileName} className="text-primary-700 hover:underline dark:text-primary-300">
                        {f.fileName}
                      </a>
                    </td>
                    <td className="px-2 py-1">{formatBytes(f.size)}</td>
                    <td className="px-2 py-1 whitespace-nowrap">{formatDateTime(f.updateTime)}</td>
                    <td className="px-2 py-1">
                      <Button variant="ghost" className="px-2 py-1" onClick={() => setPending({ kind: "one", file: f.fileName })} aria-label={t("traffic.deleteOne", { file: f.fileName })}>
                        {t("traffic.delete")}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </section>
      </div>
      <ConfirmDialog
        open={pending !== null}
        title={t("traffic.deleteTitle")}
        message={pending?.kind === "all" ? t("traffic.deleteAllConfirm") : pending ? t("traffic.deleteOneConfirm", { file: pending.file }) : ""}
        confirmLabel={t("traffic.delete")}
        busy={busy}
        error={dialogError}
        onConfirm={() => void remove()}
        onCancel={() => {
          setPending(null);
          setDialogError(null);
        }}
      />
    </MonitorShell>
  );
}
