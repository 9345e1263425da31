import type { RegisterStatus, Role } from "~/core/enums";

/** GET /api/account/profile (api.md §4 ProfileUserInfoModel). */
export interface Profile {
  userId: string;
  userName: string;
  email: string;
  bio: string;
  phone: string;
  realName: string;
  stdNumber: string;
  avatar: string | null;
  role: Role;
}

/** POST /api/account/register. */
export interface RegisterResponse {
  title: string;
  data: RegisterStatus;
  status: number;
}

/** A same-site path to return to after signing in; anything else (other hosts, `//x`) goes home. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}

/** The text of a form field, or "" when absent. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
