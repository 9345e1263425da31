import { useTranslation } from "react-i18next";
import { useContext, useEffect, useLayoutEffect, useRef, useState } from "react";
import { UNSAFE_DataRouterStateContext, useRevalidator } from "react-router";
import { selectClass } from "~/components/ui/select";
import { type Language, matchLanguage } from "~/core/i18n/languages";
import {
  LANGUAGE_NAMES,
  LANGUAGE_SWITCH_ID,
  LANGUAGES,
  languageOnlyInStorage,
  persistLanguage,
  takeEarlyLanguageChoice,
} from "~/lib/language";

/** Set once the page load's own choice has been settled (a remount, as StrictMode makes, does not redo it). */
let settled = false;

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const revalidator = useRevalidator();
  const current = matchLanguage(i18n.resolvedLanguage ?? i18n.language) ?? "en-US";
  // Until the page's first browser loaders have finished, the router cannot revalidate (it ends on the
  // error screen, "No result found for routeId root"): a choice made that early revalidates once they have.
  const initialized = useContext(UNSAFE_DataRouterStateContext)?.initialized ?? true;
  const ready = useRef(initialized);
  const waiting = useRef(false);
  const { revalidate } = revalidator;
  useLayoutEffect(() => {
    ready.current = initialized;
    if (initialized && waiting.current) {
      waiting.current = false;
      void revalidate();
    }
  }, [initialized, revalidate]);

  // The language being fetched: the select shows the choice at once instead of going back to the
  // current language until the translations arrive (seconds on a slow connection).
  const [pending, setPending] = useState<Language | null>(null);

  async function choose(value: string) {
    const language = matchLanguage(value);
    if (!language) return;
    persistLanguage(language);
    setPending(language);
    try {
      await i18n.changeLanguage(language);
    } finally {
      setPending((p) => (p === language ? null : p));
    }
    // Loaders render localised data and <html lang> comes from the root loader.
    if (ready.current) await revalidate();
    else waiting.current = true;
  }

  // Once per page load: a language picked here before hydration (which put the select back), else one
  // kept only in localStorage, wins over the page's (the server cannot see either) and is applied like a
  // choice made now: shown at once, busy until its translations are in. Otherwise the page's language is
  // written back so cookie and storage agree.
  useEffect(() => {
    if (settled) return;
    settled = true;
    const stored = takeEarlyLanguageChoice() ?? languageOnlyInStorage();
    // The choice was made outside React (before hydration, or in an earlier visit's storage).
    // eslint-disable-next-line react-hooks/set-state-in-effect -- applied like a choice made now
    if (stored && stored !== current) void choose(stored);
    else persistLanguage(current);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only on the first render
  }, []);

  return (
    <div className="flex items-center">
      <label htmlFor={LANGUAGE_SWITCH_ID} className="sr-only">
        {t("language.label")}
      </label>
      <select
        id={LANGUAGE_SWITCH_ID}
        className={selectClass}
        // A value the browser restores on reload would pass for a choice made before hydration (root.tsx).
        autoComplete="off"
        value={pending ?? current}
        aria-busy={pending !== null}
        onChange={(e) => void choose(e.currentTarget.value)}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
