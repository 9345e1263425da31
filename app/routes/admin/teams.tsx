import { env } from "cloudflare:workers";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFocusAfterDialog } from "~/lib/focus-after-dialog";
import { useRevalidator, useSearchParams } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { ConfirmDialog, Dialog } from "~/components/teams/dialog";
import { LoadingStatus } from "~/components/teams/loading";
import { TeamAvatar } from "~/components/teams/team-avatar";
import { TeamForm } from "~/components/teams/team-form";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { PageLinks, PastEndNotice } from "~/components/ui/pager";
import { HintSearchForm } from "~/components/ui/search-input";
import type { ArrayResponse, TeamInfo } from "~/core/schemas/team";
import { arrayResponseOf, recordWith } from "~/core/ui/list-shape";
import { loadCached, useCachedList } from "~/lib/list-cache";
import { ACCESS_ENDED } from "~/lib/session-end";
import { api, errorMessage } from "~/lib/api";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/teams";

const PAGE_SIZE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  return { pageTitle: getInstance(context).t("adminTeams.title") };
}

/** A page of the list (cached in the browser, rules.md §15) or a search (not cached). */
const listKey = (hint: string, page: number) => (hint ? "admin-teams:search" : `admin-teams:${page}`);
/** What the page reads of a list: anything else is neither cached nor shown. */
const LIST_SHAPE = arrayResponseOf(recordWith<TeamInfo>({ id: "number", name: "string", locked: "boolean", members: "array" }));
const fetchList = (hint: string, page: number, signal?: AbortSignal) =>
  hint
    ? api<ArrayResponse<TeamInfo>>(`/api/admin/teams/search?hint=${encodeURIComponent(hint)}`, { method: "POST", signal })
    : api<ArrayResponse<TeamInfo>>(`/api/admin/teams?count=${PAGE_SIZE}&skip=${(page - 1) * PAGE_SIZE}`, { signal });

export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  const url = new URL(request.url);
  const hint = (url.searchParams.get("hint") ?? "").trim();
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const [server, loaded] = await Promise.all([
    serverLoader(),
    hint
      ? fetchList(hint, page, request.signal).then((data) => ({ data, fromCache: false }))
      : loadCached(listKey(hint, page), () => fetchList(hint, page, request.signal), LIST_SHAPE),
  ]);
  return { ...server, result: loaded.data, fromCache: loaded.fromCache, hint, page };
}
clientLoader.hydrate = true as const;

// No HydrateFallback: the page's title is in the server's HTML (DECISIONS.md, "Server-side titles").
export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

const HEADING_ID = "admin-teams-heading";

/** The page heading, shared by the loading state and the page. */
function PageFrame({ summary, tools, children }: { summary?: ReactNode; tools?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id={HEADING_ID} tabIndex={-1} className="text-2xl font-semibold tracking-tight focus:outline-none">
            {t("adminTeams.title")}
          </h1>
          {summary ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{summary}</p> : null}
        </div>
        {tools}
      </div>
      {children}
    </div>
  );
}

type Member = TeamInfo["members"][number];
type Pending = { kind: "delete" | "lock" | "unlock"; team: TeamInfo } | { kind: "kick"; team: TeamInfo; member: Member };

export default function AdminTeamsPage({ loaderData }: Route.ComponentProps) {
  // Server-rendered data carries no API data; the browser loader fills it in.
  if (!("result" in loaderData)) {
    return (
      <PageFrame>
        <LoadingStatus />
      </PageFrame>
    );
  }
  return <AdminTeamsPageView loaderData={loaderData} />;
}

