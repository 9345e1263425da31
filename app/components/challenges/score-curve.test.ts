import { describe, expect, it } from "vitest";
import { DEFAULT_BLOOD_BONUS } from "~/core/game/blood-bonus";
import { bloodPoints, computeCurve, curvePolyline } from "./score-curve";

const defaults = { originalScore: 1000, minScoreRate: 0.25, difficulty: 5 };

describe("score preview curve", () => {
  it("follows rules.md §3 with the default parameters", () => {
    const curve = computeCurve(defaults, 50);
    expect(curve).toHaveLength(51);
    const at = (n: number) => curve[n]!.value;
    expect([at(0), at(1), at(2), at(3), at(5), at(10), at(20), at(50)]).toEqual([1000, 1000, 864, 752, 586, 373, 266, 250]);
  });

  it("never rises as solves grow, whatever the parameters", () => {
    for (const difficulty of [0.1, 1, 5, 30]) {
      for (const minScoreRate of [0, 0.25, 0.9, 1]) {
        const curve = computeCurve({ originalScore: 777, minScoreRate, difficulty }, 80);
        for (let i = 1; i < curve.length; i++) expect(curve[i]!.value).toBeLessThanOrEqual(curve[i - 1]!.value);
      }
    }
  });

  it("maps the curve into the drawing box", () => {
    const line = curvePolyline(computeCurve(defaults, 2), 100, 50).split(" ");
    expect(line).toEqual(["0.0,0.0", "50.0,0.0", "100.0,6.8"]);
  });

  it("shows blood bonus points, or the plain value when bloods are off", () => {
    expect(bloodPoints(864, DEFAULT_BLOOD_BONUS, false)).toEqual([907, 890, 873]);
    expect(bloodPoints(864, DEFAULT_BLOOD_BONUS, true)).toEqual([864, 864, 864]);
    expect(bloodPoints(1000, 0, false)).toEqual([1000, 1000, 1000]);
  });
});
