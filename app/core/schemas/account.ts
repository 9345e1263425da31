import { z } from "zod";
// With its extension: the launcher loads this file under Node (scripts/lib/settings.mjs).
import { typeMessage } from "./messages.ts";
import { isOneLine, ONE_LINE } from "./text.ts";

/** Field limits of api.md §3. Messages are i18n keys in the `errors` namespace. */
export const USER_NAME_MIN = 3;
export const USER_NAME_MAX = 15;
export const PASSWORD_MIN = 6;

/** Alphabets whose letters look alike (a/а/α, o/о/ο, p/р/ρ…): a name takes its letters from one of them at most. */
const LOOK_ALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u];

export function mixesLookAlikeScripts(name: string): boolean {
  return LOOK_ALIKE_SCRIPTS.filter((script) => script.test(name)).length > 1;
}

export const userNameSchema = z
  .string()
  .trim()
  .min(USER_NAME_MIN, "validation.username_length")
  .max(USER_NAME_MAX, "validation.username_length")
  .regex(/^[\p{L}\p{N}_.-]+$/u, "validation.username_chars")
  // Full-width and other compatibility forms (ａlice) would pass for another user's name on a board.
  .refine((name) => name.normalize("NFKC") === name, "validation.username_chars")
  // So would a name mixing look-alike alphabets: Cyrillic "а" in "аlice" (UTS #39 mixed-script confusables).
  .refine((name) => !mixesLookAlikeScripts(name), "validation.username_mixed_scripts");

/**
 * zod's own email pattern, except that the top-level domain may also be an IDNA label (`xn--p1ai`, the
 * ASCII form of .рф): zod's wants letters only there, which refuses every internationalised one.
 */
const EMAIL = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+(?:[A-Za-z]{2,}|[Xx][Nn]--[A-Za-z0-9-]*[A-Za-z0-9])$/;

export const emailSchema = z.string().trim().max(254).pipe(z.email({ pattern: EMAIL, error: "validation.invalid_email" }));

/** Password policy of rules.md §14: a symbol is only suggested. */
export const passwordSchema = z
  .string(typeMessage("validation.password_empty"))
  .min(1, "validation.password_empty")
  .min(PASSWORD_MIN, "validation.password_too_short")
  .max(128)
  .regex(/[a-z]/, "validation.password_lowercase")
  .regex(/[A-Z]/, "validation.password_uppercase")
  .regex(/[0-9]/, "validation.password_digit");

/** Which of the four hints a password meets (the form shows all four; symbol is advisory). */
export function passwordHints(password: string) {
  return {
    length: password.length >= PASSWORD_MIN,
    lowercase: /[a-z]/.test(password),
    uppercase: /[A-Z]/.test(password),
    digit: /[0-9]/.test(password),
    symbol: /[^A-Za-z0-9]/.test(password),
  };
}

export const captchaTokenSchema = z.string().max(4096).optional();

export const registerSchema = z.object({
  userName: userNameSchema,
  password: passwordSchema,
  email: emailSchema,
  challenge: captchaTokenSchema,
});

export const loginSchema = z.object({
  /** A user name or an email. */
  userName: z.string().trim().min(1, "validation.username_required").max(254),
  password: z.string().min(1, "validation.password_empty").max(128),
  challenge: captchaTokenSchema,
});

const optionalText = (max: number) => z.string().trim().max(max).nullish();
/** Text of a one-line form field (real name, student number): a tab or line break is refused. */
const optionalLine = (max: number) => z.string().trim().max(max).refine(isOneLine, ONE_LINE).nullish();

export const profileUpdateSchema = z.object({
  userName: userNameSchema.nullish(),
  // A text area in the profile forms: it keeps its line breaks.
  bio: optionalText(128),
  realName: optionalLine(128),
  stdNumber: optionalLine(64),
  phone: z
    .string()
    .trim()
    .max(32)
    .regex(/^[0-9 +\-()]*$/, "validation.phone_format")
    .nullish(),
});

export const changePasswordSchema = z.object({
  old: z.string().min(1, "validation.password_empty").max(128),
  new: passwordSchema,
});

export type RegisterInput = z.infer<typeof registerSchema>;
export type LoginInput = z.infer<typeof loginSchema>;
export type ProfileUpdateInput = z.infer<typeof profileUpdateSchema>;
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;
