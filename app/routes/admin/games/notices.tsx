import { env } from "cloudflare:workers";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/auth/guard";
import { NoticeItem } from "~/components/games/notice-item";
import { ConfirmDialog, Dialog } from "~/components/teams/dialog";
import { LoadingStatus } from "~/components/teams/loading";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FieldErrors, TextAreaField } from "~/components/ui/field";
import { markdownExcerpt } from "~/core/markdown";
import { type GameNoticeInfo, NOTICE_CONTENT_MAX } from "~/core/schemas/game";
import { PushesDuringRead } from "~/core/ui/pushes-during-read";
import { sameValues } from "~/core/ui/same-values";
import { api, errorMessage, fieldError } from "~/lib/api";
import { useFocusInvalid } from "~/lib/focus-invalid";
import { useIdempotencyKey } from "~/lib/idempotency";
import { REFRESH_MS, useCachedList } from "~/lib/list-cache";
import { pageTitle } from "~/lib/meta";
import { useHubSocket } from "~/lib/realtime";
import { ACCESS_ENDED } from "~/lib/session-end";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/notices";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  return { pageTitle: getInstance(context).t("adminGames.tab.notices") };
}

export async function clientLoader({ request, params, serverLoader }: Route.ClientLoaderArgs) {
  const id = Number(params.id) || 0;
  const [server, notices] = await Promise.all([serverLoader(), api<GameNoticeInfo[]>(`/api/edit/games/${id}/notices`, { signal: request.signal })]);
  return { ...server, gameId: id, notices };
}
clientLoader.hydrate = true as const;

