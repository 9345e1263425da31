import { env } from "cloudflare:workers";
import { useTranslation } from "react-i18next";
import { Link, useRouteLoaderData } from "react-router";
import { createDb } from "~/.server/db/client";
import { latestPosts } from "~/.server/services/posts";
import { PhaseBadge } from "~/components/games/badges";
import { phaseOf, useNow } from "~/components/games/time";
import { LocalTime } from "~/components/posts/local-time";
import { PostCard } from "~/components/posts/post-card";
import { Card } from "~/components/ui/card";
import type { PostInfo } from "~/core/schemas/post";
import { api } from "~/lib/api";
import { REFRESH_MS, useCachedList } from "~/lib/list-cache";
import type { loader as rootLoader } from "~/root";
import type { Route } from "./+types/home";

/** How many posts the home page shows (of GET posts/latest, pinned first). */
const HOME_POSTS = 5;
const HOME_GAMES = 6;

export async function loader() {
  const posts = await latestPosts(createDb(env.DB));
  return { posts: posts.slice(0, HOME_POSTS) };
}

/** BasicGameInfoModel (api.md §4). */
interface BasicGame {
  id: number;
  title: string;
  summary: string;
  poster: string | null;
  start: number;
  end: number;
}

const fetchRecentGames = (signal: AbortSignal) =>
  api<{ data: BasicGame[] }>(`/api/game?count=${HOME_GAMES}`, { signal }).then((r) => (Array.isArray(r?.data) ? r.data : []));

/**
 * Recent games from GET /api/game in the browser, painted from the browser cache first and refreshed every
 * 5 minutes (rules.md §15); null while loading. An unavailable list shows as empty.
 */
function useRecentGames(): BasicGame[] | null {
  const { data, error } = useCachedList<BasicGame[] | null>("home-games", fetchRecentGames, {
    initial: null,
    fromStorage: true,
    refreshMs: REFRESH_MS.slow,
  });
  return data ?? (error ? [] : null);
}

/** How often the cards' state badges are brought up to date (a game starts or ends while the page is open). */
const PHASE_TICK_MS = 10_000;

function GameCard({ game, now }: { game: BasicGame; now: number | null }) {
  return (
    <li className="overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm dark:border-zinc-800 dark:bg-zinc-900/60">
      {game.poster ? <img src={game.poster} alt="" className="aspect-video w-full object-cover" /> : null}
      <div className="space-y-1 p-4">
        <div className="flex items-start justify-between gap-2">
          <h3 className="font-semibold wrap-anywhere">
            <Link to={`/games/${game.id}`} className="touch-target inline-flex items-center hover:text-primary-700 hover:underline dark:hover:text-primary-300">
              {game.title}
            </Link>
          </h3>
          {/* The same state as on /games (upcoming, running, ended), on the server's clock; after hydration. */}
          {now !== null ? <PhaseBadge phase={phaseOf(game, now)} /> : null}
        </div>
        {game.summary ? <p className="line-clamp-2 text-sm text-zinc-700 wrap-anywhere dark:text-zinc-300">{game.summary}</p> : null}
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          <LocalTime ms={game.start} /> – <LocalTime ms={game.end} />
        </p>
      </div>
    </li>
  );
}

const fetchLatestPosts = (signal: AbortSignal) =>
  api<PostInfo[]>("/api/posts/latest", { signal }).then((list) => (Array.isArray(list) ? list.slice(0, HOME_POSTS) : []));

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  // Server-rendered latest posts, kept fresh and cached in the browser (home refreshes every 5 min, rules.md §15).
  const { data: posts } = useCachedList("home-posts", fetchLatestPosts, { initial: loaderData.posts, refreshMs: REFRESH_MS.slow });
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const title = root?.config.title ?? t("app.name");
  const slogan = root?.config.slogan;
  const games = useRecentGames();
  const now = useNow(PHASE_TICK_MS);

  return (
    <div className="space-y-12">
      <section className="py-8 sm:py-14">
        <p className="text-sm font-semibold uppercase tracking-widest text-primary-700 dark:text-primary-300">
          {t("home.eyebrow")}
        </p>
        {/* Lines break between words, balanced: "Flagstaff へようこそ" left one kana alone on a phone's second line. */}
        <h1 className="mt-3 text-4xl font-bold tracking-tight break-keep text-balance wrap-anywhere sm:text-5xl">{t("home.welcome", { title })}</h1>
        {slogan ? <p className="mt-4 max-w-2xl text-lg text-zinc-700 dark:text-zinc-300">{slogan}</p> : null}
      </section>

      <section aria-labelledby="home-games" className="space-y-4">
        <div className="flex items-baseline justify-between gap-4">
          <h2 id="home-games" className="text-xl font-semibold tracking-tight">
            {t("home.recentGames")}
          </h2>
          <Link to="/games" className="touch-target inline-flex items-center text-sm text-primary-700 hover:underline dark:text-primary-300">
            {t("home.allGames")}
          </Link>
        </div>
        {games === null ? (
          <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
            {t("common.loading")}
          </p>
        ) : games.length === 0 ? (
          <Card className="text-center text-sm text-zinc-600 dark:text-zinc-400">{t("home.noGames")}</Card>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {games.map((game) => (
              <GameCard key={game.id} game={game} now={now} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="home-posts" className="space-y-4">
        <div className="flex items-baseline justify-between gap-4">
          <h2 id="home-posts" className="text-xl font-semibold tracking-tight">
            {t("home.latestPosts")}
          </h2>
          <Link to="/posts" className="touch-target inline-flex items-center text-sm text-primary-700 hover:underline dark:text-primary-300">
            {t("home.allPosts")}
          </Link>
        </div>
        {posts.length === 0 ? (
          <Card className="text-center text-sm text-zinc-600 dark:text-zinc-400">{t("home.noPosts")}</Card>
        ) : (
          <div className="space-y-4">
            {posts.map((post) => (
              <PostCard key={post.id} post={post} headingLevel={3} />
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
