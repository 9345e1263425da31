import { USER_NAME_MAX, USER_NAME_MIN } from "~/core/schemas/account";
import { codePointLength } from "~/core/text-length";

/** Keys (namespace `common`) of what the register form says about a user name. */
export type UserNameProblem = "register.userNameRequired" | "register.userNameLength";

/**
 * The register form's check of a user name before sending it: one is needed at all (an empty field is
 * asked for, not told the length rule), then its length in characters; the server checks the rest.
 */
export function computeUserNameProblem(userName: string): UserNameProblem | null {
  const length = codePointLength(userName.trim());
  if (length === 0) return "register.userNameRequired";
  if (length < USER_NAME_MIN || length > USER_NAME_MAX) return "register.userNameLength";
  return null;
}
