import { env } from "cloudflare:workers";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { StatusBadge } from "~/components/games/badges";
import { ConfirmDialog } from "~/components/teams/dialog";
import { LoadingStatus } from "~/components/teams/loading";
import { TeamAvatar } from "~/components/teams/team-avatar";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { CommitSelect } from "~/components/ui/commit-select";
import { Pager } from "~/components/ui/pager";
import { SearchInput } from "~/components/ui/search-input";
import { selectClass } from "~/components/ui/select";
import { PARTICIPATION_STATUSES, type ParticipationStatus } from "~/core/enums";
import { confirmationMessage, needsConfirmation, parseReviewFilter, reviewCounts, reviewRows } from "~/core/game/review";
import type { ParticipationInfo, ReviewStatus } from "~/core/schemas/game";
import { pageOf } from "~/core/ui/list-page";
import { useAddressFilter } from "~/lib/address-filter";
import { api, ApiError, errorMessage } from "~/lib/api";
import { loadEditGame } from "~/lib/edit-game";
import { REFRESH_MS, useCachedList } from "~/lib/list-cache";
import { ACCESS_ENDED } from "~/lib/session-end";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/review";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  return { pageTitle: getInstance(context).t("adminGames.tab.review") };
}

export async function clientLoader({ request, params, serverLoader }: Route.ClientLoaderArgs) {
  const id = Number(params.id) || 0;
  const [server, participations, game] = await Promise.all([
    serverLoader(),
    api<ParticipationInfo[]>(`/api/game/${id}/participations`, { signal: request.signal, revalidate: true }),
    loadEditGame(request, id),
  ]);
  return { ...server, gameId: id, participations, divisions: game.divisions.map((d) => ({ id: d.id, name: d.name })) };
}
clientLoader.hydrate = true as const;

