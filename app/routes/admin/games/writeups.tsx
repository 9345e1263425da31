import { env } from "cloudflare:workers";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/auth/guard";
import { LoadingStatus } from "~/components/teams/loading";
import { type AdminWriteupList, WriteupsAdmin } from "~/components/writeups/writeups-admin";
import { api } from "~/lib/api";
import { REFRESH_MS, useCachedList } from "~/lib/list-cache";
import { ACCESS_ENDED } from "~/lib/session-end";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/writeups";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  return { pageTitle: getInstance(context).t("adminGames.tab.writeups") };
}

export async function clientLoader({ request, params, serverLoader }: Route.ClientLoaderArgs) {
  const id = Number(params.id) || 0;
  const [server, list] = await Promise.all([serverLoader(), api<AdminWriteupList>(`/api/admin/writeups/${id}`, { signal: request.signal })]);
  return { ...server, gameId: id, list };
}
clientLoader.hydrate = true as const;

// No HydrateFallback: the page's title is in the server's HTML (DECISIONS.md, "Server-side titles").
export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** /admin/games/{id}/Writeups: every team's writeup state, an in-page viewer, downloads and deleting all. */
export default function AdminGameWriteupsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  // Server-rendered data carries no API data; the browser loader fills it in.
  const data = loaderData as { gameId?: number; list?: AdminWriteupList } | null;
  if (!data?.list || !data.gameId) return <LoadingStatus />;
  return (
    <div className="space-y-4">
      <h2 className="sr-only">{t("adminGames.tab.writeups")}</h2>
      <LiveWriteups gameId={data.gameId} initial={data.list} />
    </div>
  );
}

/** Refreshed every 10 s like the other admin tables (rules.md §15), keeping the rows on screen meanwhile. */
function LiveWriteups({ gameId, initial }: { gameId: number; initial: AdminWriteupList }) {
  const { data: list } = useCachedList(`admin-writeups:${gameId}`, (signal) => api<AdminWriteupList>(`/api/admin/writeups/${gameId}`, { signal }), {
    initial,
    refreshMs: REFRESH_MS.list,
    persist: false,
    endsOn: ACCESS_ENDED,
  });
  return <WriteupsAdmin gameId={gameId} list={list} />;
}
