import { PASSWORD_MIN, passwordHints } from "~/core/schemas/account";

/** Keys (namespace `common`) of the first problem of a new password and its retyped copy. */
export type NewPasswordProblem =
  | "password.empty"
  | "password.tooShort"
  | "password.needsLowercase"
  | "password.needsUppercase"
  | "password.needsDigit"
  | "password.mismatch";

/**
 * The form-side check of rules.md §14: not empty, at least PASSWORD_MIN characters, a lower-case letter,
 * an upper-case letter and a digit (a symbol is only suggested), and the retyped copy must match.
 */
export function computeNewPasswordProblem(password: string, retype: string): NewPasswordProblem | null {
  if (password.length === 0) return "password.empty";
  const hints = passwordHints(password);
  if (password.length < PASSWORD_MIN) return "password.tooShort";
  if (!hints.lowercase) return "password.needsLowercase";
  if (!hints.uppercase) return "password.needsUppercase";
  if (!hints.digit) return "password.needsDigit";
  if (password !== retype) return "password.mismatch";
  return null;
}
