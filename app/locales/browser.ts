import type { BackendModule, i18n, ResourceKey } from "i18next";
import type { Language } from "~/core/i18n/languages";
import type { LocalePart } from "~/core/i18n/locale-parts";

type Groups = { [group: string]: ResourceKey };

/**
 * The browser's translations: per language, the `common` groups every page uses and the admin pages'
 * groups, each a chunk of its own (app/locales/chunks.vite.ts), so a page ships only its own language.
 * The root route names the page's chunks in the HTML (modulepreload), so these imports find them already
 * fetched; other languages are fetched when the user switches (i18next waits for them before it changes
 * language), and the admin part when an admin page opens (the root's client middleware).
 */
const LOADERS: Record<Language, Record<LocalePart, () => Promise<{ default: Groups }>>> = {
  "en-US": {
    shared: () => import("virtual:flagstaff/locale/en-US"),
    admin: () => import("virtual:flagstaff/locale/en-US-admin"),
  },
  "ja-JP": {
    shared: () => import("virtual:flagstaff/locale/ja-JP"),
    admin: () => import("virtual:flagstaff/locale/ja-JP-admin"),
  },
  "zh-CN": {
    shared: () => import("virtual:flagstaff/locale/zh-CN"),
    admin: () => import("virtual:flagstaff/locale/zh-CN-admin"),
  },
};

function isLanguage(tag: string): tag is Language {
  return Object.hasOwn(LOADERS, tag);
}

/** Set once an admin page has been opened in this page load: every language loaded from then on includes the admin part. */
let withAdmin = false;
/** Languages whose admin part is in i18next's store. */
const adminLoaded = new Set<Language>();

async function loadCommon(language: Language): Promise<Groups> {
  const { default: shared } = await LOADERS[language].shared();
  if (!withAdmin) return shared;
  const { default: admin } = await LOADERS[language].admin();
  adminLoaded.add(language);
  return { ...shared, ...admin };
}

/** An i18next backend reading `common` from the language's chunks (the browser uses no other namespace). */
export const localeBackend: BackendModule = {
  type: "backend",
  callbackApi: true,
  init() {},
  read(language, namespace, callback) {
    if (!isLanguage(language) || namespace !== "common") {
      callback(new Error(`no browser translations for ${language}/${namespace}`), false);
      return;
    }
    loadCommon(language).then(
      (groups) => callback(null, groups),
      (error: unknown) => callback(error instanceof Error ? error : String(error), false),
    );
  },
};

/** Call before i18next's init when the page is an admin page. */
export function includeAdminTranslations() {
  withAdmin = true;
}

/** Adds the admin part to the page's languages (the current one and its fallback) before an admin page renders. */
export async function loadAdminTranslations(instance: i18n): Promise<void> {
  withAdmin = true;
  const languages = instance.languages.filter(isLanguage);
  // Finishes loads under way (which may have started without the admin part) and loads missing languages.
  await instance.loadLanguages(languages);
  await Promise.all(
    languages
      .filter((language) => !adminLoaded.has(language))
      .map(async (language) => {
        const { default: admin } = await LOADERS[language].admin();
        if (adminLoaded.has(language)) return;
        instance.addResourceBundle(language, "common", admin);
        adminLoaded.add(language);
      }),
  );
}
