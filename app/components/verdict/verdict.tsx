import { useEffect, useEffectEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "~/components/ui/alert";
import type { AnswerResult } from "~/core/enums";
import { verdictText } from "~/core/game-room/verdict-text";
import type { Verdict } from "~/core/protocol";
import { api } from "~/lib/api";
import { type SocketState, useHubSocket } from "~/lib/realtime";
import { computeNotScored, type NotScoredReason, type ScoringWindow } from "./not-scored";
import { serverNow } from "~/lib/server-clock";

type PlayerStatus = Verdict["status"];

/** Verdicts pushed to the team's socket while the page is open. */
export interface PushedVerdicts {
  /** Submission id → status. */
  statuses: Map<number, PlayerStatus>;
  /** Challenges the team got an Accepted verdict for. */
  solved: Set<number>;
  /** Whether the game's feed is connected (verdicts fall back to the status call meanwhile). */
  socket: SocketState;
}

/**
 * Verdicts pushed to the team over the game socket (rules.md §11). Mount once per page (one socket);
 * `VerdictMessage` reads `statuses` and falls back to the status call. `onResync`: messages may have been
 * missed, or the feed ended (the page reads what it shows again). `onBoardRefetch`: the board was recomputed
 * (an organiser's change), so what the page shows may have changed too.
 */
export function usePushedVerdicts(gameId: number, onResync?: () => void, onBoardRefetch?: () => void): PushedVerdicts {
  const [verdicts, setVerdicts] = useState<Omit<PushedVerdicts, "socket">>(() => ({ statuses: new Map(), solved: new Set() }));
  const socket = useHubSocket(`/hub/game/${gameId}`, {
    onResync,
    onMessage: (message) => {
      // The organisers changed the game (its times, its challenges): what this page shows may have changed.
      if (message.type === "scoreboard" && message.data.refetch) onBoardRefetch?.();
      if (message.type !== "verdict") return;
      const { submissionId, challengeId, status } = message.data;
      setVerdicts((prev) => ({
        statuses: new Map(prev.statuses).set(submissionId, status),
        solved: status === "Accepted" && !prev.solved.has(challengeId) ? new Set(prev.solved).add(challengeId) : prev.solved,
      }));
    },
  });
  return { ...verdicts, socket };
}

const POLL_MS = 500;

/**
 * The game's end and the challenge's deadline as they are when an accepted verdict arrives (an admin may have
 * moved them since the page opened). An unreadable one counts as not passed.
 */
async function readScoringWindow(gameId: number, challengeId: number, signal: AbortSignal): Promise<ScoringWindow> {
  const [game, challenge] = await Promise.allSettled([
    api<{ end: number }>(`/api/game/${gameId}`, { signal }),
    api<{ deadline: number | null }>(`/api/game/${gameId}/challenges/${challengeId}`, { signal }),
  ]);
  return {
    end: game.status === "fulfilled" ? game.value.end : Number.POSITIVE_INFINITY,
    deadline: challenge.status === "fulfilled" ? challenge.value.deadline : null,
  };
}

/**
 * The verdict of one submission: the pushed one, else the status call every 500 ms until judged. Mounted when
 * the submission's id comes back, which is when it was stored: an accepted flag is "not scored" when that
 * moment is at or after the game's end or after the challenge's deadline (rules.md §1), decided as it arrives.
 */
export function VerdictMessage({
  gameId,
  challengeId,
  submissionId,
  pushed,
  ended = false,
  onAccepted,
}: {
  gameId: number;
  challengeId: number;
  submissionId: number;
  pushed: Map<number, PlayerStatus>;
  /** The game had already ended when the flag was sent: every accepted flag of it is not scored. */
  ended?: boolean;
  /** Called once when the flag is accepted, pushed or polled (the board and the panel read again). */
  onAccepted?: () => void;
}) {
  const { t } = useTranslation();
  const [polled, setPolled] = useState<AnswerResult>("FlagSubmitted");
  const status: AnswerResult = pushed.get(submissionId) ?? polled;
  const accepted = status === "Accepted";
  const announceAccepted = useEffectEvent(() => onAccepted?.());
  useEffect(() => {
    if (accepted) announceAccepted();
  }, [accepted]);
  // One random message per wrong verdict, fixed for this submission.
  const [random] = useState(() => Math.random());
  // The server's clock decides whether a flag came in time (rules.md §1), not a browser's that may be off.
  const [submittedAt] = useState(() => serverNow());
  // undefined until an accepted verdict has been checked against the end and the deadline.
  const [notScored, setNotScored] = useState<NotScoredReason | null | undefined>(ended ? "ended" : undefined);
  // Brought into sight when it appears and when it changes: on a phone (the keyboard up) it came below the fold.
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (status !== "Accepted" || notScored !== undefined) return;
    const controller = new AbortController();
    void readScoringWindow(gameId, challengeId, controller.signal).then((scoring) => {
      if (!controller.signal.aborted) setNotScored(computeNotScored(submittedAt, scoring));
    });
    return () => controller.abort();
  }, [gameId, challengeId, status, notScored, submittedAt]);

  useEffect(() => {
    if (status !== "FlagSubmitted") return;
    let stopped = false;
    const timer = setInterval(() => {
      api<AnswerResult>(`/api/game/${gameId}/challenges/${challengeId}/status/${submissionId}`)
        .then((s) => {
          if (!stopped) setPolled(s);
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [gameId, challengeId, submissionId, status]);

  // An accepted flag reads as still judging until it is known whether it scores.
  const shown: AnswerResult = status === "Accepted" && notScored === undefined ? "FlagSubmitted" : status;
  const text =
    shown === "Accepted" && notScored === "deadline"
      ? ({ key: "verdict.notScoredDeadline", tone: "success" } as const)
      : verdictText(shown, { submissionId, ended: notScored === "ended", random: () => random });
  const tone = text.tone === "success" ? "success" : text.tone === "pending" ? "info" : "error";
  useEffect(() => {
    box.current?.scrollIntoView({ block: "nearest" });
  }, [shown]);
  const title = text.tone === "success" ? t("verdict.correctTitle") : text.tone === "pending" ? t("verdict.pendingTitle") : text.tone === "error" ? t("verdict.wrongTitle") : undefined;
  return (
    <div ref={box} data-testid="verdict" data-status={shown === "CheatDetected" ? "WrongAnswer" : shown}>
      <Alert tone={tone} {...(title ? { title } : {})}>
        {t(text.key, "params" in text ? text.params : undefined)}
      </Alert>
    </div>
  );
}
