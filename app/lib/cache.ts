import { forgetKeptAnswers } from "./api";

/**
 * Browser caches of API lists live in localStorage under this prefix (rules.md §15), so "Clear Cache"
 * can empty them without touching the theme or language choices.
 */
export const LIST_CACHE_PREFIX = "flagstaff-cache:";

export function clearListCaches() {
  forgetKeptAnswers();
  try {
    const keys: string[] = [];
    for (let i = 0; i < window.localStorage.length; i++) {
      const key = window.localStorage.key(i);
      if (key?.startsWith(LIST_CACHE_PREFIX)) keys.push(key);
    }
    for (const key of keys) window.localStorage.removeItem(key);
  } catch {
    // Storage disabled: there is nothing cached to clear.
  }
}

/** "Clear Cache": drop the list caches and load the page afresh. */
export function clearCacheAndReload() {
  clearListCaches();
  window.location.reload();
}
