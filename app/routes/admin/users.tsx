import { env } from "cloudflare:workers";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFocusAfterDialog } from "~/lib/focus-after-dialog";
import { useRevalidator, useSearchParams } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { BatchCreateForm, UserEditForm } from "~/components/admin/user-forms";
import { type AdminUserInfo, formatDateTime } from "~/components/admin/user-types";
import { ConfirmDialog, Dialog } from "~/components/teams/dialog";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { CopyButton } from "~/components/ui/copy-button";
import { Card } from "~/components/ui/card";
import { HintSearchForm } from "~/components/ui/search-input";
import { PageLinks, PastEndNotice } from "~/components/ui/pager";
import type { ArrayResponse } from "~/core/schemas/team";
import { initialOf } from "~/core/text-length";
import { banToggleBody } from "~/core/ui/dialog-edits";
import { arrayResponseOf, recordWith } from "~/core/ui/list-shape";
import { loadCached, useCachedList } from "~/lib/list-cache";
import { ACCESS_ENDED } from "~/lib/session-end";
import { api, ApiError, errorMessage } from "~/lib/api";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/users";
import { AddressText } from "~/components/ui/address-text";

const PAGE_SIZE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, env, "Admin");
  return { pageTitle: getInstance(context).t("adminUsers.title"), selfId: user.id };
}

/** A page of the list (cached in the browser, rules.md §15) or a search (not cached). */
const listKey = (hint: string, page: number) => (hint ? "admin-users:search" : `admin-users:${page}`);
/** What the page reads of a list: anything else is neither cached nor shown. */
const LIST_SHAPE = arrayResponseOf(recordWith<AdminUserInfo>({ id: "string", userName: "string", role: "string" }));
const fetchList = (hint: string, page: number, signal?: AbortSignal) =>
  hint
    ? api<ArrayResponse<AdminUserInfo>>(`/api/admin/users/search?hint=${encodeURIComponent(hint)}`, { method: "POST", signal })
    : api<ArrayResponse<AdminUserInfo>>(`/api/admin/users?count=${PAGE_SIZE}&skip=${(page - 1) * PAGE_SIZE}`, { signal });

/** The list is read from the API in the browser, once per load (rules.md §15). */
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

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

type Pending = { kind: "delete" | "ban" | "unban" | "reset"; user: AdminUserInfo };

const HEADING_ID = "admin-users-heading";

