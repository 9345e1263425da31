import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { DEFAULT_LANGUAGE, matchLanguage } from "~/core/i18n/languages";
import { i18nextOptions } from "~/lib/i18n";
import { captureEarlyLanguageChoice } from "~/lib/language";
import { replaceLoginRedirectsOfShownPage } from "~/lib/login-history";
import { includePageTranslations, localeBackend } from "~/locales/browser";

async function main() {
  // The server already chose the language (query, cookie, Accept-Language) and wrote it to <html lang>;
  // hydrating in the same language avoids a mismatch. A choice kept only in localStorage is applied
  // after hydration by the root route. init resolves once that language's chunks (preloaded by the
  // root route; game and admin pages add their parts) are in; other languages load when changeLanguage asks.
  captureEarlyLanguageChoice();
  replaceLoginRedirectsOfShownPage(window);
  includePageTranslations(window.location.pathname);
  await i18next
    .use(initReactI18next)
    .use(localeBackend)
    .init({
      ...i18nextOptions,
      lng: matchLanguage(document.documentElement.lang) ?? DEFAULT_LANGUAGE,
      // The browser renders only `common`; the `errors` namespace is the server's (app/locales/chunks.vite.ts).
      ns: ["common"],
    });

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

main().catch((error: unknown) => console.error(error));
