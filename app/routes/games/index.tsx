import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PhaseBadge } from "~/components/games/badges";
import { formatCountdown, formatDateTime, phaseOf, useNow } from "~/components/games/time";
import { LoadingStatus } from "~/components/teams/loading";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import type { BasicGameInfo } from "~/core/schemas/game";
import type { ArrayResponse } from "~/core/schemas/team";
import { arrayResponseOf, recordWith } from "~/core/ui/list-shape";
import { olderPageSkips, uniqueById } from "~/core/ui/paged-list";
import { api, errorMessage } from "~/lib/api";
import { loadCached, REFRESH_MS, unexpectedAnswer, useCachedList } from "~/lib/list-cache";
import { pageTitle } from "~/lib/meta";
import { useOneAtATime } from "~/lib/one-at-a-time";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/index";

export async function loader({ context }: Route.LoaderArgs) {
  return { pageTitle: getInstance(context).t("games.title") };
}

const GAMES_KEY = "games";
/** The API's largest page (api.md §10): the first one is cached and refreshed, older ones load on demand. */
const PAGE = 50;
const fetchGames = (signal?: AbortSignal, skip = 0) => api<ArrayResponse<BasicGameInfo>>(`/api/game?count=${PAGE}&skip=${skip}`, { signal });
/** What the page reads of the list: anything else is neither cached nor shown. */
const GAMES_SHAPE = arrayResponseOf(recordWith<BasicGameInfo>({ id: "number", title: "string", start: "number", end: "number" }));
/** One page after the first, of the shape the page reads. */
async function fetchOlder(skip: number): Promise<ArrayResponse<BasicGameInfo>> {
  const page = await fetchGames(undefined, skip);
  if (!GAMES_SHAPE(page)) throw unexpectedAnswer();
  return page;
}

/** The pages after the first that are shown, and the read of the first page they continue. */
interface OlderPages {
  after: ArrayResponse<BasicGameInfo>;
  /** The rows those pages' reads brought, in order: the next page is read at skip PAGE + rows.length. */
  rows: BasicGameInfo[];
}

/** The list paints from the browser cache on reload and refreshes in the background (rules.md §15). */
export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  const [server, games] = await Promise.all([serverLoader(), loadCached(GAMES_KEY, () => fetchGames(request.signal), GAMES_SHAPE)]);
  return { ...server, games };
}
clientLoader.hydrate = true as const;

// No HydrateFallback: the page's title is in the server's HTML (DECISIONS.md, "Server-side titles").
export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** "Starts in …" / "Ends in …" / "Ended", ticking. */
export function GameCountdown({ game, now }: { game: { start: number; end: number }; now: number | null }) {
  const { t } = useTranslation();
  if (now === null) return null;
  const phase = phaseOf(game, now);
  const text =
    phase === "NotStarted"
      ? t("games.startsIn", { time: formatCountdown(game.start - now, t) })
      : phase === "Running"
        ? t("games.endsIn", { time: formatCountdown(game.end - now, t) })
        : t("games.endedAt", { time: formatDateTime(game.end) });
  return <span className="tabular-nums">{text}</span>;
}

function GameCard({ game, now }: { game: BasicGameInfo; now: number | null }) {
  const { t } = useTranslation();
  return (
    <li>
      <Link
        to={`/games/${game.id}`}
        className="group flex h-full flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm transition hover:border-primary-400 dark:border-zinc-800 dark:bg-zinc-900/60 dark:hover:border-primary-600"
      >
        <div className="aspect-[16/7] bg-gradient-to-br from-primary-500/30 to-zinc-200 dark:to-zinc-800">
          {game.poster ? <img src={game.poster} alt="" className="h-full w-full object-cover" loading="lazy" /> : null}
        </div>
        <div className="flex flex-1 flex-col gap-2 p-4">
          <div className="flex items-start justify-between gap-2">
            <h2 className="text-lg font-semibold wrap-anywhere group-hover:text-primary-700 dark:group-hover:text-primary-300">{game.title}</h2>
            {now !== null ? <PhaseBadge phase={phaseOf(game, now)} /> : null}
          </div>
          {game.summary ? <p className="line-clamp-3 text-sm text-zinc-600 wrap-anywhere dark:text-zinc-400">{game.summary}</p> : null}
          <div className="mt-auto space-y-0.5 pt-2 text-xs text-zinc-600 dark:text-zinc-400">
            <p className="tabular-nums">
              {formatDateTime(game.start)} – {formatDateTime(game.end)}
            </p>
            {/* Left out of the link's name: a name that changes every second is read again and again; the
                dates above and the phase say the same. */}
            <p aria-hidden className="font-medium text-zinc-800 dark:text-zinc-200">
              <GameCountdown game={game} now={now} />
            </p>
            {game.limit > 0 ? <p>{t("games.memberLimit", { count: game.limit })}</p> : null}
          </div>
        </div>
      </Link>
    </li>
  );
}

