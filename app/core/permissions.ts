import { type Role, roleRank } from "./enums";

/** Auth levels checked before a handler or loader runs (membership levels are checked by services). */
export type AuthLevel = "Public" | "User" | "Monitor" | "Admin";

const requiredRole: Record<Exclude<AuthLevel, "Public">, Role> = { User: "User", Monitor: "Monitor", Admin: "Admin" };

/** "ok", or why access is refused: no session (`login`) or a role too low (`forbidden`). Banned never passes. */
export function checkAccess(role: Role | null, level: AuthLevel): "ok" | "login" | "forbidden" {
  if (level === "Public") return "ok";
  if (role === null || role === "Banned") return "login";
  return roleRank(role) >= roleRank(requiredRole[level]) ? "ok" : "forbidden";
}
