import i18next, { type i18n } from "i18next";
import resources from "~/locales";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "./languages";

let instance: i18n | null = null;

function getInstance(): i18n {
  if (instance) return instance;
  const created = i18next.createInstance();
  // Resources are bundled, so init completes synchronously.
  void created.init({
    resources,
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    ns: ["errors", "common"],
    defaultNS: "errors",
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  instance = created;
  return created;
}

export type Translate = (key: string, params?: Record<string, unknown>) => string;

/** A translator for server messages (namespace `errors` by default) in the given language. */
export function getTranslator(lang: Language, ns: "errors" | "common" = "errors"): Translate {
  const t = getInstance().getFixedT(lang, ns);
  return (key, params) => t(key, params ?? {}) as string;
}

/** Whether a key exists in namespace `ns` of a language (fallbacks not counted). */
export function hasKey(lang: Language, ns: "errors" | "common", key: string): boolean {
  return getInstance().exists(key, { ns, lng: lang, fallbackLng: false });
}

/** Whether a key exists in the `errors` namespace of the default language. */
export function hasErrorKey(key: string): boolean {
  return getInstance().exists(key, { ns: "errors", lng: DEFAULT_LANGUAGE });
}
