import type { InitOptions } from "i18next";
import { DEFAULT_LANGUAGE, LANGUAGES } from "~/core/i18n/languages";

/**
 * Shared by the server's per-request instances and the browser's instance, so both render the same strings.
 * The translations themselves differ: the server bundles every language (app/locales/index.ts); the browser
 * loads its languages as chunks (app/locales/browser.ts).
 */
export const i18nextOptions = {
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: ["common", "errors"],
  defaultNS: "common",
  // React escapes on render; spec §9: interpolation does not escape values.
  interpolation: { escapeValue: false },
  returnNull: false,
} satisfies InitOptions;
