import type { AnswerResult } from "../enums";

/** The player's text for a verdict (rules.md §7): an i18n key and its parameters. */
export const WRONG_MESSAGE_COUNT = 23;

export function wrongMessageKey(random: () => number = Math.random): string {
  return `verdict.wrong.${Math.min(WRONG_MESSAGE_COUNT - 1, Math.floor(random() * WRONG_MESSAGE_COUNT))}`;
}

export function verdictText(
  status: AnswerResult,
  opts: { submissionId: number; ended: boolean; random?: () => number },
): { key: string; params?: Record<string, string | number>; tone: "pending" | "success" | "error" | "warning" } {
  switch (status) {
    case "FlagSubmitted":
      return { key: "verdict.submitted", tone: "pending" };
    case "Accepted":
      return { key: opts.ended ? "verdict.notScored" : "verdict.correct", tone: "success" };
    case "NotFound":
      return { key: "verdict.unknown", params: { id: opts.submissionId }, tone: "warning" };
    default:
      return { key: wrongMessageKey(opts.random), tone: "error" };
  }
}
