import { env } from "cloudflare:workers";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useRevalidator } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { SelectField } from "~/components/challenges/fields";
import { ConfirmDialog, Dialog } from "~/components/teams/dialog";
import { LoadingStatus } from "~/components/teams/loading";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { TextField } from "~/components/ui/field";
import { CHALLENGE_CATEGORIES, CHALLENGE_TYPES } from "~/core/enums";
import type { ChallengeEditDetail, ChallengeEditInfo } from "~/core/schemas/challenge";
import { api, errorMessage } from "~/lib/api";
import { type IdempotencyKeys, useIdempotencyKey } from "~/lib/idempotency";
import { REFRESH_MS, useCachedList } from "~/lib/list-cache";
import { ACCESS_ENDED } from "~/lib/session-end";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/challenges";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  return { pageTitle: getInstance(context).t("adminGames.tab.challenges") };
}

export async function clientLoader({ request, params, serverLoader }: Route.ClientLoaderArgs) {
  const id = Number(params.id) || 0;
  const [server, challenges] = await Promise.all([serverLoader(), api<ChallengeEditInfo[]>(`/api/edit/games/${id}/challenges`, { signal: request.signal })]);
  return { ...server, gameId: id, challenges };
}
clientLoader.hydrate = true as const;

// No HydrateFallback: the page's title is in the server's HTML (DECISIONS.md, "Server-side titles").
export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** `createKeys` belongs to the page: a challenge retried after a lost answer is created once, even from the dialog opened again. */
function CreateChallengeForm({ gameId, onCancel, createKeys }: { gameId: number; onCancel: () => void; createKeys: IdempotencyKeys }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const title = String(form.get("title") ?? "").trim();
    if (!title) {
      setError(t("adminChallenges.titleRequired"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const body = { title, category: form.get("category"), type: form.get("type") };
      const created = await createKeys.send(body, (idempotencyKey) => api<ChallengeEditDetail>(`/api/edit/games/${gameId}/challenges`, { method: "POST", body, idempotencyKey }));
      void navigate(`/admin/games/${gameId}/challenges/${created.id}`);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <form className="space-y-4" noValidate onSubmit={(e) => void submit(e)}>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <TextField label={t("adminChallenges.titleLabel")} name="title" maxLength={64} required />
      <SelectField label={t("adminChallenges.category")} name="category" defaultValue="Misc" options={CHALLENGE_CATEGORIES.map((c) => ({ value: c, label: t(`challenge.category.${c}`) }))} />
      <SelectField label={t("adminChallenges.type")} name="type" defaultValue="StaticAttachment" options={CHALLENGE_TYPES.map((c) => ({ value: c, label: t(`challenge.type.${c}`) }))} />
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("adminChallenges.typeFixed")}</p>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          {t("teams.cancel")}
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? t("teams.working") : t("adminChallenges.create")}
        </Button>
      </div>
    </form>
  );
}

export default function AdminChallengesPage({ loaderData }: Route.ComponentProps) {
  // Server-rendered data carries no API data; the browser loader fills it in.
  if (!("challenges" in loaderData)) return <LoadingStatus />;
  return <AdminChallengesPageView loaderData={loaderData} />;
}

