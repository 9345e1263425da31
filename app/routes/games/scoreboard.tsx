import { env } from "cloudflare:workers";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useRouteLoaderData } from "react-router";
import { createDb } from "~/.server/db/client";
import { getCurrentUser } from "~/.server/auth/session";
import { scoreboardPageGame } from "~/.server/services/games";
import { GameTabs } from "~/components/games/game-tabs";
import { useNow, useTimeReached } from "~/components/games/time";
import { LiveNotices } from "~/components/games/live-notices";
import { boardFilterChanges, boardFilterFrom, knownDivision } from "~/components/scoreboard/board-filter";
import { BoardTable } from "~/components/scoreboard/board-table";
import { TimelineChart } from "~/components/scoreboard/timeline-chart";
import { SheetDownloads } from "~/components/monitor/download-button";
import { type BoardRefusal, useLiveBoard } from "~/components/scoreboard/use-live-board";
import { LoadingStatus } from "~/components/teams/loading";
import { Alert } from "~/components/ui/alert";
import { Card } from "~/components/ui/card";
import { LiveState } from "~/components/ui/live-state";
import { selectClass } from "~/components/ui/select";
import { roleRank } from "~/core/enums";
import { checkAccess } from "~/core/permissions";
import { GAME_NOT_STARTED } from "~/core/errors";
import { type ChallengeInfo, firstSolveTime } from "~/core/scoring/scoreboard";
import { useAddressFilter } from "~/lib/address-filter";
import { api } from "~/lib/api";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { loader as rootLoader } from "~/root";
import type { Route } from "./+types/scoreboard";

/**
 * /games/{id}/scoreboard: the live board (pushed deltas over /hub/game/{id}), public unless the game is
 * hidden. The division and the team search live in the address (`?division=<id>&q=<text>`).
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  // An unknown game is a 404 page (its board and feed would only ever answer "does not exist").
  const [game, user] = await Promise.all([scoreboardPageGame(createDb(env.DB), params.id), getCurrentUser(request, env)]);
  // What the board's first read would answer, known here: the page does not ask for a board (or open the
  // game's feed) only to be refused, which the browser logs as an error.
  const access = game.hidden ? checkAccess(user?.role ?? null, "Monitor") : "ok";
  const t = getInstance(context).getFixedT(null, "errors");
  const initial: BoardRefusal | null =
    access === "login"
      ? { status: 401, message: t("auth.login_required") }
      : access === "forbidden"
        ? { status: 403, message: t("auth.access_denied") }
        : game.started
          ? null
          : { status: GAME_NOT_STARTED, message: t("game.not_started") };
  return { pageTitle: getInstance(context).t("scoreboard.title"), gameId: game.gameId, hidden: game.hidden, initial, end: game.end, serverTime: Date.now() };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/**
 * The game's start and end (GET game/{id}), for the timeline's edges; null until read or when refused. Read
 * again when the board goes to or from "not started" (an admin moved the start).
 */
function useGameSpan(gameId: number, notStarted: boolean): { start: number; end: number } | null {
  const [span, setSpan] = useState<{ start: number; end: number } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api<{ start: number; end: number }>(`/api/game/${gameId}`, { signal: controller.signal }).then(
      (game) => setSpan({ start: game.start, end: game.end }),
      () => undefined,
    );
    return () => controller.abort();
  }, [gameId, notStarted]);
  return span;
}

export default function ScoreboardPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const monitor = root?.user != null && roleRank(root.user.role) >= roleRank("Monitor");
  const { board, error, socket, denied } = useLiveBoard(loaderData.gameId, loaderData.initial);
  // The filter lives in the address (a reload or a copied link keeps it) without running the loader again;
  // a division the game does not have shows all of them.
  const [params, setParams] = useAddressFilter();
  const search = params.toString();
  const filter = useMemo(() => boardFilterFrom(new URLSearchParams(search)), [search]);
  const division = board ? knownDivision(filter.division, board.divisions) : null;
  const challenges = useMemo(() => (board ? (Object.values(board.challenges).flat() as ChallengeInfo[]) : []), [board]);
  const timeline = board?.timelines.find((tl) => tl.divisionId === (division ?? 0));
  const notStarted = error?.status === GAME_NOT_STARTED;
  const span = useGameSpan(loaderData.gameId, notStarted);
  const now = useNow(60_000);
  const firstSolve = useMemo(() => (board ? firstSolveTime(board) : 0), [board]);
  // From the game's start to now (or its end); without the game's times, from the first solve to the last update.
  const start = span ? Math.min(span.start, firstSolve) : firstSolve;
  const end = board ? (span && now !== null ? Math.min(Math.max(now, board.updateTimeUtc), span.end) : board.updateTimeUtc) : 0;
  // After the end the ranking no longer moves (practice mode's solves score nothing): the board is final, and
  // says so instead of "Live" — from the moment the end passes, without a reload. The end as last read
  // (an organiser may have moved it), counted on the server's clock.
  const ended = useTimeReached(span?.end ?? loaderData.end, loaderData.serverTime);
  // A connection in trouble still says so: the board shown may then miss a late change (a review, a ban).
  const final = ended && (socket === "open" || socket === "connecting");

  return (
    <div className="space-y-4">
      <GameTabs gameId={loaderData.gameId} hidden={loaderData.hidden} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">{t("scoreboard.title")}</h1>
        <div className="flex items-center gap-3 text-sm">
          {monitor ? <SheetDownloads gameId={loaderData.gameId} start={span?.start} /> : null}
          {denied ? null : final ? (
            <span role="status" data-testid="board-final" className="text-sm font-medium whitespace-nowrap text-zinc-700 dark:text-zinc-300">
              {t("scoreboard.final")}
            </span>
          ) : (
            <LiveState state={socket} testId="board-socket" />
          )}
          <Link to={`/games/${loaderData.gameId}`} className="touch-target inline-flex items-center whitespace-nowrap text-primary-700 hover:underline dark:text-primary-300">
            <span aria-hidden="true" className="mr-1">←</span>
            {t("challenge.backToGame")}
          </Link>
        </div>
      </div>
      {/* Notices are read once there is a board: before the start the API refuses them (10001), as the board. */}
      {board && !denied ? <LiveNotices gameId={loaderData.gameId} /> : null}
      {error ? <Alert tone="error">{notStarted ? t("scoreboard.notStarted") : error.message}</Alert> : null}
      {!board && !error ? <LoadingStatus /> : null}
      {board ? (
        <>
          {board.divisions.length > 0 ? (
            <label className="flex items-center gap-2 text-sm">
              {t("scoreboard.division")}
              <select className={selectClass} value={division ?? ""} onChange={(e) => setParams(boardFilterChanges({ division: e.target.value === "" ? null : Number(e.target.value) }))}>
                <option value="">{t("scoreboard.allDivisions")}</option>
                {board.divisions.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <Card>
            <h2 className="mb-2 font-semibold">{t("scoreboard.timeline")}</h2>
            <TimelineChart timeline={timeline} start={start} end={end} label={t("scoreboard.timeline")} />
          </Card>
          <Card>
            <h2 id="board-ranking" className="mb-2 font-semibold">
              {t("scoreboard.ranking")}
            </h2>
            <BoardTable
              labelledBy="board-ranking"
              divisions={board.divisions}
              items={board.items}
              challenges={challenges}
              divisionId={division}
              query={filter.query}
              onQueryChange={(query) => setParams(boardFilterChanges({ query }))}
            />
          </Card>
        </>
      ) : null}
    </div>
  );
}
