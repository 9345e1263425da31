import { useCallback, useEffect, useRef, useState } from "react";
import { applyBoardDelta } from "~/core/game-room/delta";
import type { ScoreboardModel } from "~/core/scoring/scoreboard";
import { api, errorMessage, isApiError } from "~/lib/api";
import { type SocketState, useHubSocket } from "~/lib/realtime";
import type { GameNotice } from "~/core/protocol";

export type LiveBoard = ScoreboardModel & { version: number };

/**
 * The game's scoreboard kept live: fetched once, then changed by the `scoreboard` deltas pushed over
 * /hub/game/{id}; refetched after a reconnect, a `seq` gap, a version gap or a structural change.
 */
export function useLiveBoard(gameId: number, onNotice?: (notice: GameNotice) => void) {
  const [board, setBoard] = useState<LiveBoard | null>(null);
  const [error, setError] = useState<{ message: string; status: number } | null>(null);
  const boardRef = useRef<LiveBoard | null>(null);
  const noticeRef = useRef(onNotice);
  useEffect(() => {
    noticeRef.current = onNotice;
  });

  const refetch = useCallback(() => {
    api<LiveBoard>(`/api/game/${gameId}/scoreboard`)
      .then((b) => {
        boardRef.current = b;
        setBoard(b);
        setError(null);
      })
      .catch((err: unknown) => setError({ message: errorMessage(err), status: isApiError(err) ? err.status : 0 }));
  }, [gameId]);

  useEffect(refetch, [refetch]);

  const socket: SocketState = useHubSocket(`/hub/game/${gameId}`, {
    onResync: refetch,
    onMessage: (message) => {
      if (message.type === "notice") noticeRef.current?.(message.data);
      if (message.type !== "scoreboard") return;
      const delta = message.data;
      const current = boardRef.current;
      if (!current || delta.refetch || delta.version !== current.version + 1) {
        refetch();
        return;
      }
      const next = { ...applyBoardDelta(current, delta), version: delta.version };
      boardRef.current = next;
      setBoard(next);
    },
  });

  return { board, error, socket, refetch };
}
