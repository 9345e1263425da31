import { env } from "cloudflare:workers";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, type ShouldRevalidateFunctionArgs, useRevalidator, useSearchParams } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { createDb } from "~/.server/db/client";
import { requireGame } from "~/.server/services/games";
import { roomOf } from "~/.server/services/room";
import { boardFromDetails, type GameDetails, withPushedSolves } from "~/components/challenges/board-list";
import { ChallengeBoard } from "~/components/challenges/challenge-board";
import { useChallengeChanges } from "~/components/challenges/challenge-changes";
import { ChallengeView } from "~/components/challenges/challenge-view";
import { submitFlag } from "~/components/challenges/submit";
import { FinalResult } from "~/components/games/final-result";
import { GameTabs } from "~/components/games/game-tabs";
import { LiveNotices } from "~/components/games/live-notices";
import { useNow, useTimeReached, useWhileVisible } from "~/components/games/time";
import { LocalTime } from "~/components/posts/local-time";
import { type PushedVerdicts, usePushedVerdicts, VerdictMessage } from "~/components/verdict/verdict";
import { LoadingStatus } from "~/components/teams/loading";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { LiveState } from "~/components/ui/live-state";
import { GAME_ENDED, GAME_NOT_STARTED } from "~/core/errors";
import { closedBoardRecheck } from "~/core/game/closed-board";
import { parsePathId } from "~/core/http/path-id";
import type { GameNotice } from "~/core/protocol";
import type { ChallengeDetail, PlayerChallengeInfo } from "~/core/schemas/challenge";
import type { TeamResult } from "~/core/scoring/scoreboard";
import { LatestRead } from "~/core/ui/latest-read";
import { onlyParamChanged } from "~/lib/address-filter";
import { api, errorMessage, isApiError } from "~/lib/api";
import { useCachedList } from "~/lib/list-cache";
import { pageTitle } from "~/lib/meta";
import { pageReadsSince } from "~/lib/page-reads";
import { connectHub } from "~/lib/realtime";
import { serverNow } from "~/lib/server-clock";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/challenges";

type PageState =
  | { state: "ready"; challenges: PlayerChallengeInfo[]; gameTitle: string; end: number; practiceMode: boolean; serverTime: number; hidden: boolean }
  | { state: "notStarted"; start: number; gameTitle: string; serverTime: number; hidden: boolean }
  | { state: "ended"; gameTitle: string | null; hidden: boolean; result: TeamResult | null }
  | { state: "forbidden" | "banned" | "notJoined" | "leftTeam"; gameTitle: string | null; hidden: boolean };

/**
 * /games/{id}/challenges (Player): the team's challenge board; before the start only "not started". The
 * board comes from the game room's memory (the same GameDetailModel as GET game/{id}/details), so the
 * page costs one room call instead of counting 50,000 solves in D1 (BENCHMARKS.md, SSR TTFB).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, env, "User");
  const t = getInstance(context).t;
  const gameId = parsePathId(params.id);
  if (gameId === null) throw new Response("Not Found", { status: 404 });
  const base = { pageTitle: t("challenge.pageTitle"), gameId, userId: user.id };
  const details = await roomOf(env, gameId).details(gameId, user.id);
  if (details.ok) {
    const page: PageState = { state: "ready", challenges: boardFromDetails(JSON.parse(details.body) as GameDetails), gameTitle: details.gameTitle, end: details.end, practiceMode: details.practiceMode, serverTime: Date.now(), hidden: details.hidden };
    return { ...base, ...page };
  }
  if (details.status === 404) throw new Response("Not Found", { status: 404 });
  const game = await requireGame(createDb(env.DB), gameId);
  let page: PageState;
  // Ended without practice mode: nothing to join or play, whoever asks (the room checks the player first).
  const ended = game.endTime <= Date.now() && !game.practiceMode;
  if (details.status === GAME_NOT_STARTED) page = { state: "notStarted", start: game.startTime, gameTitle: game.title, serverTime: Date.now(), hidden: game.hidden };
  else if (details.code === "game.banned") page = { state: "banned", gameTitle: game.title, hidden: game.hidden };
  // The team's final result stands in for the board (null: the user played for no accepted team).
  else if (details.status === GAME_ENDED || ended) page = { state: "ended", gameTitle: game.title, hidden: game.hidden, result: await roomOf(env, gameId).teamResult(gameId, user.id) };
  // A member of a team already in the game who has not joined it yet is told to join, not that the team
  // was not accepted; one who left the team they played for, that they play no more.
  else page = { state: details.code === "submission.not_joined" ? "notJoined" : details.code === "submission.left_team" ? "leftTeam" : "forbidden", gameTitle: game.title, hidden: game.hidden };
  return { ...base, ...page };
}

/** Opening or closing a challenge (`?challenge=`) is a step of the history, not a reason to load the board again. */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return onlyParamChanged(currentUrl, nextUrl, CHALLENGE_PARAM) ? false : defaultShouldRevalidate;
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/**
 * The board list: server-rendered, then refreshed every 10 s from GET game/{id}/details (keeping the previous
 * list meanwhile) and cached in the browser per user and game (rules.md §15).
 */
