import { type Role, roleRank } from "./enums";
import type { Channel } from "./protocol";

/** Auth levels checked before a handler or loader runs (membership levels are checked by services). */
export type AuthLevel = "Public" | "User" | "Monitor" | "Admin";

const requiredRole: Record<Exclude<AuthLevel, "Public">, Role> = { User: "User", Monitor: "Monitor", Admin: "Admin" };

/** "ok", or why access is refused: no session (`login`) or a role too low (`forbidden`). Banned never passes. */
export function checkAccess(role: Role | null, level: AuthLevel): "ok" | "login" | "forbidden" {
  if (level === "Public") return "ok";
  if (role === null || role === "Banned") return "login";
  return roleRank(role) >= roleRank(requiredRole[level]) ? "ok" : "forbidden";
}

/** The role each socket channel needs when it is opened (workers/hub.ts); "game" is open to anyone who may view. */
const channelLevel: Record<Channel, AuthLevel> = { admin: "Admin", monitor: "Monitor", game: "Public" };

/**
 * The socket channels a user must be cut off from when their account changes: the ones their new role no
 * longer opens, and every one when they are banned, deleted (`null`) or their sessions are revoked
 * (`revoked`, an admin's password reset). Sockets are authorised once, when opened: without this a demoted
 * monitor kept receiving every team's flags (rules.md §11).
 */
export function channelsToClose(before: Role, after: Role | null, revoked = false): Channel[] {
  const all: Channel[] = ["admin", "monitor", "game"];
  if (after === null || after === "Banned" || revoked) return all;
  return all.filter((channel) => checkAccess(before, channelLevel[channel]) === "ok" && checkAccess(after, channelLevel[channel]) !== "ok");
}

/**
 * Whether a role change takes away what only a monitor's or an admin's role showed on the game sockets left
 * open (hidden games, their boards): those sockets are then checked again (core/socket-access). Not when
 * every channel closes anyway.
 */
export function staffViewLost(before: Role, after: Role | null, revoked = false): boolean {
  if (channelsToClose(before, after, revoked).includes("game")) return false;
  return checkAccess(before, "Monitor") === "ok" && checkAccess(after, "Monitor") !== "ok";
}
