import type { BackendModule, i18n, ResourceKey } from "i18next";
import type { Language } from "~/core/i18n/languages";
import { type LocalePart, partsForPath } from "~/core/i18n/locale-parts";

type Groups = { [group: string]: ResourceKey };

/**
 * The browser's translations: per language, the `common` groups every page uses, the game pages' groups and
 * the admin pages' groups, each a chunk of its own (app/locales/chunks.vite.ts), so a page ships only its own
 * language and sections. The root route names the page's chunks in the HTML (modulepreload), so these imports
 * find them already fetched; other languages are fetched when the user switches (i18next waits for them
 * before it changes language), and a section's part when one of its pages opens (the root's client
 * middleware).
 */
const LOADERS: Record<Language, Record<LocalePart, () => Promise<{ default: Groups }>>> = {
  "en-US": {
    shared: () => import("virtual:flagstaff/locale/en-US"),
    game: () => import("virtual:flagstaff/locale/en-US-game"),
    admin: () => import("virtual:flagstaff/locale/en-US-admin"),
  },
  "ja-JP": {
    shared: () => import("virtual:flagstaff/locale/ja-JP"),
    game: () => import("virtual:flagstaff/locale/ja-JP-game"),
    admin: () => import("virtual:flagstaff/locale/ja-JP-admin"),
  },
  "zh-CN": {
    shared: () => import("virtual:flagstaff/locale/zh-CN"),
    game: () => import("virtual:flagstaff/locale/zh-CN-game"),
    admin: () => import("virtual:flagstaff/locale/zh-CN-admin"),
  },
};

function isLanguage(tag: string): tag is Language {
  return Object.hasOwn(LOADERS, tag);
}

/** The parts the pages opened in this page load needed: every language loaded from then on includes them. */
const wanted = new Set<LocalePart>(["shared"]);
/** Parts in i18next's store, by language. */
const loaded = new Map<Language, Set<LocalePart>>();

const loadedParts = (language: Language) => loaded.get(language) ?? loaded.set(language, new Set()).get(language)!;

async function loadCommon(language: Language): Promise<Groups> {
  const parts = [...wanted];
  const modules = await Promise.all(parts.map((part) => LOADERS[language][part]()));
  for (const part of parts) loadedParts(language).add(part);
  return Object.assign({}, ...modules.map((module) => module.default)) as Groups;
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

/** Call before i18next's init with the page's path: its sections' parts load with the language. */
export function includePageTranslations(pathname: string) {
  for (const part of partsForPath(pathname)) wanted.add(part);
}

/** Adds the page's parts to its languages (the current one and its fallback) before the page renders. */
export async function loadPageTranslations(instance: i18n, pathname: string): Promise<void> {
  // The shared part came with i18next's init: a page that needs nothing else waits for nothing.
  if (partsForPath(pathname).length === 1) return;
  includePageTranslations(pathname);
  const languages = instance.languages.filter(isLanguage);
  // Finishes loads under way (which may have started without these parts) and loads missing languages.
  await instance.loadLanguages(languages);
  await Promise.all(
    languages.flatMap((language) =>
      [...wanted]
        .filter((part) => !loadedParts(language).has(part))
        .map(async (part) => {
          const { default: groups } = await LOADERS[language][part]();
          if (loadedParts(language).has(part)) return;
          instance.addResourceBundle(language, "common", groups);
          loadedParts(language).add(part);
        }),
    ),
  );
}
