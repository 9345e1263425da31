import { useCallback, useEffect, useRef, useState } from "react";
import { GAME_NOT_STARTED } from "~/core/errors";
import { takesFetchedBoard, waitForStartMs } from "~/core/game-room/board-fetch";
import { applyBoardDelta } from "~/core/game-room/delta";
import type { ScoreboardModel } from "~/core/scoring/scoreboard";
import { api, errorMessage, isApiError } from "~/lib/api";
import { type SocketState, useHubSocket } from "~/lib/realtime";
import { serverNow } from "~/lib/server-clock";

export type LiveBoard = ScoreboardModel & { version: number };

/** A board read's refusal: its message and status (401, 403, 404 or GAME_NOT_STARTED). */
export type BoardRefusal = { message: string; status: number };

/** Statuses that mean the viewer may not see this board (signed out, hidden game, unknown game). */
const DENIED = [401, 403, 404];

/**
 * The game's scoreboard kept live: fetched once, then changed by the `scoreboard` deltas pushed over
 * /hub/game/{id}; refetched after a reconnect, a `seq` gap, a version gap or a structural change. Before
 * the start it is refused; it is fetched again at the start (nothing is pushed then).
 *
 * `initial`: the first read's answer when the page already knows it — refused (a hidden game's board) or
 * not started — so the page does not ask only to be refused (the browser logs such an answer as an error).
 */
export function useLiveBoard(gameId: number, initial: BoardRefusal | null = null) {
  const [board, setBoard] = useState<LiveBoard | null>(null);
  const [error, setError] = useState<BoardRefusal | null>(initial);
  const boardRef = useRef<LiveBoard | null>(null);
  // Answers can arrive out of order: only the latest request's, and never one older than a pushed delta.
  const fetchRef = useRef({ latestRequest: 0, deltaSinceRequest: false });

  const refetch = useCallback(() => {
    const request = ++fetchRef.current.latestRequest;
    fetchRef.current.deltaSinceRequest = false;
    api<LiveBoard>(`/api/game/${gameId}/scoreboard`)
      .then((b) => {
        if (!takesFetchedBoard({ ...fetchRef.current, shownVersion: boardRef.current?.version ?? null }, { request, version: b.version })) return;
        boardRef.current = b;
        setBoard(b);
        setError(null);
      })
      .catch((err: unknown) => {
        if (request !== fetchRef.current.latestRequest) return;
        const status = isApiError(err) ? err.status : 0;
        // Not (or no longer) allowed to see it — e.g. the game was hidden — or not yet — its start was moved
        // later: the board goes, not just stays stale.
        if (DENIED.includes(status) || status === GAME_NOT_STARTED) {
          boardRef.current = null;
          setBoard(null);
        }
        setError({ message: errorMessage(err), status });
      });
  }, [gameId]);
  const denied = error !== null && DENIED.includes(error.status);

  // The first read, again for another game or when the page's data says otherwise (read again after the
  // start, or after signing in); a known refusal stands in for it.
  const initialStatus = initial?.status ?? null;
  const initialMessage = initial?.message ?? "";
  useEffect(() => {
    if (initialStatus === null) {
      refetch();
      return;
    }
    boardRef.current = null;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the page's data changed: the board follows it
    setBoard(null);
    setError((shown) => (shown !== null && shown.status === initialStatus && shown.message === initialMessage ? shown : { status: initialStatus, message: initialMessage }));
  }, [refetch, initialStatus, initialMessage]);

  // Each "not started" answer: read the game's start (an admin may have moved it) and fetch the board again
  // then. An answer still "not started" (a clock a little fast, the start moved again) comes back here.
  const waitingFor = error?.status === GAME_NOT_STARTED ? error : null;
  useEffect(() => {
    if (!waitingFor) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const wait = (start: number | null) => {
      if (!controller.signal.aborted) timer = setTimeout(refetch, waitForStartMs(start, serverNow()));
    };
    api<{ start: number }>(`/api/game/${gameId}`, { signal: controller.signal }).then(
      (game) => wait(game.start),
      () => wait(null),
    );
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [waitingFor, gameId, refetch]);

  // A visitor the board is refused to has no feed to wait for either.
  const socket: SocketState = useHubSocket(denied ? null : `/hub/game/${gameId}`, {
    onResync: refetch,
    onMessage: (message) => {
      if (message.type !== "scoreboard") return;
      const delta = message.data;
      const current = boardRef.current;
      if (!current || delta.refetch || delta.version !== current.version + 1) {
        refetch();
        return;
      }
      const next = { ...applyBoardDelta(current, delta), version: delta.version };
      fetchRef.current.deltaSinceRequest = true;
      boardRef.current = next;
      setBoard(next);
    },
  });

  return { board, error, socket, denied, refetch };
}
