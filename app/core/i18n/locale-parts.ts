/**
 * The browser loads the `common` translations in parts: the groups every page may use, the game pages'
 * groups (challenges, verdicts, scoreboard, monitor, …), which only pages under /games and /admin read, and
 * the admin pages' groups (adminUsers, adminGames, settings, …), which only pages under /admin read. The
 * server keeps `common` whole. locale-parts.test.ts checks that each part's groups are read only by code
 * that only its pages load.
 */

/** Top-level groups of common.json read only by the admin pages (adminUsers, admin, settings, …). */
export function isAdminGroup(group: string): boolean {
  return /^admin(?:[A-Z]|$)/.test(group) || group === "settings";
}

/** Top-level groups of common.json read only by the game pages and the admin pages. */
const GAME_GROUPS: ReadonlySet<string> = new Set([
  "challenge",
  "container",
  "exports",
  "gameTabs",
  "monitor",
  "notices",
  "pager",
  "scoreboard",
  "testContainer",
  "traffic",
  "verdict",
  "wide",
  "writeups",
]);

export function isGameGroup(group: string): boolean {
  return GAME_GROUPS.has(group);
}

/** Pages that need the admin part (paths match case-insensitively, as routes do). */
export function isAdminPath(pathname: string): boolean {
  return /^\/admin(?:\/|$)/i.test(pathname);
}

/** Pages that need the game part: the games' own pages and the admin pages (which edit and review games). */
export function isGamePath(pathname: string): boolean {
  return /^\/games(?:\/|$)/i.test(pathname) || isAdminPath(pathname);
}

export const LOCALE_PARTS = ["shared", "game", "admin"] as const;
export type LocalePart = (typeof LOCALE_PARTS)[number];

export function partOfGroup(group: string): LocalePart {
  if (isAdminGroup(group)) return "admin";
  return isGameGroup(group) ? "game" : "shared";
}

const NEEDED_ON: Record<LocalePart, (pathname: string) => boolean> = { shared: () => true, game: isGamePath, admin: isAdminPath };

/** The parts a page needs, `shared` first. */
export function partsForPath(pathname: string): LocalePart[] {
  return LOCALE_PARTS.filter((part) => NEEDED_ON[part](pathname));
}

/** One part of a language's `common` translations. */
export function commonPart<T extends Record<string, unknown>>(common: T, part: LocalePart): Partial<T> {
  return Object.fromEntries(Object.entries(common).filter(([group]) => partOfGroup(group) === part)) as Partial<T>;
}
