/** Why an accepted flag earns nothing (rules.md §1): stored at or after the game's end, or after the challenge's deadline. */
export type NotScoredReason = "ended" | "deadline";

/** The moments that decide whether a solve scores, on the server's clock. */
export interface ScoringWindow {
  end: number;
  deadline: number | null;
}

/** The reason an accepted flag submitted at `submittedAt` is not scored, or null when it scores. The end wins. */
export function computeNotScored(submittedAt: number, window: ScoringWindow): NotScoredReason | null {
  if (submittedAt >= window.end) return "ended";
  if (window.deadline !== null && submittedAt > window.deadline) return "deadline";
  return null;
}