// No HydrateFallback: the page's title is in the server's HTML (DECISIONS.md, "Server-side titles").
export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** A new notice's text, or (`stored`) the text of the notice it edits, which a save of it unchanged does not send. */
function NoticeForm({
  stored,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  stored?: string;
  submitLabel: string;
  onSubmit: (content: string) => Promise<void>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const [content, setContent] = useState(stored ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A refusal of the text stands at it until it changes (a new object per refusal: FieldErrors).
  const [contentErr, setContentErr] = useState<{ message: string } | null>(null);
  const [noChange, setNoChange] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusInvalid(formRef, contentErr);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const unchanged = stored !== undefined && sameValues({ content }, { content: stored });
    setNoChange(unchanged);
    if (unchanged) {
      setError(null);
      setContentErr(null);
      return;
    }
    if (!content.trim()) {
      setError(null);
      setContentErr({ message: t("adminGames.noticeEmpty") });
      return;
    }
    setBusy(true);
    setError(null);
    setContentErr(null);
    try {
      await onSubmit(content);
      setContent("");
    } catch (err) {
      const refused = fieldError(err, ["content"] as const);
      if (refused) setContentErr({ message: refused.message });
      else setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form ref={formRef} className="space-y-3" noValidate onSubmit={(e) => void submit(e)}>
      {noChange ? <Alert tone="info">{t("common.noChange")}</Alert> : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <FieldErrors refusal={contentErr}>
        <TextAreaField
          label={t("adminGames.noticeContent")}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          rows={4}
          maxLength={NOTICE_CONTENT_MAX}
          description={t("adminGames.markdownHint")}
          error={contentErr?.message ?? null}
        />
      </FieldErrors>
      <div className="flex justify-end gap-2">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            {t("teams.cancel")}
          </Button>
        ) : null}
        <Button type="submit" disabled={busy}>
          {busy ? t("teams.working") : submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** Adds or replaces a notice by id, keeping the admin list's order: newest first. */
export function mergeAdminNotice(list: GameNoticeInfo[], notice: GameNoticeInfo): GameNoticeInfo[] {
  return [notice, ...list.filter((n) => n.id !== notice.id)].sort((a, b) => b.time - a.time || b.id - a.id);
}

export default function AdminGameNoticesPage({ loaderData }: Route.ComponentProps) {
  // Server-rendered data carries no API data; the browser loader fills it in.
  if (!("notices" in loaderData)) return <LoadingStatus />;
  return <AdminGameNoticesPageView loaderData={loaderData} />;
}

function AdminGameNoticesPageView({ loaderData }: { loaderData: Awaited<ReturnType<typeof clientLoader>> }) {
  const { t } = useTranslation();
  const { gameId } = loaderData;
  // Kept live over the game's socket (rules.md §11): bloods, new challenges and hints, and other admins'
  // edits appear without a reload; a reconnect reads the list again. The socket alone cannot end the page:
  // a demoted admin keeps a public game's player feed. So the list is also read every 10 s, as the other
  // admin lists are, and its refusal (role gone, game deleted) shows what a reload would.
  const [reads] = useState(() => new PushesDuringRead<GameNoticeInfo[]>());
  const list = useCachedList(
    `admin-notices:${gameId}`,
    async (signal) => {
      const round = reads.begin();
      try {
        const answer = await api<GameNoticeInfo[]>(`/api/edit/games/${gameId}/notices`, { signal });
        // Notices pushed while the list was read are applied to what it brings.
        return reads.settle(round, answer) ?? answer;
      } catch (err) {
        reads.fail(round);
        throw err;
      }
    },
    { initial: loaderData.notices, refreshMs: REFRESH_MS.list, persist: false, endsOn: ACCESS_ENDED },
  );
  const [live, setLive] = useState({ base: list.data, notices: list.data });
  if (live.base !== list.data) setLive({ base: list.data, notices: list.data });
  const notices = live.base === list.data ? live.notices : list.data;
  const refresh = list.refresh;
  useHubSocket(`/hub/game/${gameId}`, {
    onMessage: (message) => {
      if (message.type === "notice") {
        const notice = message.data;
        reads.push((l) => mergeAdminNotice(l, notice));
        setLive((s) => ({ ...s, notices: mergeAdminNotice(s.notices, notice) }));
      }
      if (message.type === "noticeDeleted") {
        const { id } = message.data;
        reads.push((l) => l.filter((n) => n.id !== id));
        setLive((s) => ({ ...s, notices: s.notices.filter((n) => n.id !== id) }));
      }
    },
    onResync: () => void refresh(),
  });
  const [editing, setEditing] = useState<GameNoticeInfo | null>(null);
  const [deleting, setDeleting] = useState<GameNoticeInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // What the last post, edit or deletion did, said politely (the flags page says "Flags added" the same way).
  const [said, setSaid] = useState("");
  // A post retried after its answer was lost is posted once (pushed to every player once).
  const postKeys = useIdempotencyKey();

  // After a deletion its buttons are gone: focus goes to the list's heading instead of the page's start.
  const listHeading = useRef<HTMLHeadingElement>(null);
  const focusList = useRef(false);
  useEffect(() => {
    if (deleting !== null || !focusList.current) return;
    focusList.current = false;
    listHeading.current?.focus();
  }, [deleting]);

  async function remove() {
    if (!deleting) return;
    setBusy(true);
    setError(null);
    setSaid("");
    try {
      await api(`/api/edit/games/${gameId}/notices/${deleting.id}`, { method: "DELETE" });
      focusList.current = true;
      setDeleting(null);
      setSaid(t("adminGames.noticeDeleted"));
      void refresh();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-6">
      <p role="status" className="sr-only">
        {said}
      </p>
      <Card className="space-y-3">
        <h2 className="font-semibold">{t("adminGames.newNotice")}</h2>
        <NoticeForm
          submitLabel={t("adminGames.postNotice")}
          onSubmit={async (content) => {
            setSaid("");
            await postKeys.send({ content }, (idempotencyKey) => api(`/api/edit/games/${gameId}/notices`, { method: "POST", body: { content }, idempotencyKey }));
            setSaid(t("adminGames.noticePosted"));
            void refresh();
          }}
        />
      </Card>
      <Card>
        <h2 ref={listHeading} tabIndex={-1} className="mb-2 font-semibold focus:outline-none">
          {t("adminGames.allNotices", { count: notices.length })}
        </h2>
        {notices.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("notices.empty")}</p>
        ) : (
          <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {/* The buttons name their notice: a list of "Edit", "Delete", "Edit"… says nothing out of context. */}
            {notices.map((n) => (
              <NoticeItem
                key={n.id}
                notice={n}
                actions={
                  n.type === "Normal" ? (
                    <>
                      <Button variant="ghost" className="px-2 py-1" aria-label={t("adminGames.editNoticeNamed", { notice: markdownExcerpt(n.values[0]) })} onClick={() => setEditing(n)}>
                        {t("adminGames.edit")}
                      </Button>
                      <Button
                        variant="ghost"
                        className="px-2 py-1 text-red-700 dark:text-red-400"
                        aria-label={t("adminGames.deleteNoticeNamed", { notice: markdownExcerpt(n.values[0]) })}
                        onClick={() => {
                          setError(null);
                          setDeleting(n);
                        }}
                      >
                        {t("adminGames.deleteNotice")}
                      </Button>
                    </>
                  ) : null
                }
              />
            ))}
          </ul>
        )}
      </Card>
      <Dialog open={editing !== null} title={t("adminGames.editNotice")} onClose={() => setEditing(null)}>
        {editing ? (
          <NoticeForm
            stored={editing.values[0] ?? ""}
            submitLabel={t("adminGames.save")}
            onCancel={() => setEditing(null)}
            onSubmit={async (content) => {
              setSaid("");
              await api(`/api/edit/games/${gameId}/notices/${editing.id}`, { method: "PUT", body: { content } });
              setEditing(null);
              setSaid(t("adminGames.noticeSaved"));
              void refresh();
            }}
          />
        ) : null}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        title={t("adminGames.deleteNoticeTitle")}
        message={t("adminGames.deleteNoticeConfirm")}
        confirmLabel={t("adminGames.deleteNotice")}
        busy={busy}
        error={error}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
