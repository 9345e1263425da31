import { env } from "cloudflare:workers";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Link, useNavigate } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { createDb } from "~/.server/db/client";
import { getPost } from "~/.server/services/posts";
import { LEAVE_WITHOUT_ASKING, LeaveGuard } from "~/components/leave-guard";
import { MarkdownEditor } from "~/components/markdown-editor";
import { ConfirmDialog } from "~/components/teams/dialog";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FieldErrors, TextAreaField, TextField } from "~/components/ui/field";
import { AppError } from "~/core/errors";
import { POST_SUMMARY_MAX, POST_TITLE_MAX, type PostDetail } from "~/core/schemas/post";
import { api, errorMessage } from "~/lib/api";
import { useIdempotencyKey } from "~/lib/idempotency";
import { changedFields } from "~/core/ui/changed-fields";
import { sameValues } from "~/core/ui/same-values";
import { useFocusInvalid } from "~/lib/focus-invalid";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/edit";

/** `/posts/new/edit` creates a post; `/posts/{id}/edit` edits one. Admins only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  const t = getInstance(context).t;
  const id = params.postId.toLowerCase();
  if (id === "new") return { pageTitle: t("posts.createTitle"), post: null };
  try {
    return { pageTitle: t("posts.editTitle"), post: await getPost(createDb(env.DB), id) };
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw data(t("posts.notFound"), { status: 404 });
    throw error;
  }
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

const parseTags = (text: string) => text.split(/[,，、]/).map((s) => s.trim()).filter(Boolean);

export default function EditPostPage({ loaderData: { post } }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [title, setTitle] = useState(post?.title ?? "");
  const [summary, setSummary] = useState(post?.summary ?? "");
  const [content, setContent] = useState(post?.content ?? "");
  const [tags, setTags] = useState((post?.tags ?? []).join(", "));
  const [isPinned, setPinned] = useState(post?.isPinned ?? false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [titleError, setTitleError] = useState<string | null>(null);
  // Each refusal at the title moves the focus there, where its message stands.
  const formRef = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);
  useFocusInvalid(formRef, refusals);
  const [noChange, setNoChange] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  // A new post retried after a lost answer is created once.
  const createKeys = useIdempotencyKey();
  // Typed but not saved: leaving the page (but for its Cancel link) asks first.
  const formBody = { title: title.trim(), summary, content, tags: parseTags(tags), isPinned };
  const dirty = post
    ? !sameValues(formBody, { title: post.title, summary: post.summary, content: post.content, tags: post.tags, isPinned: post.isPinned })
    : Boolean(formBody.title || summary.trim() || content.trim() || formBody.tags.length > 0 || isPinned);

  async function save(event: FormEvent) {
    event.preventDefault();
    const body = { title: title.trim(), summary, content, tags: parseTags(tags), isPinned };
    const stored = post ? { title: post.title, summary: post.summary, content: post.content, tags: post.tags, isPinned: post.isPinned } : null;
    // An edit that changes nothing is not sent (nor checked: the stored title is not the admin's doing).
    const unchanged = stored !== null && sameValues(body, stored);
    setNoChange(unchanged);
    if (unchanged) {
      setTitleError(null);
      setError(null);
      return;
    }
    if (!title.trim()) {
      setTitleError(t("posts.titleRequired"));
      setRefusals((n) => n + 1);
      return;
    }
    setTitleError(null);
    setBusy(true);
    setError(null);
    try {
      // An edit sends only what this form changed (another tab's saves of other fields stay).
      const saved = stored && post
        ? await api<PostDetail>(`/api/edit/posts/${post.id}`, { method: "PUT", body: changedFields(stored, body) })
        : await createKeys.send(body, (idempotencyKey) => api<PostDetail>("/api/edit/posts", { method: "POST", body, idempotencyKey }));
      await navigate(`/posts/${saved.id}`, { state: LEAVE_WITHOUT_ASKING });
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  async function remove() {
    if (!post) return;
    setBusy(true);
    setDeleteError(null);
    try {
      await api(`/api/edit/posts/${post.id}`, { method: "DELETE" });
      // In place of the deleted post's editor: Back does not lead to a page that is gone.
      await navigate("/posts", { replace: true, state: LEAVE_WITHOUT_ASKING });
    } catch (err) {
      setDeleteError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{post ? t("posts.editTitle") : t("posts.createTitle")}</h1>
        <Link to={post ? `/posts/${post.id}` : "/posts"} state={LEAVE_WITHOUT_ASKING} className="text-sm text-primary-700 hover:underline dark:text-primary-300">
          {t("posts.cancel")}
        </Link>
      </div>
      <Card>
        <form ref={formRef} className="space-y-5" noValidate onSubmit={(event) => void save(event)}>
          {noChange ? <Alert tone="info">{t("common.noChange")}</Alert> : null}
          {error ? <Alert tone="error">{error}</Alert> : null}
          <FieldErrors refusal={refusals}>
            <TextField
              label={t("posts.fieldTitle")}
              name="title"
              required
              maxLength={POST_TITLE_MAX}
              value={title}
              error={titleError}
              onChange={(event) => setTitle(event.target.value)}
            />
          </FieldErrors>
          <TextAreaField
            label={t("posts.fieldSummary")}
            name="summary"
            rows={2}
            maxLength={POST_SUMMARY_MAX}
            value={summary}
            onChange={(event) => setSummary(event.target.value)}
          />
          <MarkdownEditor label={t("posts.fieldContent")} name="content" value={content} onChange={setContent} rows={16} />
          <TextField
            label={t("posts.fieldTags")}
            name="tags"
            description={t("posts.tagsHint")}
            value={tags}
            onChange={(event) => setTags(event.target.value)}
          />
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="isPinned" checked={isPinned} onChange={(event) => setPinned(event.target.checked)} className="size-4 accent-primary-600" />
            {t("posts.fieldPinned")}
          </label>
          <div className="flex flex-wrap justify-between gap-2">
            {post ? (
              <Button variant="danger" onClick={() => setConfirming(true)} disabled={busy}>
                {t("posts.delete")}
              </Button>
            ) : (
              <span />
            )}
            <Button type="submit" disabled={busy}>
              {busy ? t("common.saving") : post ? t("posts.save") : t("posts.create")}
            </Button>
          </div>
        </form>
      </Card>
      {post ? (
        <ConfirmDialog
          open={confirming}
          title={t("posts.deleteTitle")}
          message={t("posts.deleteConfirm", { title: post.title })}
          confirmLabel={t("posts.delete")}
          busy={busy}
          error={deleteError}
          onConfirm={() => void remove()}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
      <LeaveGuard dirty={dirty} />
    </div>
  );
}
