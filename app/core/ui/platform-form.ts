import { normalizeCustomTheme } from "../schemas/config";

/** A field of the settings page's platform card that the card itself refuses, and why. */
export type PlatformProblems = Partial<{ title: "required"; customTheme: "colourInvalid" }>;

/**
 * The platform card's checks before saving, each named at its field: an empty platform name (the server
 * answered "Title is required" under the card, a name the card does not use, away from the field) and a
 * colour the platform cannot use (the server would store "" and say "Settings saved").
 */
export function checkPlatformFields(values: { title: string; customTheme: string }): PlatformProblems {
  const problems: PlatformProblems = {};
  if (values.title.trim() === "") problems.title = "required";
  if (values.customTheme.trim() !== "" && normalizeCustomTheme(values.customTheme) === "") problems.customTheme = "colourInvalid";
  return problems;
}
