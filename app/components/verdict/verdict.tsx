import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "~/components/ui/alert";
import type { AnswerResult } from "~/core/enums";
import { verdictText } from "~/core/game-room/verdict-text";
import type { Verdict } from "~/core/protocol";
import { api } from "~/lib/api";
import { useHubSocket } from "~/lib/realtime";

type PlayerStatus = Verdict["status"];

/** Verdicts pushed to the team's socket while the page is open. */
export interface PushedVerdicts {
  /** Submission id → status. */
  statuses: Map<number, PlayerStatus>;
  /** Challenges the team got an Accepted verdict for. */
  solved: Set<number>;
}

/**
 * Verdicts pushed to the team over the game socket (rules.md §11). Mount once per page (one socket);
 * `VerdictMessage` reads `statuses` and falls back to the status call.
 */
export function usePushedVerdicts(gameId: number): PushedVerdicts {
  const [verdicts, setVerdicts] = useState<PushedVerdicts>(() => ({ statuses: new Map(), solved: new Set() }));
  useHubSocket(`/hub/game/${gameId}`, {
    onMessage: (message) => {
      if (message.type !== "verdict") return;
      const { submissionId, challengeId, status } = message.data;
      setVerdicts((prev) => ({
        statuses: new Map(prev.statuses).set(submissionId, status),
        solved: status === "Accepted" && !prev.solved.has(challengeId) ? new Set(prev.solved).add(challengeId) : prev.solved,
      }));
    },
  });
  return verdicts;
}

const POLL_MS = 500;

/** The verdict of one submission: the pushed one, else the status call every 500 ms until judged. */
export function VerdictMessage({
  gameId,
  challengeId,
  submissionId,
  pushed,
  ended = false,
}: {
  gameId: number;
  challengeId: number;
  submissionId: number;
  pushed: Map<number, PlayerStatus>;
  ended?: boolean;
}) {
  const { t } = useTranslation();
  const [polled, setPolled] = useState<AnswerResult>("FlagSubmitted");
  const status: AnswerResult = pushed.get(submissionId) ?? polled;
  // One random message per wrong verdict, fixed for this submission.
  const [random] = useState(() => Math.random());

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

  const text = verdictText(status, { submissionId, ended, random: () => random });
  const tone = text.tone === "success" ? "success" : text.tone === "pending" ? "info" : "error";
  const title = text.tone === "success" ? t("verdict.correctTitle") : text.tone === "pending" ? t("verdict.pendingTitle") : text.tone === "error" ? t("verdict.wrongTitle") : undefined;
  return (
    <div data-testid="verdict" data-status={status === "CheatDetected" ? "WrongAnswer" : status}>
      <Alert tone={tone} {...(title ? { title } : {})}>
        {t(text.key, text.params)}
      </Alert>
    </div>
  );
}

/** Whether the game has ended (an accepted flag then reads "not scored"); read once from the game. */
export function useGameEnded(gameId: number): boolean {
  const [ended, setEnded] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    api<{ end: number }>(`/api/game/${gameId}`, { signal: controller.signal })
      .then((g) => setEnded(Date.now() >= g.end))
      .catch(() => undefined);
    return () => controller.abort();
  }, [gameId]);
  return ended;
}
