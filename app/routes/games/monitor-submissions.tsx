import { env } from "cloudflare:workers";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/auth/guard";
import { createDb } from "~/.server/db/client";
import { monitorPageGame } from "~/.server/services/games";
import { gameChallengeOptions, gameTeamOptions } from "~/.server/services/submissions";
import { formatDateTime } from "~/components/games/time";
import { MonitorShell } from "~/components/monitor/monitor-shell";
import { TeamFilter } from "~/components/monitor/team-filter";
import { keepNewest, pushSubmission, type SubmissionFilter, submissionFilterFrom, submissionsQuery } from "~/components/monitor/submission-filter";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { selectClass } from "~/components/ui/select";
import { ANSWER_RESULTS, type AnswerResult } from "~/core/enums";
import type { SubmissionRecord } from "~/core/protocol";
import { PushesDuringRead } from "~/core/ui/pushes-during-read";
import { useAddressFilter } from "~/lib/address-filter";
import { api, errorMessage } from "~/lib/api";
import { ACCESS_ENDED, useSessionEnd } from "~/lib/session-end";
import { pageTitle } from "~/lib/meta";
import { useHubSocket } from "~/lib/realtime";
import { useOneAtATime } from "~/lib/one-at-a-time";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/monitor-submissions";

/**
 * /games/{id}/monitor/submissions (Monitor): live submissions with true statuses, filtered by status,
 * challenge and team (a big game takes thousands a minute); the filter lives in the address.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Monitor");
  const db = createDb(env.DB);
  const { gameId, sheets } = await monitorPageGame(db, params.id);
  const [challenges, teams] = await Promise.all([gameChallengeOptions(db, gameId), gameTeamOptions(db, gameId)]);
  return { pageTitle: getInstance(context).t("monitor.submissions"), gameId, challenges, teams, sheets };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

const PAGE = 100;

export default function MonitorSubmissionsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { gameId } = loaderData;
  const [rows, setRows] = useState<SubmissionRecord[]>([]);
  // The filter lives in the address (a reload or a copied link keeps it) without running the loader again.
  const [params, setParams] = useAddressFilter();
  const search = params.toString();
  const filter = useMemo(() => submissionFilterFrom(new URLSearchParams(search)), [search]);
  const setFilter = (next: Partial<SubmissionFilter>) => setParams(Object.fromEntries(Object.entries(next).map(([key, value]) => [key, value === null ? "" : String(value)])));
  const [more, setMore] = useState(false);
  // Until the first read has answered the page says it is loading, not "No records yet" (the server's HTML
  // and the first moments in the browser have read nothing).
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A refusal (the role taken away, the game deleted) ends the page: no rows read before stay.
  const pageEnded = useSessionEnd(ACCESS_ENDED);
  const query = useCallback((skip: number) => api<SubmissionRecord[]>(`/api/game/${gameId}/submissions?${submissionsQuery(filter, PAGE, skip)}`), [gameId, filter]);
  // How many rows the page holds: the pages read so far (at least one). Live rows push the oldest out
  // below it, so a page open for hours stays as long as what was read. The rows held are the newest of the
  // server's list, so the next page starts at their number; live rows on top shift the server's offsets
  // meanwhile, so a page may repeat rows already held: those are dropped by id.
  const held = useRef(PAGE);
  // The rows shown, kept in step with every change (a queued read may run before React renders).
  const shown = useRef<SubmissionRecord[]>([]);
  const show = useCallback((next: SubmissionRecord[]) => {
    shown.current = next;
    setRows(next);
  }, []);
  // Submissions pushed while the first pages are read are applied again to what they bring.
  const [reads] = useState(() => new PushesDuringRead<SubmissionRecord[]>());
  // Reads run one after another: a reconnect's read from the top never lands over the page "Load more"
  // brought meanwhile, and a page read under the last filter lands before the new filter's read replaces it.
  const oneAtATime = useOneAtATime();
  // A new filter starts over with one page; a reconnect reads again as many rows as the page holds.
  const load = useCallback(
    (again: boolean) =>
      oneAtATime(async () => {
        const round = reads.begin();
        try {
          const want = again ? held.current : PAGE;
          const list: SubmissionRecord[] = [];
          let full = true;
          while (full && list.length < want) {
            const page = await query(list.length);
            const known = new Set(list.map((r) => r.id));
            list.push(...page.filter((r) => !known.has(r.id)));
            full = page.length === PAGE;
          }
          const read = reads.settle(round, list);
          if (read === null) return;
          held.current = Math.max(PAGE, read.length);
          show(keepNewest(read, held.current));
          setMore(full);
          setError(null);
          setLoaded(true);
        } catch (err) {
          if (reads.fail(round) && !pageEnded(err)) {
            setError(errorMessage(err));
            setLoaded(true);
          }
        }
      }),
    [query, reads, pageEnded, oneAtATime, show],
  );
  useEffect(() => void load(false), [load]);
  const loadMore = () =>
    void oneAtATime(() =>
      query(shown.current.length).then(
        (list) => {
          const known = new Set(shown.current.map((r) => r.id));
          const next = [...shown.current, ...list.filter((r) => !known.has(r.id))];
          held.current = Math.max(PAGE, next.length);
          show(next);
          setMore(list.length === PAGE);
        },
        (err: unknown) => {
          if (!pageEnded(err)) setError(errorMessage(err));
        },
      ),
    );
  useHubSocket(`/hub/game/${gameId}/monitor`, {
    onResync: () => void load(true),
    onMessage: (m) => {
      if (m.type !== "submission") return;
      const change = (rows: SubmissionRecord[]) => keepNewest(pushSubmission(rows, m.data, filter), held.current);
      reads.push(change);
      // A full page lets its oldest row go: the server has it, for "Load more".
      if (shown.current.length >= held.current) setMore(true);
      show(change(shown.current));
    },
  });
  return (
    <MonitorShell gameId={gameId} sheets={loaderData.sheets} live>
      <div role="group" aria-label={t("monitor.filterSubmissions")} className="mb-3 flex flex-wrap gap-2 text-sm">
        <select aria-label={t("monitor.statusLabel")} className={selectClass} value={filter.status} onChange={(e) => setFilter({ status: e.target.value as AnswerResult | "" })}>
          <option value="">{t("monitor.allStatuses")}</option>
          {ANSWER_RESULTS.map((s) => (
            <option key={s} value={s}>
              {t(`monitor.status.${s}`)}
            </option>
          ))}
        </select>
        <select
          aria-label={t("monitor.challenge")}
          className={`${selectClass} max-w-64`}
          value={filter.challenge ?? ""}
          onChange={(e) => setFilter({ challenge: e.target.value ? Number(e.target.value) : null })}
        >
          <option value="">{t("monitor.allChallenges")}</option>
          {loaderData.challenges.map((c) => (
            <option key={c.id} value={c.id}>
              {t("monitor.challengeOption", { title: c.title, category: t(`challenge.category.${c.category}`) })}
            </option>
          ))}
        </select>
        <TeamFilter teams={loaderData.teams} value={filter.team} onChange={(team) => setFilter({ team })} />
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <table className="min-w-full text-sm" data-testid="monitor-submissions">
        <thead>
          <tr className="border-b border-zinc-200 text-left dark:border-zinc-800">
            <th className="px-2 py-1 whitespace-nowrap">{t("monitor.time")}</th>
            <th className="px-2 py-1 whitespace-nowrap">{t("monitor.team")}</th>
            <th className="px-2 py-1 whitespace-nowrap">{t("monitor.user")}</th>
            <th className="px-2 py-1 whitespace-nowrap">{t("monitor.ip")}</th>
            <th className="px-2 py-1 whitespace-nowrap">{t("monitor.challenge")}</th>
            <th className="px-2 py-1 whitespace-nowrap">{t("monitor.answer")}</th>
            <th className="px-2 py-1 whitespace-nowrap">{t("monitor.statusLabel")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} className="border-b border-zinc-100 dark:border-zinc-900">
              <td className="px-2 py-1 whitespace-nowrap tabular-nums">{formatDateTime(r.time)}</td>
              <td className="px-2 py-1 wrap-anywhere">{r.team}</td>
              <td className="px-2 py-1 wrap-anywhere">{r.user || t("monitor.deletedUser")}</td>
              <td className="px-2 py-1 font-mono whitespace-nowrap">{r.ip}</td>
              <td className="px-2 py-1 wrap-anywhere">{r.challenge}</td>
              <td className="px-2 py-1 font-mono break-all">{r.answer}</td>
              <td className="px-2 py-1 whitespace-nowrap">{t(`monitor.status.${r.status}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 ? (
        <p role={loaded ? undefined : "status"} className="text-sm text-zinc-600 dark:text-zinc-400">
          {loaded ? t("monitor.empty") : t("common.loading")}
        </p>
      ) : null}
      {more ? (
        <Button
          variant="secondary"
          className="mt-3"
          onClick={loadMore}
        >
          {t("monitor.loadMore")}
        </Button>
      ) : null}
    </MonitorShell>
  );
}
