import { readCookie } from "~/core/http/cookie";
import { LANGUAGES, matchLanguage, type Language } from "~/core/i18n/languages";

/** Names of the stores the language choice lives in (rules.md §16). */
export const LANGUAGE_COOKIE = "i18next";
export const LANGUAGE_STORAGE_KEY = "i18nextLng";
export const LANGUAGE_QUERY = "lng";

/** Each language named in itself, as a switcher shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  "en-US": "English",
  "ja-JP": "日本語",
  "zh-CN": "简体中文",
};

export { LANGUAGES, type Language };

const ONE_YEAR_S = 365 * 24 * 60 * 60;

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Private mode or storage disabled: the cookie still carries the choice.
  }
}

/** Writes the choice to both the cookie (read by the server) and localStorage (read by the browser). */
export function persistLanguage(language: Language) {
  document.cookie = `${LANGUAGE_COOKIE}=${encodeURIComponent(language)}; Path=/; Max-Age=${ONE_YEAR_S}; SameSite=Lax`;
  writeStorage(LANGUAGE_STORAGE_KEY, language);
}

/**
 * A language remembered only in localStorage. The server cannot see localStorage, so when neither the
 * query parameter nor the cookie decided the page's language, this one should win over Accept-Language.
 */
export function languageOnlyInStorage(): Language | null {
  if (new URLSearchParams(window.location.search).has(LANGUAGE_QUERY)) return null;
  if (matchLanguage(readCookie(document.cookie, LANGUAGE_COOKIE))) return null;
  return matchLanguage(readStorage(LANGUAGE_STORAGE_KEY));
}

/** The header's language select (app/components/language-switch.tsx). */
export const LANGUAGE_SWITCH_ID = "language-switch";

/**
 * A language picked in the switch before the page hydrated: hydration puts the select back to the page's
 * language and React never hears the change, so the entry records it and the switch applies it once mounted.
 */
let earlyChoice: string | null = null;
let taken = false;

/**
 * From the browser entry, before hydration: records the switch's value now and on each pick until taken.
 * A pick fires `input`, then `change`. Once hydrateRoot has run, React hydrates the page at once on that
 * `input` (a discrete event), which puts the select back to the page's language before the `change`: the
 * choice is read from the `input`, and the `change` gets the picked value back, so React's own handler
 * applies the pick instead of the page's language (a language picked just as the page became live was lost).
 */
export function captureEarlyLanguageChoice(): void {
  earlyChoice = null;
  taken = false;
  let picking: string | null = null;
  const isSwitch = (target: EventTarget | null): target is HTMLSelectElement =>
    target instanceof HTMLSelectElement && target.id === LANGUAGE_SWITCH_ID;
  const read = (select: HTMLSelectElement) => {
    if (taken) return;
    // The option the server marked is the page's own language: not a choice.
    const served = [...select.options].find((option) => option.defaultSelected)?.value;
    earlyChoice = select.value === served ? null : select.value;
  };
  const switchElement = document.getElementById(LANGUAGE_SWITCH_ID);
  if (isSwitch(switchElement)) read(switchElement);
  // Capture listeners on the document, added before hydrateRoot adds React's: they run first.
  document.addEventListener(
    "input",
    (event) => {
      if (!isSwitch(event.target)) return;
      picking = event.target.value;
      read(event.target);
    },
    true,
  );
  document.addEventListener(
    "change",
    (event) => {
      if (!isSwitch(event.target)) return;
      if (picking !== null && event.target.value !== picking) event.target.value = picking;
      picking = null;
      read(event.target);
    },
    true,
  );
}

/** The language picked before hydration (null when none, or when it is the page's), once; recording stops. */
export function takeEarlyLanguageChoice(): Language | null {
  taken = true;
  const choice = matchLanguage(earlyChoice);
  earlyChoice = null;
  return choice;
}
