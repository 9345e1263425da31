import type { Resource } from "i18next";
import enCommon from "./en-US/common.json";
import enErrors from "./en-US/errors.json";
import jaCommon from "./ja-JP/common.json";
import jaErrors from "./ja-JP/errors.json";
import zhCommon from "./zh-CN/common.json";
import zhErrors from "./zh-CN/errors.json";

/**
 * All translations, bundled (Workers have no file system); the server (SSR, API, mail) uses every one.
 * The browser loads only the page's language, and only `common`, as a chunk (app/locales/browser.ts).
 * `common` holds UI strings; `errors` holds server messages (error titles, validation, mail subjects).
 */
const resources = {
  "en-US": { common: enCommon, errors: enErrors },
  "ja-JP": { common: jaCommon, errors: jaErrors },
  "zh-CN": { common: zhCommon, errors: zhErrors },
} satisfies Resource;

export default resources;