function AdminChallengesPageView({ loaderData }: { loaderData: Awaited<ReturnType<typeof clientLoader>> }) {
  const { t } = useTranslation();
  const { revalidate } = useRevalidator();
  const { gameId } = loaderData;
  // Refreshed every 10 s like the other admin tables (rules.md §15): solves move the scores, and another
  // admin may add or enable challenges. A toggle's or recount's revalidation replaces it at once.
  const { data: challenges } = useCachedList(
    `admin-challenges:${gameId}`,
    (signal) => api<ChallengeEditInfo[]>(`/api/edit/games/${gameId}/challenges`, { signal }),
    { initial: loaderData.challenges, refreshMs: REFRESH_MS.list, persist: false, endsOn: ACCESS_ENDED },
  );
  const [creating, setCreating] = useState(false);
  const createKeys = useIdempotencyKey();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  // Disabling a solved challenge takes its points off every team's score: asked first (a switch is one click).
  const [disabling, setDisabling] = useState<ChallengeEditInfo | null>(null);

  async function toggle(c: ChallengeEditInfo) {
    setBusyId(c.id);
    setError(null);
    try {
      await api(`/api/edit/games/${gameId}/challenges/${c.id}`, { method: "PUT", body: { isEnabled: !c.isEnabled } });
      setDisabling(null);
      void revalidate();
    } catch (err) {
      setError(errorMessage(err));
      setDisabling(null);
    } finally {
      setBusyId(null);
    }
  }

  async function recount() {
    setError(null);
    try {
      const r = await api<{ title: string }>(`/api/edit/games/${gameId}/challenges/updateaccepted`, { method: "POST" });
      setNotice(r.title);
      void revalidate();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{t("adminChallenges.count", { count: challenges.length })}</h2>
        <div className="flex gap-2">
          <Button variant="secondary" onClick={() => void recount()}>
            {t("adminChallenges.updateAccepted")}
          </Button>
          <Button onClick={() => setCreating(true)}>{t("adminChallenges.new")}</Button>
        </div>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <Card className="p-0">
        {challenges.length === 0 ? (
          <p className="p-6 text-sm text-zinc-600 dark:text-zinc-400">{t("adminChallenges.empty")}</p>
        ) : (
          <table className="w-full text-sm">
            <thead className="border-b border-zinc-200 text-start text-xs text-zinc-600 uppercase dark:border-zinc-800 dark:text-zinc-400">
              <tr>
                <th className="px-4 py-2 text-start">{t("adminChallenges.titleLabel")}</th>
                <th className="px-4 py-2 text-start">{t("adminChallenges.category")}</th>
                <th className="px-4 py-2 text-start">{t("adminChallenges.type")}</th>
                <th className="px-4 py-2 text-end">{t("adminChallenges.scoreColumns")}</th>
                <th className="px-4 py-2 text-end">{t("adminChallenges.solves")}</th>
                <th className="px-4 py-2 text-center">{t("adminChallenges.enabled")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {challenges.map((c) => (
                <tr key={c.id}>
                  <td className="px-4 py-2 wrap-anywhere">
                    <Link to={`/admin/games/${gameId}/challenges/${c.id}`} className="font-medium text-primary-700 hover:underline dark:text-primary-300">
                      {c.title}
                    </Link>
                  </td>
                  <td className="px-4 py-2">{t(`challenge.category.${c.category}`)}</td>
                  <td className="px-4 py-2">{t(`challenge.type.${c.type}`)}</td>
                  <td className="px-4 py-2 text-end font-mono">
                    {c.score} / {c.minScore} / {c.originalScore}
                  </td>
                  <td className="px-4 py-2 text-end font-mono">{c.acceptedCount}</td>
                  <td className="px-4 py-2 text-center">
                    <input
                      type="checkbox"
                      role="switch"
                      aria-label={t("adminChallenges.enableNamed", { title: c.title })}
                      checked={c.isEnabled}
                      // Not disabled while it saves: a disabled control drops the keyboard focus to the page.
                      aria-disabled={busyId === c.id || undefined}
                      onChange={() => {
                        if (busyId === c.id) return;
                        if (c.isEnabled && c.acceptedCount > 0) setDisabling(c);
                        else void toggle(c);
                      }}
                      className="h-4 w-4 accent-primary-600"
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <ConfirmDialog
        open={disabling !== null}
        title={disabling ? t("adminChallenges.disableSolvedTitle", { title: disabling.title }) : ""}
        message={disabling ? t("adminChallenges.disableSolvedConfirm", { count: disabling.acceptedCount }) : ""}
        confirmLabel={t("adminChallenges.disable")}
        busy={disabling !== null && busyId === disabling.id}
        error={null}
        onConfirm={() => {
          if (disabling) void toggle(disabling);
        }}
        onCancel={() => setDisabling(null)}
      />
      <Dialog open={creating} title={t("adminChallenges.new")} onClose={() => setCreating(false)}>
        <CreateChallengeForm gameId={gameId} onCancel={() => setCreating(false)} createKeys={createKeys} />
      </Dialog>
    </div>
  );
}
