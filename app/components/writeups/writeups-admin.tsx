import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { formatDateTime } from "~/components/games/time";
import { ConfirmDialog } from "~/components/teams/dialog";
import { TeamAvatar } from "~/components/teams/team-avatar";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Pager } from "~/components/ui/pager";
import { SearchInput } from "~/components/ui/search-input";
import { selectClass } from "~/components/ui/select";
import { matchesQuery, pageOf } from "~/core/ui/list-page";
import { useAddressFilter } from "~/lib/address-filter";
import { api, errorMessage } from "~/lib/api";
import { formatFileSize } from "./format";

interface WriteupTeam {
  id: number;
  name: string;
  bio: string;
  avatar: string | null;
  locked: boolean;
}

/** GET /api/admin/writeups/{gameId} (app/.server/services/writeups.ts AdminWriteupList). */
export interface AdminWriteupList {
  divisions: Record<string, string>;
  writeups: { id: number; team: WriteupTeam; url: string; uploadTimeUtc: number; divisionId: number | null; fileName: string; fileSize: number }[];
  unsubmitted: { id: number; team: WriteupTeam; divisionId: number | null }[];
}

type Row =
  | { kind: "submitted"; id: number; team: WriteupTeam; divisionId: number | null; url: string; uploadTimeUtc: number; fileName: string; fileSize: number }
  | { kind: "missing"; id: number; team: WriteupTeam; divisionId: number | null };

const SHOWN = ["all", "submitted", "missing"] as const;
type Shown = (typeof SHOWN)[number];

/**
 * The admin table of writeups: with and without (filtered by that and by a team's name or id, 50 rows a
 * page, all kept in the address), a PDF viewer in the page, downloads and deleting all.
 */
