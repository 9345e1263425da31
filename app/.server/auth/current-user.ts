import type { Role } from "~/core/enums";

/** The signed-in user as every guard, loader and handler sees it. */
export interface CurrentUser {
  id: string;
  userName: string;
  email: string;
  role: Role;
  /** `/assets/{hash}/avatar`, or null. */
  avatar: string | null;
  language: string;
}
