import { computeNotScored } from "~/components/verdict/not-scored";
import type { PlayerChallengeInfo } from "~/core/schemas/challenge";
import { type ChallengeInfo, orderChallenges, type ScoreboardItem } from "~/core/scoring/scoreboard";

/** The part of GameDetailModel (api.md §4) the challenge board needs. */
export interface GameDetails {
  challenges: Record<string, ChallengeInfo[] | undefined>;
  rank: Pick<ScoreboardItem, "solvedChallenges">;
}

/**
 * GameDetailModel → the board's list: flattened in board order, with the team's own solves marked, and those
 * worth 0 points (after the end or the deadline, or by a division that scores nothing) marked as the
 * scoreboard draws them: not scored.
 */
export function boardFromDetails(details: GameDetails): PlayerChallengeInfo[] {
  const mine = new Map((details.rank?.solvedChallenges ?? []).map((s) => [s.id, s.score]));
  const all = Object.values(details.challenges ?? {}).flatMap((list) => list ?? []);
  return orderChallenges(all).map((c) => {
    const points = mine.get(c.id);
    return {
      id: c.id,
      title: c.title,
      category: c.category,
      score: c.score,
      solved: c.solved,
      deadline: c.deadline,
      solvedByMe: points !== undefined,
      solvedUnscored: points === 0,
    };
  });
}

/**
 * The list with the challenges whose solve was just pushed (`solvedNow`) marked solved, before the next read
 * of the details says so: not scored when it came at or after the game's `end` or after the challenge's
 * deadline, on the server's clock `now` (a division that scores nothing is known at that read).
 */
export function withPushedSolves(list: PlayerChallengeInfo[], solvedNow: ReadonlySet<number>, end: number, now: number): PlayerChallengeInfo[] {
  if (solvedNow.size === 0) return list;
  return list.map((c) =>
    c.solvedByMe || !solvedNow.has(c.id) ? c : { ...c, solvedByMe: true, solvedUnscored: computeNotScored(now, { end, deadline: c.deadline }) !== null },
  );
}
