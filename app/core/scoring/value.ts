/**
 * Challenge value and blood points (rules.md §3). Pure and dependency-free; revision 1 of the algorithm.
 */
export const SCORING_REVISION = 1;

export interface ValueParams {
  originalScore: number;
  /** 0–1 */
  minScoreRate: number;
  /** > 0 */
  difficulty: number;
}

/** The current value of a challenge with `solves` counted solves; never rises as solves grow. */
export function computeChallengeValue({ originalScore, minScoreRate, difficulty }: ValueParams, solves: number): number {
  if (solves <= 1) return originalScore;
  const rate = minScoreRate + (1 - minScoreRate) * Math.exp((1 - solves) / difficulty);
  return Math.floor(originalScore * rate);
}

/** The value the curve tends to. */
export function computeMinScore({ originalScore, minScoreRate }: ValueParams): number {
  return Math.floor(originalScore * minScoreRate);
}

/** Rounds half to even (banker's rounding), as the blood bonus rule requires. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  const EPS = 1e-9;
  if (diff > 0.5 + EPS) return floor + 1;
  if (diff < 0.5 - EPS) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** Points of a blood solve: the current value raised by `perMille` (e.g. 50 = +5 %). */
export function computeBloodPoints(value: number, perMille: number): number {
  return roundHalfEven(value * (1 + perMille / 1000));
}