function AdminTeamsPageView({ loaderData }: { loaderData: Awaited<ReturnType<typeof clientLoader>> }) {
  const { t } = useTranslation();
  const { revalidate } = useRevalidator();
  const [searchParams] = useSearchParams();
  const { hint, page } = loaderData;
  const { data: result } = useCachedList(listKey(hint, page), (signal) => fetchList(hint, page, signal), {
    initial: loaderData.result,
    stale: loaderData.fromCache,
    persist: !hint,
    shape: LIST_SHAPE,
    endsOn: ACCESS_ENDED,
  });
  const [editing, setEditing] = useState<TeamInfo | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  // A confirmed delete takes the row, and the button that opened the dialog, away.
  const focusHeadingAfter = useFocusAfterDialog(pending !== null, HEADING_ID);

  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));

  const pageLink = (n: number) => {
    const next = new URLSearchParams(searchParams);
    next.set("page", String(n));
    return `?${next.toString()}`;
  };

  async function confirm() {
    if (!pending) return;
    setBusy(true);
    setError(null);
    try {
      if (pending.kind === "delete") {
        await api(`/api/admin/teams/${pending.team.id}`, { method: "DELETE" });
        focusHeadingAfter();
      } else if (pending.kind === "kick") {
        await api(`/api/admin/teams/${pending.team.id}/kick/${encodeURIComponent(pending.member.id)}`, { method: "POST" });
        // The member's button goes with them.
        focusHeadingAfter();
      } else await api(`/api/admin/teams/${pending.team.id}`, { method: "PUT", body: { locked: pending.kind === "lock" } });
      setPending(null);
      void revalidate();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const confirmText = !pending
    ? null
    : pending.kind === "kick"
      ? {
          title: t("adminTeams.removeMemberTitle"),
          message: t("adminTeams.removeMemberConfirm", { user: pending.member.userName, team: pending.team.name }),
          confirm: t("adminTeams.removeMember"),
        }
      : {
        delete: { title: t("adminTeams.deleteTitle"), message: t("adminTeams.deleteConfirm", { team: pending.team.name }), confirm: t("adminTeams.delete") },
        lock: { title: t("adminTeams.lockTitle"), message: t("adminTeams.lockConfirm", { team: pending.team.name }), confirm: t("adminTeams.lock") },
        unlock: { title: t("adminTeams.unlockTitle"), message: t("adminTeams.unlockConfirm", { team: pending.team.name }), confirm: t("adminTeams.unlock") },
      }[pending.kind];

  return (
    <PageFrame
      summary={t("adminTeams.total", { count: result.total })}
      tools={
        <HintSearchForm label={t("adminTeams.search")} hint={t("adminTeams.searchHint")} defaultValue={hint} />
      }
    >

      {result.data.length === 0 && !hint && result.total > 0 ? (
        <PastEndNotice page={page} pages={pages} lastPageHref={pageLink(pages)} />
      ) : result.data.length === 0 ? (
        <Card className="text-center">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{hint ? t("adminTeams.noMatch", { hint }) : t("adminTeams.empty")}</p>
        </Card>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
          <table className="w-full text-left text-sm">
            <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
              <tr>
                <th scope="col" className="px-4 py-3">{t("adminTeams.team")}</th>
                <th scope="col" className="px-4 py-3">{t("adminTeams.captain")}</th>
                <th scope="col" className="px-4 py-3">{t("adminTeams.membersCol")}</th>
                <th scope="col" className="px-4 py-3">{t("adminTeams.status")}</th>
                <th scope="col" className="px-4 py-3 text-end">{t("adminTeams.actions")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {result.data.map((team) => (
                <tr key={team.id} data-testid={`admin-team-${team.id}`}>
                  <td className="px-4 py-3">
                    <div className="flex items-center gap-3">
                      <TeamAvatar name={team.name} avatar={team.avatar} size="sm" />
                      <div className="min-w-0">
                        <p className="font-medium wrap-anywhere">
                          {team.name} <span className="text-xs text-zinc-600 dark:text-zinc-400">#{team.id}</span>
                        </p>
                        <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">{team.bio}</p>
                      </div>
                    </div>
                  </td>
                  <td className="px-4 py-3">{team.members.find((m) => m.captain)?.userName ?? "—"}</td>
                  <td className="px-4 py-3">
                    {team.members.length}
                    {team.members.length > 0 ? (
                      <ul className="max-w-72 space-y-0.5 text-xs text-zinc-600 dark:text-zinc-400">
                        {team.members.map((m) => (
                          <li key={m.id} className="flex items-center justify-between gap-2" data-testid={`admin-team-member-${m.id}`}>
                            <span className="wrap-anywhere">{m.userName}</span>
                            {m.captain ? null : (
                              <Button
                                variant="ghost"
                                className="shrink-0 px-1.5 py-0.5 text-xs text-red-700 dark:text-red-400"
                                aria-label={t("adminTeams.removeMemberNamed", { user: m.userName, team: team.name })}
                                onClick={() => {
                                  setError(null);
                                  setPending({ kind: "kick", team, member: m });
                                }}
                              >
                                {t("adminTeams.removeMember")}
                              </Button>
                            )}
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </td>
                  <td className="px-4 py-3">{team.locked ? t("adminTeams.locked") : t("adminTeams.unlocked")}</td>
                  <td className="px-4 py-3">
                    <div className="flex justify-end gap-1">
                      <Button variant="ghost" className="px-2 py-1" aria-label={t("adminTeams.editNamed", { team: team.name })} onClick={() => setEditing(team)}>
                        {t("adminTeams.edit")}
                      </Button>
                      <Button
                        variant="ghost"
                        className="px-2 py-1"
                        aria-label={t(team.locked ? "adminTeams.unlockNamed" : "adminTeams.lockNamed", { team: team.name })}
                        onClick={() => {
                          setError(null);
                          setPending({ kind: team.locked ? "unlock" : "lock", team });
                        }}
                      >
                        {team.locked ? t("adminTeams.unlock") : t("adminTeams.lock")}
                      </Button>
                      <Button
                        variant="ghost"
                        className="px-2 py-1 text-red-700 dark:text-red-400"
                        aria-label={t("adminTeams.deleteNamed", { team: team.name })}
                        onClick={() => {
                          setError(null);
                          setPending({ kind: "delete", team });
                        }}
                      >
                        {t("adminTeams.delete")}
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {hint ? (
        result.total > result.length ? <Alert>{t("adminTeams.searchLimited", { count: result.length })}</Alert> : null
      ) : (
        <PageLinks page={page} pages={pages} label={t("adminTeams.pagination")} href={pageLink} />
      )}

      <Dialog open={editing !== null} title={t("adminTeams.editTitle")} onClose={() => setEditing(null)}>
        {editing ? (
          <TeamForm
            initial={{ name: editing.name, bio: editing.bio }}
            submitLabel={t("teams.save")}
            onCancel={() => setEditing(null)}
            onSubmit={async (values) => {
              await api(`/api/admin/teams/${editing.id}`, { method: "PUT", body: values });
              setEditing(null);
              void revalidate();
            }}
          />
        ) : null}
      </Dialog>

      <ConfirmDialog
        open={pending !== null}
        title={confirmText?.title ?? ""}
        message={confirmText?.message ?? ""}
        confirmLabel={confirmText?.confirm ?? ""}
        busy={busy}
        error={error}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      />
    </PageFrame>
  );
}