// No HydrateFallback: the page's title is in the server's HTML (DECISIONS.md, "Server-side titles").
export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** Accept calls in flight at once during a bulk accept (each refreshes the game's room). */
const BULK_AT_ONCE = 4;

const ACTIONS: { status: ReviewStatus; variant: "primary" | "secondary" | "danger" }[] = [
  { status: "Accepted", variant: "primary" },
  { status: "Rejected", variant: "secondary" },
  { status: "Suspended", variant: "danger" },
];

export default function AdminGameReviewPage({ loaderData }: Route.ComponentProps) {
  // Server-rendered data carries no API data; the browser loader fills it in.
  if (!("participations" in loaderData)) return <LoadingStatus />;
  return <AdminGameReviewPageView loaderData={loaderData} />;
}

function AdminGameReviewPageView({ loaderData }: { loaderData: Awaited<ReturnType<typeof clientLoader>> }) {
  const { t } = useTranslation();
  const { revalidate } = useRevalidator();
  const { gameId, divisions } = loaderData;
  // Refreshed every 10 s like the other admin tables (rules.md §15): new requests to join show up.
  const { data: participations } = useCachedList(
    `admin-review:${gameId}`,
    // Sent with the last answer's ETag: an unchanged list (every member's details) comes back as a bodiless 304.
    (signal) => api<ParticipationInfo[]>(`/api/game/${gameId}/participations`, { signal, revalidate: true }),
    { initial: loaderData.participations, refreshMs: REFRESH_MS.list, persist: false, endsOn: ACCESS_ENDED },
  );
  const [params, setFilter] = useAddressFilter();
  const filter = parseReviewFilter(params);
  const counts = reviewCounts(participations);
  const matching = reviewRows(participations, filter);
  const view = pageOf(matching, Number(params.get("page") ?? 1));
  // Every pending team the filters show, on all pages: a big game has hundreds to accept.
  const pending = matching.filter((p) => p.status === "Pending");
  // A bulk accept: asked first ("confirm"), then under way, then its result until the next one.
  const [bulk, setBulk] = useState<{ ids: number[]; phase: "confirm" | "running" | "done"; done: number; failed: string[] } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The row whose division was saved last: it says so beside its select until the next change.
  const [divisionSaved, setDivisionSaved] = useState<number | null>(null);
  // Suspending a team, or rejecting an accepted one, takes it off the board mid-game: asked first.
  const [confirming, setConfirming] = useState<{ participation: ParticipationInfo; status: ReviewStatus } | null>(null);
  // The clicked button leaves its row (the row offers the other statuses): focus stays in the row.
  // Once the row shows its new status (and the dialog is closed), its first action takes the focus.
  const focusRow = useRef<{ id: number; status: ReviewStatus } | null>(null);
  useEffect(() => {
    const target = focusRow.current;
    if (target === null || confirming !== null) return;
    if (participations.find((p) => p.id === target.id)?.status !== target.status) return;
    focusRow.current = null;
    document.querySelector<HTMLButtonElement>(`[data-review-actions="${target.id}"] button:not([disabled]):not([aria-disabled="true"])`)?.focus();
  }, [confirming, participations]);

  /**
   * `seen`: the status the row showed when the admin chose (and the dialog described). The server refuses a
   * status change when the team's status is another by now (another admin or tab decided meanwhile): nothing
   * is changed, the dialog closes and the row is read again, with the server's message above the table.
   */
  async function change(id: number, body: { status?: ReviewStatus; divisionId?: number }, seen?: ParticipationStatus) {
    setBusy(id);
    setError(null);
    setDivisionSaved(null);
    try {
      if (body.status) await api(`/api/admin/participation/${id}/${body.status}`, { method: "PUT", body: { expectedStatus: seen } });
      else await api(`/api/admin/participation/${id}`, { method: "PUT", body });
      if (body.status) focusRow.current = { id, status: body.status };
      else setDivisionSaved(id);
      void revalidate();
      return true;
    } catch (err) {
      setError(errorMessage(err));
      if (err instanceof ApiError && err.status === 409) {
        setConfirming(null);
        void revalidate();
      }
      return false;
    } finally {
      setBusy(null);
    }
  }

  /** Accepts the listed teams, a few calls at a time, counting progress; a refusal is named, the rest go on. */
  async function acceptAll(ids: number[]) {
    setBulk({ ids, phase: "running", done: 0, failed: [] });
    // Read again first: a team another admin rejected or suspended meanwhile, or that left, is not accepted
    // over their decision; it is named instead.
    let current: Map<number, ParticipationInfo>;
    try {
      current = new Map((await api<ParticipationInfo[]>(`/api/game/${gameId}/participations`)).map((p) => [p.id, p]));
    } catch (err) {
      setBulk({ ids, phase: "done", done: 0, failed: [errorMessage(err)] });
      return;
    }
    const nameOf = (id: number) => current.get(id)?.team.name ?? participations.find((p) => p.id === id)?.team.name ?? `#${id}`;
    const failed: string[] = [];
    const queue: number[] = [];
    for (const id of ids) {
      const status = current.get(id)?.status;
      if (status === "Pending") queue.push(id);
      else if (status) failed.push(t("adminGames.review.skippedStatus", { team: nameOf(id), status: t(`games.status.${status}`) }));
      else failed.push(t("adminGames.review.skippedGone", { team: nameOf(id) }));
    }
    let done = 0;
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        try {
          // Refused if its status changed after the read above.
          await api(`/api/admin/participation/${id}/Accepted`, { method: "PUT", body: { expectedStatus: "Pending" } });
          done++;
        } catch (err) {
          failed.push(t("adminGames.review.failedFor", { team: nameOf(id), message: errorMessage(err) }));
        }
        setBulk({ ids, phase: "running", done, failed: [...failed] });
      }
    };
    await Promise.all(Array.from({ length: Math.min(BULK_AT_ONCE, queue.length) }, worker));
    setBulk({ ids, phase: "done", done, failed });
    void revalidate();
  }

  const act = (participation: ParticipationInfo, status: ReviewStatus) => {
    if (needsConfirmation(participation.status, status)) setConfirming({ participation, status });
    else void change(participation.id, { status }, participation.status);
  };

  return (
    <div className="space-y-4">
      {error ? <Alert tone="error">{error}</Alert> : null}
      {participations.length > 0 ? (
        <div role="search" className="flex flex-wrap items-center gap-2">
          <select
            aria-label={t("adminGames.review.filterStatus")}
            className={selectClass}
            value={filter.status}
            onChange={(e) => setFilter({ status: e.target.value === "all" ? "" : e.target.value })}
          >
            <option value="all">{t("adminGames.review.allStatuses", { count: counts.all })}</option>
            {PARTICIPATION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t("adminGames.review.statusCount", { status: t(`games.status.${s}`), count: counts[s] })}
              </option>
            ))}
          </select>
          {divisions.length > 0 ? (
            <select
              aria-label={t("adminGames.review.filterDivision")}
              className={selectClass}
              value={String(filter.division)}
              onChange={(e) => setFilter({ division: e.target.value === "all" ? "" : e.target.value })}
            >
              <option value="all">{t("adminGames.review.allDivisions")}</option>
              <option value="none">{t("adminGames.review.noDivision")}</option>
              {divisions.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          ) : null}
          <SearchInput value={filter.query} aria-label={t("adminGames.review.search")} placeholder={t("adminGames.review.searchPlaceholder")} onChange={(e) => setFilter({ q: e.target.value })} />
          <p className="text-sm text-zinc-600 dark:text-zinc-400" role="status" data-testid="review-shown">
            {t("adminGames.review.shown", { shown: view.total, total: counts.all })}
          </p>
          {pending.length > 1 ? (
            <Button className="ms-auto" disabled={bulk?.phase === "running"} onClick={() => setBulk({ ids: pending.map((p) => p.id), phase: "confirm", done: 0, failed: [] })}>
              {t("adminGames.review.acceptAll", { count: pending.length })}
            </Button>
          ) : null}
        </div>
      ) : null}
      {bulk && bulk.phase !== "confirm" ? (
        <Alert tone={bulk.failed.length > 0 ? "error" : bulk.phase === "running" ? "info" : "success"}>
          {/* The alert is a live region itself: progress and the result are read out. */}
          <p>{bulk.phase === "running" ? t("adminGames.review.accepting", { done: bulk.done + bulk.failed.length, total: bulk.ids.length }) : t("adminGames.review.acceptedAll", { count: bulk.done })}</p>
          {bulk.failed.length > 0 ? (
            <ul className="mt-1 list-disc ps-5">
              {bulk.failed.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
      {participations.length === 0 ? (
        <Card className="text-center">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("adminGames.noParticipations")}</p>
        </Card>
      ) : view.total === 0 ? (
        <Card className="text-center">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("adminGames.review.noMatch")}</p>
        </Card>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
          <table className="w-full text-left text-sm">
            <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
              <tr>
                <th scope="col" className="px-4 py-3">{t("adminGames.review.team")}</th>
                <th scope="col" className="px-4 py-3">{t("adminGames.review.members")}</th>
                <th scope="col" className="px-4 py-3">{t("adminGames.review.division")}</th>
                <th scope="col" className="px-4 py-3">{t("adminGames.review.status")}</th>
                <th scope="col" className="px-4 py-3 text-end">{t("adminGames.actions")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {view.rows.map((p) => (
                <tr key={p.id} data-testid={`participation-${p.id}`}>
                  <td className="px-4 py-3">
                    <div className="flex items-center gap-3">
                      <TeamAvatar name={p.team.name} avatar={p.team.avatar} size="sm" />
                      <div className="min-w-0">
                        <p className="font-medium wrap-anywhere">
                          {p.team.name} <span className="text-xs text-zinc-600 dark:text-zinc-400">#{p.team.id}</span>
                        </p>
                        <p className="text-xs text-zinc-600 dark:text-zinc-400">{p.team.locked ? t("adminTeams.locked") : t("adminTeams.unlocked")}</p>
                      </div>
                    </div>
                  </td>
                  <td className="px-4 py-3">
                    <ul className="space-y-0.5">
                      {p.team.members.map((m) => (
                        <li key={m.userId} className={p.registeredMembers.includes(m.userId) ? "font-medium" : "text-zinc-600 dark:text-zinc-400"}>
                          {m.userId === p.team.captainId ? t("adminGames.review.captainName", { user: m.userName }) : m.userName}
                          {p.registeredMembers.includes(m.userId) ? "" : ` · ${t("adminGames.review.notRegistered")}`}
                        </li>
                      ))}
                      {p.formerMembers.map((m) => (
                        <li key={m.userId} className="text-zinc-600 dark:text-zinc-400">
                          {m.userName} · {t("adminGames.review.leftTeam")}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td className="px-4 py-3">
                    {divisions.length > 0 ? (
                      // Saved when chosen; the divisions the arrow keys step through, once on Enter or leaving it.
                      <div className="flex flex-wrap items-center gap-2">
                        <CommitSelect
                          aria-label={t("adminGames.review.changeDivision", { team: p.team.name })}
                          className={selectClass}
                          value={String(p.divisionId ?? "")}
                          saving={busy === p.id}
                          onCommit={(value) => (value ? change(p.id, { divisionId: Number(value) }) : Promise.resolve(false))}
                        >
                          {p.divisionId === null ? <option value="">{t("adminGames.review.noDivision")}</option> : null}
                          {divisions.map((d) => (
                            <option key={d.id} value={d.id}>
                              {d.name}
                            </option>
                          ))}
                        </CommitSelect>
                        <span role="status" className="text-xs text-emerald-800 dark:text-emerald-300">
                          {divisionSaved === p.id ? t("adminGames.review.divisionSaved") : ""}
                        </span>
                      </div>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td className="px-4 py-3">
                    <StatusBadge status={p.status} />
                  </td>
                  <td className="px-4 py-3">
                    <div className="flex justify-end gap-1" data-review-actions={p.id}>
                      {ACTIONS.filter((a) => a.status !== p.status).map((a) => (
                        <Button
                          key={a.status}
                          variant={a.variant}
                          className="px-2 py-1"
                          disabled={busy === p.id}
                          // Said with the team: a row of "Accept, Reject, Suspend" names no one to a screen reader.
                          aria-label={`${t(`adminGames.review.action.${a.status}`)} ${p.team.name}`}
                          onClick={() => act(p, a.status)}
                        >
                          {t(`adminGames.review.action.${a.status}`)}
                        </Button>
                      ))}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={view.page} pages={view.pages} label={t("adminGames.review.pages")} onPage={(page) => setFilter({ page: String(page) })} />
      <ConfirmDialog
        open={bulk?.phase === "confirm"}
        title={t("adminGames.review.acceptAllTitle", { count: bulk?.ids.length ?? 0 })}
        message={t("adminGames.review.acceptAllConfirm", { count: bulk?.ids.length ?? 0 })}
        confirmLabel={t("adminGames.review.acceptAll", { count: bulk?.ids.length ?? 0 })}
        busy={false}
        error={null}
        onConfirm={() => {
          if (bulk) void acceptAll(bulk.ids);
        }}
        onCancel={() => setBulk(null)}
      />
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? t(`adminGames.review.confirm.${confirming.status === "Suspended" ? "suspendTitle" : "rejectTitle"}`, { team: confirming.participation.team.name }) : ""}
        message={confirming ? t(`adminGames.review.confirm.${confirmationMessage(confirming.participation.status, confirming.status)}`) : ""}
        confirmLabel={confirming ? t(`adminGames.review.action.${confirming.status}`) : ""}
        busy={confirming !== null && busy === confirming.participation.id}
        error={error}
        onConfirm={() => {
          if (!confirming) return;
          void change(confirming.participation.id, { status: confirming.status }, confirming.participation.status).then((done) => done && setConfirming(null));
        }}
        onCancel={() => {
          // Closed by the page after a refusal (its message stays on the page), not cancelled by the admin.
          if (confirming === null) return;
          setConfirming(null);
          setError(null);
        }}
      />
    </div>
  );
}
