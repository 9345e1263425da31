import { env } from "cloudflare:workers";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useRevalidator, useRouteLoaderData } from "react-router";
import { getCurrentUser } from "~/.server/auth/session";
import { createDb } from "~/.server/db/client";
import { gamePageEnd } from "~/.server/services/games";
import { roomOf } from "~/.server/services/room";
import { PhaseBadge, StatusBadge } from "~/components/games/badges";
import { FinalResult } from "~/components/games/final-result";
import { GameTabs } from "~/components/games/game-tabs";
import { JoinDialog } from "~/components/games/join-dialog";
import { NoticesPanel } from "~/components/games/notices-panel";
import { formatCountdown, formatDateTime, phaseOf, useNow, useWhileVisible } from "~/components/games/time";
import { Markdown } from "~/components/markdown";
import { ConfirmDialog } from "~/components/teams/dialog";
import { WriteupPanel } from "~/components/writeups/writeup-panel";
import { LoadingStatus } from "~/components/teams/loading";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { roleRank } from "~/core/enums";
import { canPlay } from "~/core/game/phase";
import { parsePathId } from "~/core/http/path-id";
import type { DetailedGameInfo } from "~/core/schemas/game";
import type { TeamResult } from "~/core/scoring/scoreboard";
import type { TeamInfo } from "~/core/schemas/team";
import { api, errorMessage, isApiError } from "~/lib/api";
import { useIdempotencyKey } from "~/lib/idempotency";
import { pageTitle } from "~/lib/meta";
import { useHubSocket } from "~/lib/realtime";
import { getInstance } from "~/middleware/i18next";
import type { loader as rootLoader } from "~/root";
import type { Route } from "./+types/detail";

/**
 * An unknown game answers 404 from the server already (the page itself is read in the browser). After the
 * end, a player's team's final result comes from the game's room (no API has it once play is over).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const [user, game] = await Promise.all([getCurrentUser(request, env), gamePageEnd(createDb(env.DB), params.id)]);
  const result: TeamResult | null = user !== null && game.end <= Date.now() ? await roomOf(env, game.gameId).teamResult(game.gameId, user.id) : null;
  return { pageTitle: getInstance(context).t("games.detailTitle"), signedIn: user !== null, result };
}

export async function clientLoader({ request, params, serverLoader }: Route.ClientLoaderArgs) {
  const id = parsePathId(params.id);
  if (id === null) throw new Response("Not Found", { status: 404 });
  const server = serverLoader();
  const [serverData, game, teams] = await Promise.all([
    server,
    api<DetailedGameInfo>(`/api/game/${id}`, { signal: request.signal }).catch((error: unknown) => {
      if (isApiError(error) && error.status === 404) throw new Response("Not Found", { status: 404 });
      throw error;
    }),
    // Only someone signed in has teams: an anonymous visitor would be answered 401 on every refresh.
    server.then(({ signedIn }) => (signedIn ? api<TeamInfo[]>("/api/team", { signal: request.signal }).catch(() => [] as TeamInfo[]) : [])),
  ]);
  return { ...serverData, game, teams };
}
clientLoader.hydrate = true as const;

// No HydrateFallback: the page's title is in the server's HTML (DECISIONS.md, "Server-side titles").
export function meta({ matches, loaderData }: Route.MetaArgs) {
  const game = (loaderData as { game?: DetailedGameInfo } | undefined)?.game;
  return pageTitle(matches, game?.title ?? loaderData?.pageTitle);
}

/** How often an open overview reads the game again (an admin may move its times; a review may accept the team). */
const OVERVIEW_REFRESH_MS = 30_000;

/**
 * Keeps the overview's game and team status current: every 30 s while the tab is visible, at once when it
 * becomes visible, and when the game starts or ends by the clock (the end may have been moved meanwhile).
 */
function useOverviewRefresh(revalidate: () => Promise<void>, phase: string | null) {
  const revalidateRef = useRef(revalidate);
  useEffect(() => {
    revalidateRef.current = revalidate;
  });
  useWhileVisible(() => void revalidateRef.current(), OVERVIEW_REFRESH_MS);
  const lastPhase = useRef(phase);
  useEffect(() => {
    if (lastPhase.current !== null && phase !== null && phase !== lastPhase.current) void revalidateRef.current();
    lastPhase.current = phase;
  }, [phase]);
}

export default function GameDetailPage({ loaderData }: Route.ComponentProps) {
  // Server-rendered data carries no API data; the browser loader fills it in.
  if (!("game" in loaderData)) return <LoadingStatus />;
  return <GameDetailPageView loaderData={loaderData} />;
}

