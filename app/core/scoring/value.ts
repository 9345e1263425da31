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
  return floorScore(originalScore * rate);
}

/** The value the curve tends to. */
export function computeMinScore({ originalScore, minScoreRate }: ValueParams): number {
  return floorScore(originalScore * minScoreRate);
}

/**
 * How far under an integer (relatively) a product may fall by binary rounding alone and still count as
 * that integer: 100 × 0.29 is 28.999999999999996 in doubles, whose floor would be 28 where rules.md's
 * floor(100 × 0.29) is 29. The products' own rounding error is below 1e-15 of their size.
 */
const FLOAT_SLACK = 1e-14;

/** floor(x) of rules.md §3, with a product that binary rounding put a hair under an integer taken as it. */
function floorScore(x: number): number {
  return Math.floor(x + Math.abs(x) * FLOAT_SLACK);
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

/**
 * Points of a blood solve: the current value raised by `perMille` (e.g. 50 = +5 %), rounded half to even.
 * Values and fields are integers, so the product is taken in thousandths, exactly: value × (1 + f/1000) in
 * doubles misses an exact half once the value is in the millions (8,738,300 at 5 ‰ is 8,781,991.5).
 */
export function computeBloodPoints(value: number, perMille: number): number {
  if (!Number.isInteger(value) || !Number.isInteger(perMille)) return roundHalfEven(value * (1 + perMille / 1000));
  const thousandths = value * (1000 + perMille);
  const whole = Math.floor(thousandths / 1000);
  const rest = thousandths - whole * 1000;
  if (rest !== 500) return rest > 500 ? whole + 1 : whole;
  return whole % 2 === 0 ? whole : whole + 1;
}