function useBoard(gameId: number, userId: string | number, initial: PlayerChallengeInfo[], solvedNow: Set<number>, end: number) {
  const { data, refresh, error } = useCachedList(
    `game-challenges:${userId}:${gameId}`,
    (signal) => api<GameDetails>(`/api/game/${gameId}/details`, { signal }).then(boardFromDetails),
    { initial },
  );
  // A challenge the team just solved is marked at once, from its pushed verdict (not scored after the end).
  const challenges = useMemo(() => withPushedSolves(data, solvedNow, end, serverNow()), [data, solvedNow, end]);
  return { challenges, refresh, error };
}

/** rules.md §15: an open challenge is read again every 120 s (and at once when a hint is announced). */
const DETAIL_REFRESH_MS = 120_000;

/** One challenge's detail; keyed by id by its parent so each challenge starts from a fresh state. */
function DetailPanel({
  gameId,
  challengeId,
  verdicts,
  hints,
  changes,
  solved,
  unscored,
  ended,
  containerRemovedAt,
  boardScore,
  onClose,
  onSolved,
}: {
  gameId: number;
  challengeId: number;
  /** The challenge's value on the board list: when another team's solve moves it, the panel reads again. */
  boardScore: number | undefined;
  /** The game has ended (practice mode: play goes on, and every accepted flag reads "not scored"). */
  ended: boolean;
  containerRemovedAt: number | null;
  /** The team has solved it: the flag box gives way to a "solved" line. */
  solved: boolean;
  /** That solve earned no points: the line says so, as the card does. */
  unscored: boolean;
  verdicts: PushedVerdicts;
  /** Counts the hints announced while the page is open: each one reads the challenge again. */
  hints: number;
  /**
   * Counts the pushes saying this challenge may have changed (an organiser's edit, the team's container
   * started, extended or destroyed, a reconnection): each one reads it again.
   */
  changes: number;
  onClose: () => void;
  /** A flag sent from this panel was accepted: the board reads its new values and solve counts. */
  onSolved: () => void;
}) {
  const { t } = useTranslation();
  const now = useNow(30_000);
  const [detail, setDetail] = useState<ChallengeDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<number | null>(null);
  // Reads answer in any order (the one an accepted flag sends is not the effect's, which a hint aborts): only
  // the latest read's answer is shown, so one made before a hint does not take it away again.
  const [reads] = useState(() => new LatestRead());

  const load = useCallback(
    (signal?: AbortSignal) => {
      const read = reads.begin();
      return api<ChallengeDetail>(`/api/game/${gameId}/challenges/${challengeId}`, { signal })
        .then((answer) => {
          if (!reads.settle(read)) return;
          setDetail(answer);
          // A failure of an earlier reading (the server was away) is over.
          setError(null);
        })
        .catch((err: unknown) => {
          if (reads.settle(read) && !signal?.aborted) setError(errorMessage(err));
        });
    },
    [gameId, challengeId, reads],
  );

  // Read when opened, every 120 s while the tab is seen (and when it is seen again), when a hint is
  // announced (`hints` changes), when the board list shows another value (its card and this panel agree),
  // and when the game's feed says the challenge or the team's container changed (`changes`).
  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    const again = () => {
      if (document.visibilityState === "visible") void load(controller.signal);
    };
    const timer = setInterval(again, DETAIL_REFRESH_MS);
    document.addEventListener("visibilitychange", again);
    return () => {
      controller.abort();
      clearInterval(timer);
      document.removeEventListener("visibilitychange", again);
    };
  }, [load, hints, boardScore, changes]);

  return (
    <Card className="space-y-4" aria-labelledby="challenge-title">
      <div className="flex items-start justify-between gap-2">
        <h2 id="challenge-title" className="min-w-0 text-xl font-semibold wrap-anywhere">
          {detail?.title ?? ""}
        </h2>
        <Button variant="ghost" className="shrink-0 px-2 py-1" onClick={onClose}>
          {t("challenge.close")}
        </Button>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {!detail && !error ? <LoadingStatus /> : null}
      {detail ? (
        <ChallengeView
          detail={detail}
          gameId={gameId}
          now={now}
          reload={() => void load()}
          solved={solved}
          unscored={unscored}
          containerRemovedAt={containerRemovedAt}
          onRefused={() => setSubmitted(null)}
          submit={async (flag) => {
            try {
              const id = await submitFlag(gameId, detail.id, flag);
              setSubmitted(id);
              // Each stored submission is an attempt. A read on its way was made before it: it is read again.
              setDetail((d) => d && { ...d, attempts: d.attempts + 1 });
              if (reads.pending) void load();
            } catch (err) {
              // Refused (attempts used up meanwhile, deadline…): the server's count is the truth.
              if (detail.limit > 0) void load();
              throw err;
            }
          }}
        />
      ) : null}
      {submitted !== null && detail ? (
        // Keyed apart from its siblings: a bare submission id once equalled the challenge view's key (the
        // challenge id), and React then left copies of the view on the page.
        <VerdictMessage
          key={`verdict-${submitted}`}
          gameId={gameId}
          challengeId={detail.id}
          submissionId={submitted}
          pushed={verdicts.statuses}
          ended={ended}
          onAccepted={() => {
            // The solve moves the value and the count at once (they waited for the next refresh).
            void load();
            onSolved();
          }}
        />
      ) : null}
    </Card>
  );
}

