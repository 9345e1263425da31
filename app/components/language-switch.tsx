import { useTranslation } from "react-i18next";
import { useCallback, useContext, useEffect, useLayoutEffect, useRef, useState } from "react";
import { UNSAFE_DataRouterStateContext, useNavigate, useRevalidator } from "react-router";
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
  // A choice waiting for the router; `picked`: made in the select (see `reload`).
  const waiting = useRef<{ picked: boolean } | null>(null);
  const { revalidate } = revalidator;
  const navigate = useNavigate();
  // Loaders render localised data and <html lang> comes from the root loader, so the page's data is read
  // again. The address's `lng` wins over the cookie there: a language picked in the select takes it out of
  // the address (the navigation reads the data again), or the page went back to the address's language.
  const reload = useCallback(
    (picked: boolean): Promise<void> => {
      const params = new URLSearchParams(window.location.search);
      if (!picked || !params.has("lng")) return revalidate();
      params.delete("lng");
      const search = params.toString();
      return Promise.resolve(navigate({ pathname: window.location.pathname, search: search ? `?${search}` : "", hash: window.location.hash }, { replace: true, preventScrollReset: true }));
    },
    [revalidate, navigate],
  );
  useLayoutEffect(() => {
    ready.current = initialized;
    if (initialized && waiting.current) {
      const { picked } = waiting.current;
      waiting.current = null;
      void reload(picked);
    }
  }, [initialized, reload]);

  // The language being fetched: the select shows the choice at once instead of going back to the
  // current language until the translations arrive (seconds on a slow connection).
  const [pending, setPending] = useState<Language | null>(null);

  /** `picked`: made in the select (now, or before hydration) — not a choice kept from an earlier visit. */
  async function choose(value: string, picked: boolean) {
    const language = matchLanguage(value);
    if (!language) return;
    persistLanguage(language);
    setPending(language);
    try {
      await i18n.changeLanguage(language);
    } finally {
      setPending((p) => (p === language ? null : p));
    }
    if (ready.current) await reload(picked);
    else waiting.current = { picked };
  }

  // Once per page load: a language picked here before hydration (which put the select back), else one
  // kept only in localStorage, wins over the page's (the server cannot see either) and is applied like a
  // choice made now: shown at once, busy until its translations are in. Otherwise the page's language is
  // written back so cookie and storage agree.
  useEffect(() => {
    if (settled) return;
    settled = true;
    const early = takeEarlyLanguageChoice();
    const stored = early ?? languageOnlyInStorage();
    // The choice was made outside React (before hydration, or in an earlier visit's storage).
    // eslint-disable-next-line react-hooks/set-state-in-effect -- applied like a choice made now
    if (stored && stored !== current) void choose(stored, early !== null);
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
        onChange={(e) => void choose(e.currentTarget.value, true)}
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
