import type { InitOptions } from "i18next";
import { DEFAULT_LANGUAGE, LANGUAGES } from "~/core/i18n/languages";
import resources from "~/locales";

/** Shared by the server's per-request instances and the browser's instance, so both render the same strings. */
export const i18nextOptions = {
  resources,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: ["common", "errors"],
  defaultNS: "common",
  // React escapes on render; spec §9: interpolation does not escape values.
  interpolation: { escapeValue: false },
  returnNull: false,
} satisfies InitOptions;