/** The open challenge is in the address: a link opens it, Back closes it. */
const CHALLENGE_PARAM = "challenge";

function useSelectedChallenge(): [number | null, (id: number | null, replace?: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get(CHALLENGE_PARAM));
  const selected = Number.isSafeInteger(raw) && raw > 0 ? raw : null;
  const select = useCallback(
    (id: number | null, replace = false) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (id === null) next.delete(CHALLENGE_PARAM);
          else next.set(CHALLENGE_PARAM, String(id));
          return next;
        },
        // Opening one is a step Back undoes; closing one that vanished replaces it.
        { preventScrollReset: true, replace },
      ),
    [setParams],
  );
  return [selected, select];
}

/**
 * Reads the page's data again when `due` turns true; with `everyMs`, every so often while the tab is visible
 * and at once when it becomes visible; with `feed`, when the game's feed tells the board's readers to
 * refetch (a review accepted the team or lifted its suspension) or may have missed such a message.
 *
 * The feed is a socket of this page's own, not the page's shared connection (app/lib/realtime.ts): one
 * opened before the acceptance carries no team and never gains one (core/socket-access), and the board
 * shown next opens its own as the team's member, which its verdicts need.
 */
function useRecheck(due: boolean, everyMs: number | null, feed: string | null) {
  const { revalidate } = useRevalidator();
  const revalidateRef = useRef(revalidate);
  useEffect(() => {
    revalidateRef.current = revalidate;
  });
  useEffect(() => {
    if (due) void revalidateRef.current();
  }, [due]);
  useWhileVisible(() => void revalidate(), everyMs);
  useEffect(() => {
    if (!feed) return;
    return connectHub(feed, {
      since: pageReadsSince(),
      onMessage: (message) => {
        if (message.type === "scoreboard" && message.data.refetch) void revalidateRef.current();
      },
      onResync: () => void revalidateRef.current(),
    });
  }, [feed]);
}

