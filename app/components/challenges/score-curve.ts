import { unpackBloodBonus } from "~/core/game/blood-bonus";
import { computeBloodPoints, computeChallengeValue, computeMinScore, type ValueParams } from "~/core/scoring/value";

export interface CurvePoint {
  solves: number;
  value: number;
}

/** The value of a challenge after 0 … maxSolves counted solves (the editor's live preview). */
export function computeCurve(params: ValueParams, maxSolves: number): CurvePoint[] {
  return Array.from({ length: maxSolves + 1 }, (_, solves) => ({ solves, value: computeChallengeValue(params, solves) }));
}

/** An SVG polyline `points` attribute for the curve in a width × height box (value 0 at the bottom). */
export function curvePolyline(points: CurvePoint[], width: number, height: number): string {
  const maxSolves = Math.max(1, points[points.length - 1]?.solves ?? 1);
  const top = Math.max(1, ...points.map((p) => p.value));
  return points.map((p) => `${((p.solves / maxSolves) * width).toFixed(1)},${(height - (p.value / top) * height).toFixed(1)}`).join(" ");
}

/** The points a first, second and third blood earn at a value; all equal to the value when bloods are off. */
export function bloodPoints(value: number, packedBonus: number, disabled: boolean): [number, number, number] {
  if (disabled) return [value, value, value];
  const { first, second, third } = unpackBloodBonus(packedBonus);
  return [computeBloodPoints(value, first), computeBloodPoints(value, second), computeBloodPoints(value, third)];
}

export { computeMinScore };
