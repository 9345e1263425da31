declare module "virtual:flagstaff/locale-chunks" {
  import type { Language } from "~/core/i18n/languages";
  import type { LocalePart } from "~/core/i18n/locale-parts";

  /** Browser files (absolute URLs) of each language's translation chunks; see app/locales/chunks.vite.ts. */
  const chunks: Record<Language, Record<LocalePart, string[]>>;
  export default chunks;
}

declare module "virtual:flagstaff/locale/*" {
  import type { ResourceKey } from "i18next";

  /** Groups of one language's `common` translations; see app/locales/chunks.vite.ts. */
  const common: { [group: string]: ResourceKey };
  export default common;
}