/** Stands for the time in the "not started" line, which LocalTime then writes. */
const TIME_SLOT = "\u0000";

/**
 * "Not started … challenges open at {time}": the time in the browser's zone through LocalTime (the server
 * knows no zone, and a time it wrote would not match the browser's at hydration).
 */
function NotStartedMessage({ start }: { start: number }) {
  const { t } = useTranslation();
  const [before, after = ""] = t("challenge.notStarted", { time: TIME_SLOT }).split(TIME_SLOT);
  return (
    <>
      {before}
      <LocalTime ms={start} />
      {after}
    </>
  );
}

export default function GameChallengesPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [selected, setSelected] = useSelectedChallenge();
  const data = loaderData;
  const back = (
    <Link to={`/games/${data.gameId}`} className="touch-target inline-flex items-center text-sm text-primary-700 hover:underline dark:text-primary-300">
      ← {data.gameTitle || t("challenge.backToGame")}
    </Link>
  );
  // The start or the end passes while the page is open: the page reads its data again and shows what a
  // reload would (open at the start; closed at the end without practice mode, unless the organisers moved
  // the end later meanwhile: then play goes on until the new one).
  const started = useTimeReached(data.state === "notStarted" ? data.start : null, data.state === "notStarted" ? data.serverTime : 0);
  const ended = useTimeReached(data.state === "ready" ? data.end : null, data.state === "ready" ? data.serverTime : 0);
  // No board shown: the organisers may move the start or the end, turn practice mode on or delete the game,
  // and a review may accept the team or lift its suspension; the page finds out by itself.
  const recheck = data.state === "ready" ? null : closedBoardRecheck(data.state, data.hidden);
  useRecheck(started || (ended && data.state === "ready" && !data.practiceMode), recheck?.everyMs ?? null, recheck?.listen ? `/hub/game/${data.gameId}` : null);
  if (data.state !== "ready") {
    const message =
      data.state === "ended" ? (
        t("challenge.ended")
      ) : data.state === "notStarted" ? (
        <NotStartedMessage start={data.start} />
      ) : data.state === "banned" ? (
        t("challenge.banned")
      ) : data.state === "notJoined" ? (
        t("challenge.notJoined")
      ) : data.state === "leftTeam" ? (
        t("challenge.leftTeam")
      ) : (
        t("challenge.notPlayer")
      );
    return (
      <div className="space-y-4">
        <GameTabs gameId={data.gameId} hidden={data.hidden} />
        {back}
        <h1 className="text-2xl font-semibold">{t("challenge.pageTitle")}</h1>
        {/* Play being over is no error: the game ended as planned. */}
        <Alert tone={data.state === "notStarted" || data.state === "ended" ? "info" : "error"}>{message}</Alert>
        {data.state === "ended" && data.result ? <FinalResult gameId={data.gameId} result={data.result} boardLink={!data.hidden} /> : null}
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <GameTabs gameId={data.gameId} hidden={data.hidden} />
      {back}
      <h1 className="text-2xl font-semibold">{t("challenge.pageTitle")}</h1>
      {/* Play goes on after the end in practice mode, for no points: the page says so (the overview does too). */}
      {ended && data.practiceMode ? <Alert tone="info">{t("challenge.practiceOpen")}</Alert> : null}
      <Board gameId={data.gameId} userId={data.userId} initial={data.challenges} end={data.end} ended={ended} containerRemovedAt={data.practiceMode ? null : data.end} selected={selected} onSelect={setSelected} />
    </div>
  );
}