function GameDetailPageView({ loaderData }: { loaderData: Awaited<ReturnType<typeof clientLoader>> }) {
  const { t } = useTranslation();
  const { revalidate } = useRevalidator();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const user = root?.user ?? null;
  const { game, teams, result } = loaderData;
  const now = useNow();
  const [joining, setJoining] = useState(false);
  const joinKeys = useIdempotencyKey();
  const [leaving, setLeaving] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // What this page's join or leave answered. It stays through the page's own reading after the action (which
  // shows the status it led to) and goes when a later reading shows the status moved on (an admin's review):
  // "waiting for review" beside an Accepted badge would contradict it.
  const [outcome, setOutcome] = useState<{ text: string; status: string | null } | null>(null);
  const message = outcome?.text ?? null;
  const setMessage = (text: string | null) => setOutcome(text === null ? null : { text, status: null });
  const readGame = useRef(game);
  useEffect(() => {
    if (readGame.current === game) return;
    readGame.current = game;
    setOutcome((o) => (o === null || o.status === game.status ? o : o.status === null ? { ...o, status: game.status } : null));
  }, [game]);
  const messageRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) messageRef.current?.focus();
  }, [message]);

  const phase = now === null ? null : phaseOf(game, now);
  useOverviewRefresh(revalidate, phase);
  // The organisers' changes of the game reach open boards as a refetch: the overview reads the game again
  // then (a start moved later, an end moved earlier) instead of at its next 30-s read.
  const privileged = user !== null && roleRank(user.role) >= roleRank("Monitor");
  const mayReadNotices = !game.hidden || privileged || game.status === "Accepted";
  useHubSocket(mayReadNotices && phase !== null && phase !== "NotStarted" ? `/hub/game/${game.id}` : null, {
    onMessage: (pushed) => {
      if (pushed.type === "scoreboard" && pushed.data.refetch) void revalidate();
    },
  });
  const joinClosed = phase === "Ended" && !game.practiceMode;
  // The challenges are open while the game runs, and after it in practice mode only (rules.md §1).
  const playable = now !== null && canPlay({ startTime: game.start, endTime: game.end, practiceMode: game.practiceMode }, now);
  // A member who left the team they played this game for stays registered through it: no other team joins.
  const canJoin = user !== null && (game.status === "Unsubmitted" || game.status === "Rejected") && !joinClosed && game.leftTeamName === null;
  const canLeave = game.status === "Pending" || game.status === "Rejected";
  const division = game.divisions.find((d) => d.id === game.division);

  async function leave() {
    setBusy(true);
    setError(null);
    try {
      const result = await api<{ title: string }>(`/api/game/${game.id}`, { method: "DELETE" });
      setLeaving(false);
      setMessage(result.title);
      void revalidate();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <GameTabs gameId={game.id} hidden={game.hidden} />
      {game.poster ? <img src={game.poster} alt="" className="max-h-72 w-full rounded-lg object-cover" /> : null}
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere">{game.title}</h1>
            {phase ? <PhaseBadge phase={phase} /> : null}
            {game.hidden ? <span className="text-xs text-zinc-600 dark:text-zinc-400">{t("games.hidden")}</span> : null}
          </div>
          {game.summary ? <p className="text-zinc-600 wrap-anywhere dark:text-zinc-400">{game.summary}</p> : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {game.status !== "Unsubmitted" ? <StatusBadge status={game.status} /> : null}
          {user === null ? (
            <Link className={buttonClass("primary")} to={`/account/login?from=${encodeURIComponent(`/games/${game.id}`)}`}>
              {t("games.loginToJoin")}
            </Link>
          ) : null}
          {canJoin && teams.length > 0 ? (
            <Button
              onClick={() => {
                setMessage(null);
                setJoining(true);
              }}
            >
              {game.status === "Rejected" ? t("games.reapply") : t("games.join.open")}
            </Button>
          ) : null}
          {game.status === "Accepted" && playable ? (
            <Link className={buttonClass("primary")} to={`/games/${game.id}/challenges`}>
              {t("challenge.pageTitle")}
            </Link>
          ) : null}
          {user !== null && user.role === "Admin" ? (
            <Link className={buttonClass("secondary")} to={`/admin/games/${game.id}/info`}>
              {t("games.edit")}
            </Link>
          ) : null}
          {canLeave ? (
            <Button variant="secondary" onClick={() => setLeaving(true)}>
              {t("games.leave")}
            </Button>
          ) : null}
        </div>
      </div>

      {message ? (
        // Join and leave replace the button that was pressed: the focus goes to what happened instead.
        <div ref={messageRef} tabIndex={-1} className="focus:outline-none" data-testid="game-message">
          <Alert tone="success">{message}</Alert>
        </div>
      ) : null}
      {canJoin && teams.length === 0 ? (
        <Alert>
          {t("games.needTeam")}{" "}
          <Link className="font-medium underline" to="/teams">
            {t("games.toTeams")}
          </Link>
        </Alert>
      ) : null}
      {/* Once the end has passed (the loader reads it again when the phase turns): the team's standing. */}
      {result && phase === "Ended" ? <FinalResult gameId={game.id} result={result} boardLink={!game.hidden || privileged} /> : null}
      {game.status === "Suspended" ? <Alert tone="error">{t("games.suspended")}</Alert> : null}
      {game.status === "Pending" ? <Alert>{t("games.pendingHint")}</Alert> : null}
      {game.leftTeamName !== null ? (
        <Alert>{t(game.status === "Rejected" ? "games.leftRejectedTeam" : "games.leftTeam", { team: game.leftTeamName })}</Alert>
      ) : null}

      {/* grid-cols-1 (minmax(0, 1fr)): a long line in a code block scrolls inside it instead of widening the page. */}
      <div className="grid grid-cols-1 gap-6 md:grid-cols-3">
        <Card className="space-y-3 md:col-span-1">
          <dl className="space-y-2 text-sm">
            <div>
              <dt className="text-zinc-500 dark:text-zinc-400">{t("games.start")}</dt>
              <dd className="tabular-nums">{formatDateTime(game.start)}</dd>
            </div>
            <div>
              <dt className="text-zinc-500 dark:text-zinc-400">{t("games.end")}</dt>
              <dd className="tabular-nums">{formatDateTime(game.end)}</dd>
            </div>
            {/* Ended: the end time above and the phase badge say so; a row is left only for practice mode. */}
            {now !== null && (phase !== "Ended" || game.practiceMode) ? (
              <div>
                <dt className="text-zinc-500 dark:text-zinc-400">{phase === "NotStarted" ? t("games.countdownStart") : phase === "Running" ? t("games.countdownEnd") : t("games.afterEnd")}</dt>
                <dd className="text-lg font-semibold tabular-nums" data-testid="countdown">
                  {phase === "NotStarted" ? formatCountdown(game.start - now, t) : phase === "Running" ? formatCountdown(game.end - now, t) : t("games.practiceOpen")}
                </dd>
              </div>
            ) : null}
            <div>
              <dt className="text-zinc-500 dark:text-zinc-400">{t("games.teamCount")}</dt>
              <dd>{game.teamCount}</dd>
            </div>
            <div>
              <dt className="text-zinc-500 dark:text-zinc-400">{t("games.limit")}</dt>
              <dd>{game.limit > 0 ? game.limit : t("games.unlimited")}</dd>
            </div>
            {game.teamName ? (
              <div>
                <dt className="text-zinc-500 dark:text-zinc-400">{t("games.myTeam")}</dt>
                <dd className="break-all">
                  {game.teamName}
                  {division ? ` · ${division.name}` : ""}
                </dd>
              </div>
            ) : null}
          </dl>
          {game.practiceMode ? <p className="text-xs text-zinc-500 dark:text-zinc-400">{t("games.practiceHint")}</p> : null}
        </Card>
        <Card className="md:col-span-2">
          {game.content ? <Markdown source={game.content} /> : <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("games.noContent")}</p>}
        </Card>
      </div>

      {/* The writeup comes before the notices: on a phone it is not below a list that grows while the game
          runs, nor pushed away by each notice. */}
      {game.writeupRequired && game.status === "Accepted" && phase !== null && phase !== "NotStarted" ? (
        <Card>
          <WriteupPanel gameId={game.id} />
        </Card>
      ) : null}

      {mayReadNotices && phase !== null ? (
        <Card>
          <NoticesPanel gameId={game.id} enabled={phase !== "NotStarted"} />
        </Card>
      ) : null}

      {joining ? (
        <JoinDialog
          open
          game={game}
          teams={teams}
          onClose={() => setJoining(false)}
          joinKeys={joinKeys}
          onJoined={(text) => {
            setJoining(false);
            setMessage(text);
            void revalidate();
          }}
        />
      ) : null}
      <ConfirmDialog
        open={leaving}
        title={t("games.leaveTitle")}
        message={t("games.leaveConfirm", { game: game.title })}
        confirmLabel={t("games.leave")}
        busy={busy}
        error={error}
        onConfirm={() => void leave()}
        onCancel={() => setLeaving(false)}
      />
    </div>
  );
}