export default function GamesPage({ loaderData }: Route.ComponentProps) {
  // Server-rendered data carries no API data; the browser loader fills it in.
  if (!("games" in loaderData)) return <LoadingStatus />;
  return <GamesPageView loaderData={loaderData} />;
}

function GamesPageView({ loaderData }: { loaderData: Awaited<ReturnType<typeof clientLoader>> }) {
  const { t } = useTranslation();
  const now = useNow();
  const { data: games } = useCachedList(GAMES_KEY, fetchGames, {
    initial: loaderData.games.data,
    stale: loaderData.games.fromCache,
    refreshMs: REFRESH_MS.slow,
    shape: GAMES_SHAPE,
  });
  // Pages after the first, newest first like it. When the first page is read again they are read again
  // too, as many as were loaded: the list may have moved under them (a new game pushes one off the first
  // page, a deleted one pulls one onto it). Until that read lands, the first page they were read with stays
  // shown with them, so no game is left out or shown twice meanwhile.
  const [older, setOlder] = useState<OlderPages>({ after: games, rows: [] });
  // What the next read continues from, set as each read lands (before the page renders it).
  const olderRef = useRef(older);
  const latestFirst = useRef(games);
  const showOlder = useCallback((next: OlderPages) => {
    olderRef.current = next;
    setOlder(next);
  }, []);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Reads of the older pages run one after another: "Older games" clicked while they are read again
  // continues from what that read brought, never from rows it replaced.
  const oneAtATime = useOneAtATime();

  useEffect(() => {
    latestFirst.current = games;
    void oneAtATime(async () => {
      // A later first page has come meanwhile: its own read follows.
      if (latestFirst.current !== games || olderRef.current.after === games) return;
      try {
        const rows: BasicGameInfo[] = [];
        for (const skip of olderPageSkips(olderRef.current.rows.length, PAGE)) {
          const page = await fetchOlder(skip);
          rows.push(...page.data);
          if (page.data.length < PAGE) break;
        }
        showOlder({ after: games, rows });
        setError(null);
      } catch (err) {
        setError(errorMessage(err));
      }
    });
  }, [games, oneAtATime, showOlder]);

  // Before the older pages are read again for a new first page, they are shown with the first page they
  // continue; without older pages the first page is shown as it comes.
  const view = older.rows.length === 0 ? { after: games, rows: older.rows } : older;
  const shown = uniqueById([...view.after.data, ...view.rows]);
  const more = view.after.total > PAGE + view.rows.length;
  const loadMore = () => {
    setLoading(true);
    void oneAtATime(async () => {
      try {
        const { after, rows } = olderRef.current;
        const page = await fetchOlder(PAGE + rows.length);
        showOlder({ after, rows: [...rows, ...page.data] });
        setError(null);
      } catch (err) {
        setError(errorMessage(err));
      }
    }).finally(() => setLoading(false));
  };
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("games.title")}</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("games.subtitle")}</p>
      </div>
      {shown.length === 0 ? (
        <Card className="text-center">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("games.empty")}</p>
        </Card>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {shown.map((g) => (
            <GameCard key={g.id} game={g} now={now} />
          ))}
        </ul>
      )}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {more ? (
        <Button variant="secondary" disabled={loading} onClick={loadMore}>
          {loading ? t("common.loading") : t("games.loadMore")}
        </Button>
      ) : null}
    </div>
  );
}