function Board({
  gameId,
  userId,
  initial,
  end,
  ended,
  containerRemovedAt,
  selected,
  onSelect,
}: {
  gameId: number;
  userId: string | number;
  initial: PlayerChallengeInfo[];
  end: number;
  ended: boolean;
  /** When the game removes every team's container: its end, unless it is in practice mode (null). */
  containerRemovedAt: number | null;
  selected: number | null;
  onSelect: (id: number | null, replace?: boolean) => void;
}) {
  const { t } = useTranslation();
  // The feed may have missed messages (a reconnect, a gap, a message sent while the page loaded) or the
  // server ended it (the team's participation changed, signed out elsewhere): the board is read again, so
  // the page shows what the API says, and why, rather than only "live updates stopped".
  const refreshBoard = useRef<() => void>(() => undefined);
  const revalidator = useRevalidator();
  const rereadPage = useRef<() => void>(() => undefined);
  // A refetch pushed for the board (the organisers moved the start or the end, changed a challenge) reads the
  // list at once: a game moved out of play is refused, and the page shows what a reload would. The page's own
  // data is read again too: an end moved before now in practice mode is not refused, and the page then says
  // that play is practice (its banner, and "not scored" for the next flags).
  const verdicts = usePushedVerdicts(
    gameId,
    () => refreshBoard.current(),
    () => {
      refreshBoard.current();
      rereadPage.current();
    },
  );
  const { challenges, refresh, error } = useBoard(gameId, userId, initial, verdicts.solved, end);
  useEffect(() => {
    refreshBoard.current = () => void refresh();
    rereadPage.current = () => void revalidator.revalidate();
  });
  // Refused while the page is open (the team was suspended, or taken off the game): say so instead of a
  // board that only fails when a flag is sent.
  const refused = isApiError(error) && error.status === 403 ? errorMessage(error) : null;
  // Play is over or not yet on (practice mode turned off after the end, the end moved earlier or the start
  // later while the page was open), the game was deleted, the user signed out elsewhere, or the team was
  // suspended or taken off the game: the page reads its data again and shows what a reload would ("ended",
  // "not started" until the new start, the game's 404, the sign-in page, or why there is no board — which
  // then watches for the team's return and shows a new board, with a socket opened as the team's member).
  const over = isApiError(error) && (error.status === GAME_ENDED || error.status === GAME_NOT_STARTED || error.status === 404 || error.status === 401 || error.status === 403);
  useEffect(() => {
    if (over) void revalidator.revalidate();
    // Once per refusal: `revalidator` changes with its own state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [over]);
  // Below the two-column layout the panel opens under the board: bring it into view.
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (selected === null || window.matchMedia("(min-width: 64rem)").matches) return;
    panel.current?.scrollIntoView({ block: "start" });
  }, [selected]);
  const [hints, setHints] = useState(0);
  const onNotice = (notice: GameNotice) => {
    if (notice.type === "NewChallenge" || notice.type === "NewHint") void refresh();
    if (notice.type === "NewHint") setHints((n) => n + 1);
  };
  // The open challenge left the board (disabled or deleted by the organisers): its panel closes and says so,
  // until the board lists it again (enabled again) or another challenge is opened.
  const [closed, setClosed] = useState<{ id: number; title: string } | null>(null);
  const titles = useRef(new Map<number, string>());
  // The challenge whose panel this page is closing: the address changes once the navigation is done, which a
  // revalidation of the page (a board refetch) may hold up; it is left once, not at every render meanwhile
  // (each new navigation to the same address would read the page again, and again).
  const leaving = useRef<number | null>(null);
  useEffect(() => {
    if (selected !== null && !challenges.some((c) => c.id === selected)) {
      // Seen on this page before: the organisers closed it. Never seen (a stale link): just not opened.
      const title = titles.current.get(selected);
      if (title !== undefined) setClosed((shown) => (shown?.id === selected ? shown : { id: selected, title }));
      if (leaving.current !== selected) onSelect(null, true);
      leaving.current = selected;
    } else {
      leaving.current = null;
    }
    setClosed((shown) => (shown !== null && challenges.some((c) => c.id === shown.id) ? null : shown));
    for (const c of challenges) titles.current.set(c.id, c.title);
  }, [challenges, selected, onSelect]);
  const changes = useChallengeChanges(gameId, selected);
  const open = selected === null ? undefined : challenges.find((c) => c.id === selected);
  // Solved, the flag box gives way to the "solved" line: the focus it had stays in the panel.
  const solvedOpen = open?.solvedByMe ?? false;
  useEffect(() => {
    if (solvedOpen && (document.activeElement === null || document.activeElement === document.body)) panel.current?.focus({ preventScroll: true });
  }, [solvedOpen]);
  // Opening a challenge takes the focus into its panel (it comes after the whole board: the keyboard
  // need not pass every other challenge to reach the flag box); closing it (the button or Escape) gives
  // the focus back to its card. Done once the address has changed and the page has drawn it.
  const focusAfter = useRef<"panel" | number | null>(null);
  useEffect(() => {
    const target = focusAfter.current;
    focusAfter.current = null;
    if (target === "panel" && selected !== null) panel.current?.focus({ preventScroll: window.matchMedia("(min-width: 64rem)").matches });
    else if (typeof target === "number" && selected === null) document.querySelector<HTMLElement>(`[data-challenge-card="${target}"]`)?.focus();
  }, [selected]);
  const close = (id: number) => {
    focusAfter.current = id;
    onSelect(null);
  };
  if (refused) return <Alert tone="error">{refused}</Alert>;
  return (
    <>
      <div className="-mt-2 flex justify-end">
        <LiveState state={verdicts.socket} testId="challenges-socket" />
      </div>
      <LiveNotices gameId={gameId} onNotice={onNotice} quiet={selected !== null} />
      {closed !== null ? (
        <div data-testid="challenge-closed">
          <Alert tone="error">{t("challenge.closedByOrganisers", { title: closed.title })}</Alert>
        </div>
      ) : null}
      {challenges.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("challenge.empty")}</p>
      ) : (
        // grid-cols-1 (minmax(0, 1fr)), not the implicit auto column: a long unbroken word in a description
        // widened the page below lg.
        <div className={`grid grid-cols-1 gap-6 ${selected !== null ? "lg:grid-cols-2" : ""}`}>
          <ChallengeBoard
            challenges={challenges}
            selectedId={selected}
            onSelect={(id) => {
              setClosed(null);
              focusAfter.current = "panel";
              onSelect(id);
            }}
          />
          {selected !== null ? (
            <div
              ref={panel}
              id="challenge-panel"
              tabIndex={-1}
              className="scroll-mt-4 focus:outline-none lg:sticky lg:top-16 lg:self-start"
              onKeyDown={(event) => {
                // Not from a dialog inside the panel (a confirmation): Escape closes that dialog only.
                if (event.key === "Escape" && !event.defaultPrevented && !(event.target as HTMLElement).closest("dialog")) close(selected);
              }}
            >
              <DetailPanel
                key={selected}
                gameId={gameId}
                challengeId={selected}
                solved={open?.solvedByMe ?? false}
                unscored={open?.solvedUnscored ?? false}
                boardScore={open?.score}
                ended={ended}
                containerRemovedAt={containerRemovedAt}
                verdicts={verdicts}
                hints={hints}
                changes={changes}
                onClose={() => close(selected)}
                onSolved={() => void refresh()}
              />
            </div>
          ) : null}
        </div>
      )}
    </>
  );
}
