import { describe, expect, it } from "vitest";
import {
  DEFAULT_BLOOD_BONUS,
  isValidBloodBonus,
  normalizeBloodBonus,
  packBloodBonus,
  percentToPerMille,
  perMilleToPercent,
  unpackBloodBonus,
} from "./blood-bonus";

describe("blood bonus packing", () => {
  it("packs the default 50/30/10 to 52459530", () => {
    expect(packBloodBonus({ first: 50, second: 30, third: 10 })).toBe(DEFAULT_BLOOD_BONUS);
    expect(DEFAULT_BLOOD_BONUS).toBe(50 * 2 ** 20 + 30 * 2 ** 10 + 10);
  });

  it.each([
    [{ first: 0, second: 0, third: 0 }, 0],
    [{ first: 1000, second: 1000, third: 1000 }, 1000 * 2 ** 20 + 1000 * 2 ** 10 + 1000],
    [{ first: 1, second: 0, third: 0 }, 2 ** 20],
    [{ first: 0, second: 1, third: 0 }, 2 ** 10],
    [{ first: 0, second: 0, third: 999 }, 999],
  ])("round-trips %o", (fields, packed) => {
    expect(packBloodBonus(fields)).toBe(packed);
    expect(unpackBloodBonus(packed)).toEqual(fields);
  });

  it("falls back to the default for fields out of range", () => {
    expect(packBloodBonus({ first: 1001, second: 0, third: 0 })).toBe(DEFAULT_BLOOD_BONUS);
    expect(packBloodBonus({ first: -1, second: 0, third: 0 })).toBe(DEFAULT_BLOOD_BONUS);
    expect(packBloodBonus({ first: 1.5, second: 0, third: 0 })).toBe(DEFAULT_BLOOD_BONUS);
  });

  it("validates packed values", () => {
    expect(isValidBloodBonus(0)).toBe(true);
    expect(isValidBloodBonus(DEFAULT_BLOOD_BONUS)).toBe(true);
    expect(isValidBloodBonus(1001)).toBe(false);
    expect(isValidBloodBonus(1001 * 2 ** 10)).toBe(false);
    expect(isValidBloodBonus(1001 * 2 ** 20)).toBe(false);
    expect(isValidBloodBonus(2 ** 30)).toBe(false);
    expect(isValidBloodBonus(-5)).toBe(false);
    expect(isValidBloodBonus(1.5)).toBe(false);
  });

  it("reads and normalises invalid values as the default", () => {
    expect(unpackBloodBonus(1023)).toEqual({ first: 50, second: 30, third: 10 });
    expect(normalizeBloodBonus(1023)).toBe(DEFAULT_BLOOD_BONUS);
    expect(normalizeBloodBonus(0)).toBe(0);
  });

  it("converts between percent (one decimal) and per mille", () => {
    expect(perMilleToPercent(50)).toBe(5);
    expect(perMilleToPercent(125)).toBe(12.5);
    expect(percentToPerMille(12.5)).toBe(125);
    expect(percentToPerMille(3.04)).toBe(30);
    expect(percentToPerMille(150)).toBe(1000);
    expect(percentToPerMille(-1)).toBe(0);
    expect(percentToPerMille(Number.NaN)).toBe(0);
  });
});
