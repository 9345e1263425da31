import { env } from "cloudflare:workers";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { PhaseBadge } from "~/components/games/badges";
import { formatDateTime, fromLocalInput, phaseOf, toLocalInput, useNow } from "~/components/games/time";
import { Dialog } from "~/components/teams/dialog";
import { LoadingStatus } from "~/components/teams/loading";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { TextField } from "~/components/ui/field";
import { PageLinks, PastEndNotice } from "~/components/ui/pager";
import type { GameInfo } from "~/core/schemas/game";
import type { ArrayResponse } from "~/core/schemas/team";
import { arrayResponseOf, recordWith } from "~/core/ui/list-shape";
import { loadCached, useCachedList } from "~/lib/list-cache";
import { ACCESS_ENDED } from "~/lib/session-end";
import { api, errorMessage } from "~/lib/api";
import { type IdempotencyKeys, useIdempotencyKey } from "~/lib/idempotency";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/index";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  return { pageTitle: getInstance(context).t("adminGames.title") };
}

const PAGE_SIZE = 20;
/** A page of the list (`?page=n`, 1-based), cached in the browser per page as /admin/users and /admin/teams are. */
const gamesKey = (page: number) => `admin-games:${page}`;
/** What the page reads of a list: anything else is neither cached nor shown. */
const GAMES_SHAPE = arrayResponseOf(recordWith<GameInfo>({ id: "number", title: "string", start: "number", end: "number" }));
const fetchGames = (page: number, signal?: AbortSignal) => api<ArrayResponse<GameInfo>>(`/api/edit/games?count=${PAGE_SIZE}&skip=${(page - 1) * PAGE_SIZE}`, { signal });

/** Painted from the browser cache on reload, then refreshed (rules.md §15). */
export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  const page = Math.max(1, Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10) || 1);
  const [server, games] = await Promise.all([serverLoader(), loadCached(gamesKey(page), () => fetchGames(page, request.signal), GAMES_SHAPE)]);
  return { ...server, games, page };
}
clientLoader.hydrate = true as const;

// No HydrateFallback: the page's title is in the server's HTML (DECISIONS.md, "Server-side titles").
export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

const HOUR = 3_600_000;

/** `createKeys` belongs to the page: a game retried after a lost answer is created once, even from the dialog opened again. */
function CreateGameForm({ onCancel, createKeys }: { onCancel: () => void; createKeys: IdempotencyKeys }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [defaults] = useState(() => {
    const start = Math.ceil(Date.now() / HOUR) * HOUR + 24 * HOUR;
    return { start: toLocalInput(start), end: toLocalInput(start + 48 * HOUR) };
  });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const title = String(form.get("title") ?? "").trim();
    const start = fromLocalInput(String(form.get("start") ?? ""));
    const end = fromLocalInput(String(form.get("end") ?? ""));
    if (!title || start === null || end === null) {
      setError(t("adminGames.titleTimeRequired"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const body = { title, start, end };
      const game = await createKeys.send(body, (idempotencyKey) => api<GameInfo>("/api/edit/games", { method: "POST", body, idempotencyKey }));
      await navigate(`/admin/games/${game.id}/info`);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <form className="space-y-4" noValidate onSubmit={(e) => void submit(e)}>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <TextField label={t("adminGames.field.title")} name="title" maxLength={64} required autoComplete="off" />
      <TextField label={t("adminGames.field.start")} name="start" type="datetime-local" defaultValue={defaults.start} required />
      <TextField label={t("adminGames.field.end")} name="end" type="datetime-local" defaultValue={defaults.end} required />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          {t("teams.cancel")}
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? t("teams.working") : t("adminGames.create")}
        </Button>
      </div>
    </form>
  );
}

export default function AdminGamesPage({ loaderData }: Route.ComponentProps) {
  // Server-rendered data carries no API data; the browser loader fills it in.
  if (!("games" in loaderData)) return <LoadingStatus />;
  return <AdminGamesPageView loaderData={loaderData} />;
}

function AdminGamesPageView({ loaderData }: { loaderData: Awaited<ReturnType<typeof clientLoader>> }) {
  const { t } = useTranslation();
  const now = useNow(10_000);
  const [searchParams] = useSearchParams();
  const { page } = loaderData;
  const { data: games } = useCachedList(gamesKey(page), (signal) => fetchGames(page, signal), { initial: loaderData.games.data, stale: loaderData.games.fromCache, shape: GAMES_SHAPE, endsOn: ACCESS_ENDED });
  const [creating, setCreating] = useState(false);
  const createKeys = useIdempotencyKey();
  const pages = Math.max(1, Math.ceil(games.total / PAGE_SIZE));
  const pageLink = (n: number) => {
    const next = new URLSearchParams(searchParams);
    next.set("page", String(n));
    return `?${next.toString()}`;
  };
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t("adminGames.title")}</h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("adminGames.total", { count: games.total })}</p>
        </div>
        <Button onClick={() => setCreating(true)}>{t("adminGames.new")}</Button>
      </div>
      {games.data.length === 0 && games.total > 0 ? (
        <PastEndNotice page={page} pages={pages} lastPageHref={pageLink(pages)} />
      ) : games.data.length === 0 ? (
        <Card className="text-center">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("adminGames.empty")}</p>
        </Card>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
          <table className="w-full text-left text-sm">
            <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
              <tr>
                <th scope="col" className="px-4 py-3">{t("adminGames.field.title")}</th>
                <th scope="col" className="px-4 py-3">{t("adminGames.field.start")}</th>
                <th scope="col" className="px-4 py-3">{t("adminGames.field.end")}</th>
                <th scope="col" className="px-4 py-3">{t("adminGames.state")}</th>
                <th scope="col" className="px-4 py-3 text-end">{t("adminGames.actions")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {games.data.map((g) => (
                <tr key={g.id} data-testid={`admin-game-${g.id}`}>
                  <td className="px-4 py-3">
                    <Link to={`/admin/games/${g.id}/info`} className="font-medium wrap-anywhere hover:underline">
                      {g.title}
                    </Link>{" "}
                    <span className="text-xs text-zinc-600 dark:text-zinc-400">#{g.id}</span>
                    {g.hidden ? <span className="ms-2 text-xs text-zinc-600 dark:text-zinc-400">{t("adminGames.hiddenTag")}</span> : null}
                  </td>
                  <td className="px-4 py-3 tabular-nums">{formatDateTime(g.start)}</td>
                  <td className="px-4 py-3 tabular-nums">{formatDateTime(g.end)}</td>
                  <td className="px-4 py-3">{now !== null ? <PhaseBadge phase={phaseOf(g, now)} /> : null}</td>
                  <td className="px-4 py-3">
                    <div className="flex justify-end gap-1 text-sm">
                      <Link className="rounded px-2 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-800" to={`/admin/games/${g.id}/info`}>
                        {t("adminGames.tab.info")}
                      </Link>
                      <Link className="rounded px-2 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-800" to={`/admin/games/${g.id}/notices`}>
                        {t("adminGames.tab.notices")}
                      </Link>
                      <Link className="rounded px-2 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-800" to={`/admin/games/${g.id}/review`}>
                        {t("adminGames.tab.review")}
                      </Link>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PageLinks page={page} pages={pages} label={t("adminGames.pagination")} href={pageLink} />
      <Dialog open={creating} title={t("adminGames.newTitle")} onClose={() => setCreating(false)}>
        {creating ? <CreateGameForm onCancel={() => setCreating(false)} createKeys={createKeys} /> : null}
      </Dialog>
    </div>
  );
}
