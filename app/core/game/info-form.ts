/**
 * The number fields of the game editor (/admin/games/{id}/Info), checked before saving: a value out of
 * range is named to the admin instead of being quietly changed (a first blood of 150 % used to be saved
 * as 100 %, a member limit of −3 as 0). An empty box is refused too: it used to be saved as 0, so clearing
 * a limit to retype it lifted the limit ("0 = unlimited") and a cleared blood bonus turned it off.
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
  /** i18n key (namespace `common`): `adminGames.numberWhole` or `adminGames.numberDecimal` (plural on `decimals`). */
  key: "adminGames.numberWhole" | "adminGames.numberDecimal";
  min: number;
  max: number;
  decimals: number;
}

/** The typed values as numbers, or the first field whose value is empty or not allowed. */
export function checkGameNumbers(raw: Record<GameNumberField, string>): { values: Record<GameNumberField, number> } | { problem: GameNumberProblem } {
  const values = {} as Record<GameNumberField, number>;
  for (const field of Object.keys(GAME_NUMBER_RULES) as GameNumberField[]) {
    const rule = GAME_NUMBER_RULES[field];
    const text = raw[field].trim();
    const value = Number(text);
    const scaled = value * 10 ** rule.decimals;
    if (text === "" || !Number.isFinite(value) || value < rule.min || value > rule.max || Math.abs(scaled - Math.round(scaled)) > 1e-6) {
      return { problem: { field, key: rule.decimals === 0 ? "adminGames.numberWhole" : "adminGames.numberDecimal", ...rule } };
    }
    values[field] = value;
  }
  return { values };
}

/** The editor's inputs (their names) a refusal can stand at. */
export type GameInfoInput =
  | "title"
  | "summary"
  | "content"
  | "start"
  | "end"
  | "inviteCode"
  | "teamMemberCountLimit"
  | "containerCountLimit"
  | "writeupHours"
  | "writeupNote"
  | "blood1"
  | "blood2"
  | "blood3";

/** The input of each number the editor checks itself. */
export const GAME_NUMBER_INPUTS: Record<GameNumberField, GameInfoInput> = {
  memberLimit: "teamMemberCountLimit",
  containerLimit: "containerCountLimit",
  writeupHours: "writeupHours",
  bloodFirst: "blood1",
  bloodSecond: "blood2",
  bloodThird: "blood3",
};

/**
 * Where the editor shows a refusal: at one input, or at the blood bonus as a whole (`bloodBonus`: its three
 * parts marked); it goes once one of `clearedBy` changes, the inputs the refused value was made from.
 */
export interface GameRefusalPlace {
  at: GameInfoInput | "bloodBonus";
  clearedBy: readonly GameInfoInput[];
}

const own = (input: GameInfoInput): GameRefusalPlace => ({ at: input, clearedBy: [input] });

/**
 * The game update's fields the API names in `X-Error-Field` (api.md's names: the top-level field of the
 * schema's first failing rule), and where the editor shows each. The writeup deadline is sent as the end plus
 * the writeup hours, so a change of either takes its refusal away; the blood bonus is packed from its three
 * parts. Divisions are a list the header does not say the row of: their refusals stay above the form.
 */
const GAME_REFUSAL_PLACES = {
  title: own("title"),
  summary: own("summary"),
  content: own("content"),
  start: own("start"),
  // An end refused for coming before the start goes with a change of either.
  end: { at: "end", clearedBy: ["end", "start"] },
  inviteCode: own("inviteCode"),
  teamMemberCountLimit: own("teamMemberCountLimit"),
  containerCountLimit: own("containerCountLimit"),
  writeupDeadline: { at: "writeupHours", clearedBy: ["writeupHours", "end"] },
  writeupNote: own("writeupNote"),
  bloodBonus: { at: "bloodBonus", clearedBy: ["blood1", "blood2", "blood3"] },
} as const satisfies Record<string, GameRefusalPlace>;

export type GameUpdateField = keyof typeof GAME_REFUSAL_PLACES;
export const GAME_UPDATE_FIELDS = Object.keys(GAME_REFUSAL_PLACES) as GameUpdateField[];

/** Where the editor shows a refusal of the game update's `field`. */
export function gameRefusalPlace(field: GameUpdateField): GameRefusalPlace {
  return GAME_REFUSAL_PLACES[field];
}

const HOUR_MS = 3_600_000;

/** The writeup deadline's distance after the end in hours, as the form shows it (two decimals). */
export function writeupHoursShown(game: { end: number; writeupDeadline: number }): number {
  return Math.round(((game.writeupDeadline - game.end) / HOUR_MS) * 100) / 100;
}

/**
 * The times to save from the form. A time field or the writeup hours left as shown keep the game's exact
 * value: the form shows minutes and hours rounded to two decimals, and saving a summary must not move a
 * start of 12:04:37 to 12:04:00 or the writeup deadline by a minute.
 */
export function savedGameTimes(
  game: { start: number; end: number; writeupDeadline: number },
  form: { start: number; startChanged: boolean; end: number; endChanged: boolean; writeupHours: number },
): { start: number; end: number; writeupDeadline: number } {
  const start = form.startChanged ? form.start : game.start;
  const end = form.endChanged ? form.end : game.end;
  const offset = form.writeupHours === writeupHoursShown(game) ? game.writeupDeadline - game.end : Math.round(form.writeupHours * HOUR_MS);
  return { start, end, writeupDeadline: end + offset };
}
