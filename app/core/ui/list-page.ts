import { foldText } from "../text-fold";

/** Rows per page of the admin tables filtered in the browser (review, writeups). */
export const LIST_PAGE_SIZE = 50;

export interface ListPage<T> {
  rows: T[];
  /** 1-based, clamped to the pages there are. */
  page: number;
  pages: number;
  total: number;
}

/** Page `page` (1-based) of `items`; a page past the end shows the last one, a bad number the first. */
export function pageOf<T>(items: readonly T[], page: number, size = LIST_PAGE_SIZE): ListPage<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Number.isInteger(page) ? Math.min(Math.max(page, 1), pages) : 1;
  return { rows: items.slice((current - 1) * size, current * size), page: current, pages, total: items.length };
}

/**
 * A free-text filter: every word of `query` must occur (case- and width-insensitive) in one of `texts`;
 * a word `#12` asks for the id 12, and so does a query that is only a number (it may also occur as text).
 * An empty query matches everything.
 */
export function matchesQuery(query: string, id: number, texts: readonly string[]): boolean {
  const words = foldText(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = texts.map(foldText);
  const inText = (word: string) => haystack.some((text) => text.includes(word));
  if (words.length === 1 && /^\d+$/.test(words[0]!) && Number(words[0]) === id) return true;
  return words.every((word) => {
    const wanted = /^#(\d+)$/.exec(word);
    return wanted ? Number(wanted[1]) === id : inText(word);
  });
}
