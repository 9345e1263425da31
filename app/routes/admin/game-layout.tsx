import { env } from "cloudflare:workers";
import { useTranslation } from "react-i18next";
import { Link, NavLink, Outlet } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { createDb } from "~/.server/db/client";
import { gamePageId } from "~/.server/services/games";
import { LoadingStatus } from "~/components/teams/loading";
import { orNotFound } from "~/lib/api";
import { loadEditGame } from "~/lib/edit-game";
import type { Route } from "./+types/game-layout";

/** /admin/games/{id}/*: the game's title and a tab bar over its admin pages; an unknown game is a 404 page. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  await gamePageId(createDb(env.DB), params.id);
  return null;
}

export async function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  // Shared with the page's loader, which needs the game too (one read per navigation).
  const game = await orNotFound(loadEditGame(request, Number(params.id) || 0));
  return { game: { id: game.id, title: game.title } };
}
clientLoader.hydrate = true as const;

/** Shared by HydrateFallback and the page, which keeps the fallback in the route's main chunk. */
function PageLoading() {
  return <LoadingStatus />;
}

export function HydrateFallback() {
  return <PageLoading />;
}

const linkClass = "touch-target inline-flex items-center font-medium text-primary-700 hover:underline dark:text-primary-300";

const tabs = ["info", "challenges", "notices", "review", "writeups"] as const;

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `-mb-px border-b-2 px-3 py-2 text-sm font-medium ${
    isActive
      ? "border-primary-600 text-primary-700 dark:border-primary-400 dark:text-primary-300"
      : "border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
  }`;

export default function AdminGameLayout({ loaderData }: Route.ComponentProps) {
  // Server-rendered data carries no API data; the browser loader fills it in.
  if (!(loaderData as { game?: unknown } | null)?.game) return <PageLoading />;
  return <AdminGameLayoutView loaderData={loaderData} />;
}

function AdminGameLayoutView({ loaderData }: Pick<Route.ComponentProps, "loaderData">) {
  const { t } = useTranslation();
  const { game } = loaderData;
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <Link to="/admin/games" className="text-sm text-primary-700 hover:underline dark:text-primary-300">
          ← {t("adminGames.back")}
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere">{game.title}</h1>
        {/* The game as players see it, and its monitor pages (an admin may use both). */}
        <div className="flex flex-wrap gap-x-4 text-sm">
          <Link to={`/games/${game.id}`} className={linkClass}>
            {t("adminGames.publicPage")}
          </Link>
          <Link to={`/games/${game.id}/monitor/events`} className={linkClass}>
            {t("adminGames.monitorLink")}
          </Link>
        </div>
      </div>
      <nav aria-label={t("adminGames.tabs")} className="flex gap-1 border-b border-zinc-200 dark:border-zinc-800">
        {tabs.map((tab) => (
          <NavLink key={tab} to={`/admin/games/${game.id}/${tab}`} className={tabClass}>
            {t(`adminGames.tab.${tab}`)}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
