/**
 * The browser loads the `common` translations in two parts: the groups every page may use, and the
 * admin pages' groups (adminUsers, adminGames, settings, …), which only pages under /admin read. The
 * server keeps `common` whole. locale-parts.test.ts checks that admin groups are used by admin code only.
 */

/** Top-level groups of common.json read only by the admin pages (adminUsers, admin, settings, …). */
export function isAdminGroup(group: string): boolean {
  return /^admin(?:[A-Z]|$)/.test(group) || group === "settings";
}

/** Pages that need the admin part (paths match case-insensitively, as routes do). */
export function isAdminPath(pathname: string): boolean {
  return /^\/admin(?:\/|$)/i.test(pathname);
}

export type LocalePart = "shared" | "admin";

/** One part of a language's `common` translations. */
export function commonPart<T extends Record<string, unknown>>(common: T, part: LocalePart): Partial<T> {
  return Object.fromEntries(Object.entries(common).filter(([group]) => isAdminGroup(group) === (part === "admin"))) as Partial<T>;
}