export function WriteupsAdmin({ gameId, list }: { gameId: number; list: AdminWriteupList }) {
  const { t } = useTranslation();
  const { revalidate } = useRevalidator();
  const [viewing, setViewing] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const [params, setFilter] = useAddressFilter();
  const shown: Shown = SHOWN.find((s) => s === params.get("show")) ?? "all";
  const query = params.get("q") ?? "";
  const viewer = useRef<HTMLElement>(null);

  const rows: Row[] = [
    ...list.writeups.map((w) => ({ kind: "submitted" as const, ...w })),
    ...list.unsubmitted.map((u) => ({ kind: "missing" as const, ...u })),
  ];
  const view = pageOf(
    rows.filter((row) => (shown === "all" || row.kind === shown) && matchesQuery(query, row.team.id, [row.team.name])),
    Number(params.get("page") ?? 1),
  );
  const viewed = list.writeups.find((w) => w.id === viewing) ?? null;

  // The viewer sits under the table: bring it into sight when a writeup is opened.
  useEffect(() => {
    if (viewing !== null) viewer.current?.scrollIntoView({ block: "start" });
  }, [viewing]);
  const divisionName = (id: number | null) => (id === null ? "—" : (list.divisions[String(id)] ?? "—"));

  async function deleteAll() {
    setBusy(true);
    setError(null);
    try {
      const result = await api<{ title: string }>(`/api/edit/games/${gameId}/writeups`, { method: "DELETE" });
      setConfirming(false);
      setViewing(null);
      setMessage(result.title);
      void revalidate();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="writeup-counts">
          {t("writeups.admin.counts", { submitted: list.writeups.length, total: rows.length })}
        </p>
        <div className="flex flex-wrap gap-2">
          {list.writeups.length > 0 ? (
            <a className={buttonClass("secondary")} href={`/api/admin/writeups/${gameId}/all`} download>
              {t("writeups.admin.downloadAll")}
            </a>
          ) : null}
          <Button
            variant="danger"
            disabled={list.writeups.length === 0}
            onClick={() => {
              setMessage(null);
              setError(null);
              setConfirming(true);
            }}
          >
            {t("writeups.admin.deleteAll")}
          </Button>
        </div>
      </div>

      {message ? <Alert tone="success">{message}</Alert> : null}

      {rows.length > 0 ? (
        <div role="search" className="flex flex-wrap items-center gap-2">
          <select aria-label={t("writeups.admin.filter")} className={selectClass} value={shown} onChange={(e) => setFilter({ show: e.target.value === "all" ? "" : e.target.value })}>
            <option value="all">{t("writeups.admin.filterAll", { count: rows.length })}</option>
            <option value="submitted">{t("writeups.admin.filterSubmitted", { count: list.writeups.length })}</option>
            <option value="missing">{t("writeups.admin.filterMissing", { count: list.unsubmitted.length })}</option>
          </select>
          <SearchInput value={query} aria-label={t("writeups.admin.search")} placeholder={t("writeups.admin.searchPlaceholder")} onChange={(e) => setFilter({ q: e.target.value })} />
        </div>
      ) : null}

      {rows.length === 0 ? (
        <Card className="text-center">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("writeups.admin.empty")}</p>
        </Card>
      ) : view.total === 0 ? (
        <Card className="text-center">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("writeups.admin.noMatch")}</p>
        </Card>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
          <table className="w-full text-left text-sm">
            <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
              <tr>
                <th scope="col" className="px-4 py-3">{t("writeups.admin.team")}</th>
                <th scope="col" className="px-4 py-3">{t("writeups.admin.division")}</th>
                <th scope="col" className="px-4 py-3">{t("writeups.admin.time")}</th>
                <th scope="col" className="px-4 py-3">{t("writeups.admin.size")}</th>
                <th scope="col" className="px-4 py-3 text-end">{t("adminGames.actions")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {view.rows.map((row) => (
                <tr key={row.id} data-testid={`writeup-row-${row.team.id}`} className={viewing === row.id ? "bg-primary-50 dark:bg-primary-950/40" : undefined}>
                  <td className="px-4 py-3">
                    <div className="flex items-center gap-3">
                      <TeamAvatar name={row.team.name} avatar={row.team.avatar} size="sm" />
                      <p className="min-w-0 font-medium wrap-anywhere">
                        {row.team.name} <span className="text-xs text-zinc-600 dark:text-zinc-400">#{row.team.id}</span>
                      </p>
                    </div>
                  </td>
                  <td className="px-4 py-3">{divisionName(row.divisionId)}</td>
                  {row.kind === "submitted" ? (
                    <>
                      <td className="px-4 py-3 tabular-nums">{formatDateTime(row.uploadTimeUtc)}</td>
                      <td className="px-4 py-3 tabular-nums">{formatFileSize(row.fileSize)}</td>
                      <td className="px-4 py-3">
                        <div className="flex justify-end gap-1">
                          <Button variant="secondary" className="px-2 py-1" aria-pressed={viewing === row.id} onClick={() => setViewing(viewing === row.id ? null : row.id)}>
                            {viewing === row.id ? t("writeups.admin.hide") : t("writeups.admin.view")}
                          </Button>
                          <a className={buttonClass("secondary", "px-2 py-1")} href={row.url} download={row.fileName} aria-label={t("writeups.admin.downloadOne", { team: row.team.name })}>
                            {t("writeups.admin.download")}
                          </a>
                        </div>
                      </td>
                    </>
                  ) : (
                    <td className="px-4 py-3 text-zinc-600 dark:text-zinc-400" colSpan={3}>
                      {t("writeups.notSubmitted")}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <Pager page={view.page} pages={view.pages} label={t("writeups.admin.pages")} onPage={(page) => setFilter({ page: String(page) })} />

      {viewed ? (
        <Card ref={viewer} className="scroll-mt-4 space-y-3 p-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="font-medium wrap-anywhere">{t("writeups.admin.viewing", { team: viewed.team.name, file: viewed.fileName })}</h3>
            <div className="flex gap-2">
              <a className={buttonClass("ghost", "px-2 py-1")} href={viewed.url} target="_blank" rel="noreferrer">
                {t("writeups.admin.openTab")}
              </a>
              <Button variant="ghost" className="px-2 py-1" onClick={() => setViewing(null)}>
                {t("writeups.admin.close")}
              </Button>
            </div>
          </div>
          <iframe
            key={viewed.url}
            src={viewed.url}
            title={t("writeups.admin.viewerTitle", { team: viewed.team.name })}
            className="h-[75vh] w-full rounded-md border border-zinc-200 bg-white dark:border-zinc-800"
          />
        </Card>
      ) : null}

      <ConfirmDialog
        open={confirming}
        title={t("writeups.admin.deleteAllTitle")}
        message={t("writeups.admin.deleteAllConfirm", { count: list.writeups.length })}
        confirmLabel={t("writeups.admin.deleteAll")}
        busy={busy}
        error={error}
        onConfirm={() => void deleteAll()}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
