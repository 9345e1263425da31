import { createInstance, type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import type { RouterContextProvider } from "react-router";
import { createI18nextMiddleware } from "remix-i18next";
import { readCookie } from "~/core/http/cookie";
import { DEFAULT_LANGUAGE, type Language, LANGUAGES, languageFromAcceptLanguage, matchLanguage } from "~/core/i18n/languages";
import { i18nextOptions } from "~/lib/i18n";
import { LANGUAGE_COOKIE } from "~/lib/language";
import resources from "~/locales";

/**
 * The page's language (rules.md §16): the `lng` query parameter, the cookie `i18next`, then Accept-Language
 * — each read as the API reads them (app/core/i18n/languages.ts): `zh_CN` is `zh-CN`, and of the
 * languages a browser lists (by q-value) the first one we have wins, so `fr-FR, ja;q=0.8` gets Japanese
 * and `ja;q=0` never does. The cookie holds a plain language tag (the browser writes it), so it is read
 * here rather than through React Router's signed/encoded cookie helper.
 */
export function detectLanguage(request: Request): Language {
  return (
    matchLanguage(new URL(request.url).searchParams.get("lng")) ??
    matchLanguage(readCookie(request.headers.get("Cookie"), LANGUAGE_COOKIE)) ??
    languageFromAcceptLanguage(request.headers.get("Accept-Language"))
  );
}

export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
    order: ["custom"],
    async findLocale({ request }) {
      return detectLanguage(request);
    },
  },
  i18next: { ...i18nextOptions, resources },
  plugins: [initReactI18next],
});

/**
 * The request's instance, or a default-language one when the middleware never ran (a request that
 * failed before the root middleware); rendering must still succeed then.
 */
export function getInstanceOrDefault(context: Readonly<RouterContextProvider>): i18n {
  try {
    return getInstance(context);
  } catch {
    const instance = createInstance().use(initReactI18next);
    // Bundled resources: with initAsync off the instance is ready when init returns.
    void instance.init({ ...i18nextOptions, resources, lng: DEFAULT_LANGUAGE, initAsync: false });
    return instance;
  }
}
