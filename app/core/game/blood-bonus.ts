/**
 * The packed blood bonus of a game (rules.md §3): three 10-bit per-mille fields, first = bits 20–29,
 * second = bits 10–19, third = bits 0–9. Any field above 1000 makes the whole value invalid.
 */
export const DEFAULT_BLOOD_BONUS = 52459530;
export const BLOOD_FIELD_MAX = 1000;

export interface BloodBonus {
  /** Per mille (0–1000). */
  first: number;
  second: number;
  third: number;
}

const MASK = 0x3ff;

/** True when the value is a non-negative integer whose three fields are each ≤ 1000 (and nothing above bit 29). */
export function isValidBloodBonus(value: number): boolean {
  if (!Number.isSafeInteger(value) || value < 0 || value >= 2 ** 30) return false;
  const { first, second, third } = splitFields(value);
  return first <= BLOOD_FIELD_MAX && second <= BLOOD_FIELD_MAX && third <= BLOOD_FIELD_MAX;
}

function splitFields(value: number): BloodBonus {
  return { first: Math.floor(value / 2 ** 20) & MASK, second: Math.floor(value / 2 ** 10) & MASK, third: value & MASK };
}

/** The three fields of a packed value; an invalid value reads as the default. */
export function unpackBloodBonus(value: number): BloodBonus {
  return splitFields(isValidBloodBonus(value) ? value : DEFAULT_BLOOD_BONUS);
}

/** Packs three per-mille fields; any field outside 0–1000 (or not an integer) gives the default. */
export function packBloodBonus({ first, second, third }: BloodBonus): number {
  const ok = [first, second, third].every((f) => Number.isInteger(f) && f >= 0 && f <= BLOOD_FIELD_MAX);
  if (!ok) return DEFAULT_BLOOD_BONUS;
  return first * 2 ** 20 + second * 2 ** 10 + third;
}

/** The stored value for an incoming one: valid values are kept, anything else becomes the default. */
export function normalizeBloodBonus(value: number): number {
  return isValidBloodBonus(value) ? value : DEFAULT_BLOOD_BONUS;
}

/** A per-mille field as a percentage with one decimal (50 → 5). */
export const perMilleToPercent = (perMille: number): number => perMille / 10;

/** A percentage (one decimal) as per mille, rounded and clamped to 0–1000 (5 → 50). */
export function percentToPerMille(percent: number): number {
  if (!Number.isFinite(percent)) return 0;
  return Math.min(BLOOD_FIELD_MAX, Math.max(0, Math.round(percent * 10)));
}
