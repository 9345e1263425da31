import { emailSchema } from "~/core/schemas/account";

/** Keys (namespace `common`) of what the register form says about an email address. */
export type EmailProblem = "register.emailRequired" | "register.emailInvalid";

/**
 * The register form's check of an email before sending it: one is needed, and it must be an address the
 * server takes (the same schema), so a mistyped one is named with the form's other problems instead of
 * alone after they are mended. The server checks the rest (taken, domain allowed).
 */
export function computeEmailProblem(email: string): EmailProblem | null {
  if (!email.trim()) return "register.emailRequired";
  return emailSchema.safeParse(email).success ? null : "register.emailInvalid";
}
