import type { GameNoticeInfo } from "../schemas/game";

/** The API's largest page of notices (api.md §10): a list this long may leave older notices out. */
export const NOTICES_PAGE = 100;

/**
 * What a page's notices lack after a resync's read of GET game/{id}/notices (rules.md §11), given what the page
 * knew when the read's answer came:
 * - `missed`: the listed notices not known yet, oldest first (each lands on top in turn);
 * - `gone`: shown notices the list no longer has (deleted while the socket was down). Only notices that were
 *   shown when the read was *sent* (`askedAbout`) can be gone: one that arrived on the socket while the read
 *   was on its way was posted after the list was made, and its absence says nothing. Decidable only when the
 *   list is complete (shorter than a page).
 */
export function noticesMissed(
  known: ReadonlySet<number>,
  list: readonly GameNoticeInfo[],
  shown: readonly GameNoticeInfo[],
  askedAbout: ReadonlySet<number>,
): { missed: GameNoticeInfo[]; gone: number[] } {
  const listed = new Set(list.map((n) => n.id));
  return {
    missed: list.filter((n) => !known.has(n.id)).sort((a, b) => a.time - b.time || a.id - b.id),
    gone: list.length < NOTICES_PAGE ? shown.filter((n) => askedAbout.has(n.id) && !listed.has(n.id)).map((n) => n.id) : [],
  };
}
