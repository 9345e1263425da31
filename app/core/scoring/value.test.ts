import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeBloodPoints, computeChallengeValue, computeMinScore, roundHalfEven } from "./value";

const defaults = { originalScore: 1000, minScoreRate: 0.25, difficulty: 5 };

describe("computeChallengeValue", () => {
  it.each([
    [0, 1000],
    [1, 1000],
    [2, 864],
    [3, 752],
    [5, 586],
    [10, 373],
    [20, 266],
    [50, 250],
  ])("with defaults, %i solves → %i (rules.md §3)", (n, value) => {
    expect(computeChallengeValue(defaults, n)).toBe(value);
  });

  it("never rises as solves grow and never drops below the minimum score", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 1000, noNaN: true }),
        fc.integer({ min: 0, max: 2000 }),
        (originalScore, minScoreRate, difficulty, n) => {
          const p = { originalScore, minScoreRate, difficulty };
          const v = computeChallengeValue(p, n);
          expect(computeChallengeValue(p, n + 1)).toBeLessThanOrEqual(v);
          expect(v).toBeGreaterThanOrEqual(computeMinScore(p));
          expect(v).toBeLessThanOrEqual(originalScore);
        },
      ),
    );
  });
});

describe("rates that binary numbers cannot hold exactly", () => {
  it("floors the decimal product, not its binary rounding: floor(100 × 0.29) is 29, never 28", () => {
    const p = { originalScore: 100, minScoreRate: 0.29, difficulty: 0.1 };
    expect(computeMinScore(p)).toBe(29);
    // Once the curve's exponential is negligible the value is the minimum score, not one point under it.
    expect([1, 2, 3, 4, 5, 200].map((n) => computeChallengeValue(p, n))).toEqual([100, 29, 29, 29, 29, 29]);
    expect(computeChallengeValue({ originalScore: 100, minScoreRate: 0.29, difficulty: 5 }, 300)).toBe(29);
  });

  it("gives the exact integer floor for every rate with up to three decimals (the editor's percentages)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 1000 }), (originalScore, perMille) => {
        // originalScore × perMille is an exact integer in doubles; its floor division by 1000 is exact.
        const exact = Math.floor((originalScore * perMille) / 1000);
        const p = { originalScore, minScoreRate: perMille / 1000, difficulty: 5 };
        expect(computeMinScore(p)).toBe(exact);
        expect(computeChallengeValue(p, 100_000)).toBe(exact);
      }),
      { examples: [[100, 290], [1000, 70], [300, 570]] },
    );
  });
});

describe("blood points", () => {
  it("matches the worked example at value 864: 907 / 890 / 873", () => {
    expect([50, 30, 10].map((m) => computeBloodPoints(864, m))).toEqual([907, 890, 873]);
  });

  it("rounds exact halves to even at any value a challenge may have", () => {
    expect(computeBloodPoints(8_738_300, 5)).toBe(8_781_992);
    expect(computeBloodPoints(10_485_820, 25)).toBe(10_747_966);
    expect(computeBloodPoints(10_485_775, 100)).toBe(11_534_352);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 1000 }), (value, perMille) => {
        const thousandths = BigInt(value) * BigInt(1000 + perMille);
        const whole = thousandths / 1000n;
        const rest = thousandths % 1000n;
        const exact = rest > 500n || (rest === 500n && whole % 2n === 1n) ? whole + 1n : whole;
        expect(computeBloodPoints(value, perMille)).toBe(Number(exact));
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([
    [0.5, 0],
    [1.5, 2],
    [2.5, 2],
    [3.5, 4],
    [2.4999, 2],
    [2.5001, 3],
  ])("roundHalfEven(%d) = %d", (x, r) => {
    expect(roundHalfEven(x)).toBe(r);
  });
});
