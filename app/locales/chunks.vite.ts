import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";
import { commonPart, LOCALE_PARTS, type LocalePart } from "../core/i18n/locale-parts.ts";
import { LANGUAGES, type Language } from "../core/i18n/languages.ts";

/**
 * Browser modules, one per language and part: `virtual:flagstaff/locale/en-US` (the `common` groups any
 * page uses), `virtual:flagstaff/locale/en-US-game` (the game pages' groups) and
 * `virtual:flagstaff/locale/en-US-admin` (the admin pages' groups); see app/core/i18n/locale-parts.ts. The `errors` namespace stays on the server (API and mail messages
 * arrive translated), so the browser never loads it.
 */
const LOCALE_PREFIX = "virtual:flagstaff/locale/";
/** Server-only module: for each language and part, the browser files of its chunk. */
export const LOCALE_CHUNKS_MODULE = "virtual:flagstaff/locale-chunks";
const RESOLVED_CHUNKS = `\0${LOCALE_CHUNKS_MODULE}`;

type LocaleChunks = Record<Language, Record<LocalePart, string[]>>;

function parseLocaleId(id: string): { language: Language; part: LocalePart } | null {
  if (!id.startsWith(`\0${LOCALE_PREFIX}`)) return null;
  const name = id.slice(LOCALE_PREFIX.length + 1);
  const part: LocalePart = LOCALE_PARTS.find((p) => p !== "shared" && name.endsWith(`-${p}`)) ?? "shared";
  const language = LANGUAGES.find((l) => l === (part === "shared" ? name : name.slice(0, -`-${part}`.length)));
  return language ? { language, part } : null;
}

/**
 * Builds the browser's translation modules, and lets the server name a page's translation chunks in the
 * HTML (modulepreload links), so the browser fetches them alongside the other first-load modules. The
 * client build runs before the server build (the server embeds the client manifest), so the client's
 * chunk names are known by then. In development nothing is preloaded: the browser imports the modules
 * when it starts.
 */
export function localeChunks(): Plugin {
  let built: LocaleChunks | null = null;
  let base = "/";
  let root = process.cwd();
  return {
    name: "flagstaff:locale-chunks",
    // One plugin instance for all environments: the server build reads what the client build recorded.
    sharedDuringBuild: true,
    configResolved(config) {
      base = config.base;
      root = config.root;
    },
    resolveId(id) {
      if (id === LOCALE_CHUNKS_MODULE) return RESOLVED_CHUNKS;
      if (id.startsWith(LOCALE_PREFIX) && parseLocaleId(`\0${id}`)) return `\0${id}`;
      return undefined;
    },
    load(id) {
      const locale = parseLocaleId(id);
      if (locale) {
        // Root's client middleware names these modules, but only the browser runs it; the server has
        // every translation already (app/locales/index.ts).
        if (this.environment.config.consumer === "server") return "export default {};";
        const file = join(root, "app/locales", locale.language, "common.json");
        this.addWatchFile(file);
        const common = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
        return `export default ${JSON.stringify(commonPart(common, locale.part))};`;
      }
      if (id !== RESOLVED_CHUNKS) return undefined;
      if (this.environment.config.consumer === "client") this.error(`${LOCALE_CHUNKS_MODULE} is for the server only`);
      let chunks: LocaleChunks;
      if (this.environment.mode === "dev") {
        chunks = Object.fromEntries(LANGUAGES.map((l) => [l, Object.fromEntries(LOCALE_PARTS.map((p) => [p, []]))])) as unknown as LocaleChunks;
      } else if (built) {
        chunks = built;
      } else {
        this.error("the locale chunks are unknown: the client build must run before the server build");
      }
      return `export default ${JSON.stringify(chunks)};`;
    },
    generateBundle(_options, bundle) {
      if (this.environment.config.consumer !== "client") return;
      const found: Partial<Record<Language, Partial<Record<LocalePart, string[]>>>> = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk" || !chunk.facadeModuleId) continue;
        const locale = parseLocaleId(chunk.facadeModuleId);
        if (!locale) continue;
        (found[locale.language] ??= {})[locale.part] = [chunk.fileName, ...chunk.imports].map((file) => `${base}${file}`);
      }
      const missing = LANGUAGES.flatMap((l) => LOCALE_PARTS.filter((p) => !found[l]?.[p]).map((p) => `${l} (${p})`));
      if (missing.length > 0) this.error(`no browser chunk for the translations of ${missing.join(", ")}`);
      built = found as LocaleChunks;
    },
  };
}
