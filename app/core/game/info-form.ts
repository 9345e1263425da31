/**
 * The number fields of the game editor (/admin/games/{id}/Info), checked before saving: a value out of
 * range is named to the admin instead of being quietly changed (a first blood of 150 % used to be saved
 * as 100 %, a member limit of −3 as 0).
 */
export type GameNumberField = "memberLimit" | "containerLimit" | "writeupHours" | "bloodFirst" | "bloodSecond" | "bloodThird";

interface Rule {
  min: number;
  max: number;
  /** Decimals allowed: 0 for whole numbers. */
  decimals: number;
}

const COUNT: Rule = { min: 0, max: 1_000_000, decimals: 0 };
const PERCENT: Rule = { min: 0, max: 100, decimals: 1 };
export const GAME_NUMBER_RULES: Record<GameNumberField, Rule> = {
  memberLimit: COUNT,
  containerLimit: COUNT,
  writeupHours: { min: 0, max: 100_000, decimals: 2 },
  bloodFirst: PERCENT,
  bloodSecond: PERCENT,
  bloodThird: PERCENT,
};

export interface GameNumberProblem {
  field: GameNumberField;
  /** i18n key (namespace `common`): `adminGames.numberWhole` or `adminGames.numberDecimal`. */
  key: "adminGames.numberWhole" | "adminGames.numberDecimal";
  min: number;
  max: number;
  decimals: number;
}

/** The typed values (empty means 0) as numbers, or the first field whose value is not allowed. */
export function checkGameNumbers(raw: Record<GameNumberField, string>): { values: Record<GameNumberField, number> } | { problem: GameNumberProblem } {
  const values = {} as Record<GameNumberField, number>;
  for (const field of Object.keys(GAME_NUMBER_RULES) as GameNumberField[]) {
    const rule = GAME_NUMBER_RULES[field];
    const text = raw[field].trim();
    const value = text === "" ? 0 : Number(text);
    const scaled = value * 10 ** rule.decimals;
    if (!Number.isFinite(value) || value < rule.min || value > rule.max || Math.abs(scaled - Math.round(scaled)) > 1e-6) {
      return { problem: { field, key: rule.decimals === 0 ? "adminGames.numberWhole" : "adminGames.numberDecimal", ...rule } };
    }
    values[field] = value;
  }
  return { values };
}