export default function AdminUsersPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { revalidate } = useRevalidator();
  const [searchParams] = useSearchParams();
  const [editing, setEditing] = useState<AdminUserInfo | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  // A confirmed delete takes the row, and the button that opened the dialog, away.
  const focusHeadingAfter = useFocusAfterDialog(pending !== null, HEADING_ID);

  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A Ban, Unban or role edit refused because the role changed elsewhere (409): said above the list.
  const [refused, setRefused] = useState<string | null>(null);
  const [newPassword, setNewPassword] = useState<{ userName: string; password: string } | null>(null);
  const [copyFailed, setCopyFailed] = useState(false);
  const [batchOpen, setBatchOpen] = useState(false);
  const [batchBusy, setBatchBusy] = useState(false);

  // Until the browser has read the list (first load and hydration), the page draws its own loading state.
  const loaded = "result" in loaderData ? loaderData : null;
  const live = useCachedList(
    listKey(loaded?.hint ?? "", loaded?.page ?? 1),
    (signal) => fetchList(loaded?.hint ?? "", loaded?.page ?? 1, signal),
    { initial: loaded?.result ?? null, stale: loaded?.fromCache ?? false, refreshMs: loaded ? undefined : 0, persist: !loaded?.hint, shape: LIST_SHAPE, endsOn: ACCESS_ENDED },
  );
  const data = loaded && live.data ? { ...loaded, result: live.data } : null;

  const heading = (
    <div>
      <h1 id={HEADING_ID} tabIndex={-1} className="text-2xl font-semibold tracking-tight focus:outline-none">
        {t("adminUsers.title")}
      </h1>
      {data ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("adminUsers.total", { count: data.result.total })}</p> : null}
    </div>
  );

  if (!data) {
    return (
      <div className="space-y-6">
        {heading}
        <p role="status" className="py-12 text-center text-zinc-600 dark:text-zinc-400">
          {t("common.loading")}
        </p>
      </div>
    );
  }

  const { result, hint, page, selfId } = data;
  const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
  const pageLink = (n: number) => {
    const next = new URLSearchParams(searchParams);
    next.set("page", String(n));
    return `?${next.toString()}`;
  };

  /** A refusal because the user's role changed since the row was drawn: the dialog closes, the page says why and reads the row again. */
  function roleChanged(err: unknown): boolean {
    if (!(err instanceof ApiError && err.status === 409 && !err.retryLater)) return false;
    setRefused(errorMessage(err));
    void revalidate();
    return true;
  }

  async function confirm() {
    if (!pending) return;
    setBusy(true);
    setError(null);
    setRefused(null);
    try {
      const id = pending.user.id;
      if (pending.kind === "delete") {
        await api(`/api/admin/users/${id}`, { method: "DELETE" });
        focusHeadingAfter();
      }
      else if (pending.kind === "reset") {
        const password = await api<string>(`/api/admin/users/${id}/password`, { method: "DELETE" });
        setNewPassword({ userName: pending.user.userName, password });
        setCopyFailed(false);
      } else await api(`/api/admin/users/${id}`, { method: "PUT", body: banToggleBody(pending.user.role) });
      setPending(null);
      void revalidate();
    } catch (err) {
      if (roleChanged(err)) setPending(null);
      else setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const confirmText = pending
    ? {
        delete: { title: t("adminUsers.deleteTitle"), message: t("adminUsers.deleteConfirm", { user: pending.user.userName }), confirm: t("adminUsers.delete") },
        ban: { title: t("adminUsers.banTitle"), message: t("adminUsers.banConfirm", { user: pending.user.userName }), confirm: t("adminUsers.ban") },
        unban: { title: t("adminUsers.unbanTitle"), message: t("adminUsers.unbanConfirm", { user: pending.user.userName }), confirm: t("adminUsers.unban") },
        reset: { title: t("adminUsers.resetTitle"), message: t("adminUsers.resetConfirm", { user: pending.user.userName }), confirm: t("adminUsers.resetPassword") },
      }[pending.kind]
    : null;

  const ask = (kind: Pending["kind"], user: AdminUserInfo) => {
    setError(null);
    setRefused(null);
    setPending({ kind, user });
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        {heading}
        <div className="flex flex-wrap gap-2">
          {/* As wide as its hint in every language (en 38 characters; ja/zh 16–17 at 14 px). */}
          <HintSearchForm label={t("adminUsers.search")} hint={t("adminUsers.searchHint")} defaultValue={hint} widthClass="w-80" />
          <Button onClick={() => setBatchOpen(true)}>{t("adminUsers.batchOpen")}</Button>
        </div>
      </div>

      {refused ? <Alert tone="error">{refused}</Alert> : null}

      {result.data.length === 0 && !hint && result.total > 0 ? (
        <PastEndNotice page={page} pages={pages} lastPageHref={pageLink(pages)} />
      ) : result.data.length === 0 ? (
        <Card className="text-center">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{hint ? t("adminUsers.noMatch", { hint }) : t("adminUsers.empty")}</p>
        </Card>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
          <table className="w-full text-left text-sm">
            <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
              <tr>
                <th scope="col" className="px-4 py-3 whitespace-nowrap">{t("adminUsers.userName")}</th>
                <th scope="col" className="px-4 py-3 whitespace-nowrap">{t("adminUsers.email")}</th>
                <th scope="col" className="px-4 py-3 whitespace-nowrap">{t("adminUsers.role")}</th>
                <th scope="col" className="px-4 py-3 whitespace-nowrap">{t("adminUsers.active")}</th>
                <th scope="col" className="px-4 py-3 whitespace-nowrap">{t("adminUsers.lastVisit")}</th>
                <th scope="col" className="px-4 py-3 text-end whitespace-nowrap">{t("adminUsers.actions")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {result.data.map((user) => (
                <tr key={user.id} data-testid={`admin-user-${user.userName}`}>
                  <td className="px-4 py-3">
                    <div className="flex items-center gap-3">
                      {user.avatar ? (
                        <img src={user.avatar} alt="" className="size-8 rounded-full object-cover" />
                      ) : (
                        <span aria-hidden="true" className="grid size-8 place-items-center rounded-full bg-primary-100 text-sm font-semibold text-primary-800 dark:bg-primary-900 dark:text-primary-100">
                          {initialOf(user.userName)}
                        </span>
                      )}
                      <div className="min-w-0">
                        <p className="font-medium whitespace-nowrap">{user.userName}</p>
                        {user.realName || user.stdNumber ? (
                          <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">{[user.realName, user.stdNumber].filter(Boolean).join(" · ")}</p>
                        ) : null}
                      </div>
                    </div>
                  </td>
                  <td className="min-w-40 px-4 py-3 wrap-anywhere">
                    <AddressText text={user.email} />
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    <span className={user.role === "Banned" ? "font-medium text-red-700 dark:text-red-400" : undefined}>{t(`role.${user.role}`)}</span>
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">{user.emailConfirmed ? t("adminUsers.yes") : t("adminUsers.no")}</td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    {user.lastVisitedUtc > 0 ? (
                      <>
                        <span className="tabular-nums">{formatDateTime(user.lastVisitedUtc)}</span>
                        <span className="block text-xs text-zinc-600 dark:text-zinc-400">{user.ip}</span>
                      </>
                    ) : (
                      <span className="text-zinc-600 dark:text-zinc-400">{t("adminUsers.never")}</span>
                    )}
                  </td>
                  <td className="px-4 py-3">
                    <div className="flex flex-wrap justify-end gap-1">
                      <Button
                        variant="ghost"
                        className="px-2 py-1"
                        onClick={() => {
                          setRefused(null);
                          setEditing(user);
                        }}
                      >
                        {t("adminUsers.edit")}
                      </Button>
                      {user.id !== selfId ? (
                        <Button variant="ghost" className="px-2 py-1" onClick={() => ask(user.role === "Banned" ? "unban" : "ban", user)}>
                          {user.role === "Banned" ? t("adminUsers.unban") : t("adminUsers.ban")}
                        </Button>
                      ) : null}
                      <Button variant="ghost" className="px-2 py-1" onClick={() => ask("reset", user)}>
                        {t("adminUsers.resetPassword")}
                      </Button>
                      {user.id !== selfId ? (
                        <Button variant="ghost" className="px-2 py-1 text-red-700 dark:text-red-400" onClick={() => ask("delete", user)}>
                          {t("adminUsers.delete")}
                        </Button>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {hint ? (
        result.total > result.length ? <Alert>{t("adminUsers.searchLimited", { count: result.length })}</Alert> : null
      ) : (
        <PageLinks page={page} pages={pages} label={t("adminUsers.pagination")} href={pageLink} />
      )}

      <Dialog open={editing !== null} title={t("adminUsers.editTitle")} onClose={() => setEditing(null)}>
        {editing ? (
          <UserEditForm
            user={editing}
            selfId={selfId}
            onCancel={() => setEditing(null)}
            onDone={() => {
              setEditing(null);
              void revalidate();
            }}
            onRefused={(err) => {
              if (!roleChanged(err)) return false;
              setEditing(null);
              return true;
            }}
          />
        ) : null}
      </Dialog>

      <Dialog open={batchOpen} title={t("adminUsers.batchTitle")} dismissible={!batchBusy} onClose={() => setBatchOpen(false)}>
        {batchOpen ? <BatchCreateForm onCreated={() => void revalidate()} onClose={() => setBatchOpen(false)} onBusyChange={setBatchBusy} /> : null}
      </Dialog>

      <Dialog open={newPassword !== null} title={t("adminUsers.newPasswordTitle")} onClose={() => setNewPassword(null)}>
        {newPassword ? (
          <div className="space-y-4">
            <p className="text-sm">{t("adminUsers.newPasswordFor", { user: newPassword.userName })}</p>
            <p data-testid="new-password" className="rounded-md border border-zinc-300 bg-zinc-50 px-3 py-2 font-mono text-base break-all select-all dark:border-zinc-700 dark:bg-zinc-950">
              {newPassword.password}
            </p>
            <Alert>{t("adminUsers.newPasswordOnce")}</Alert>
            {copyFailed ? <Alert tone="error">{t("adminUsers.copyFailed")}</Alert> : null}
            <div className="flex justify-end gap-2">
              <CopyButton text={newPassword.password} onFailure={() => setCopyFailed(true)} onCopied={() => setCopyFailed(false)} />
              <Button onClick={() => setNewPassword(null)}>{t("adminUsers.close")}</Button>
            </div>
          </div>
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
    </div>
  );
}
