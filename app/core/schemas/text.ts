/**
 * Tabs and line breaks (CR, LF, NEL, the Unicode line and paragraph separators): a one-line input cannot
 * show them, so a value holding one would be silently changed by the next save of its form. Other
 * controls are refused for every field before the schemas (validation.ts `cleanJsonInput`).
 */
const LINE_BREAK_OR_TAB = /[\t\n\r\u0085\u2028\u2029]/;

/** Whether text fits a one-line input as it is: no tab or line break. */
export const isOneLine = (text: string): boolean => !LINE_BREAK_OR_TAB.test(text);

/** Messages (i18n keys) of a one-line field and of an item of a list of one-line texts (tags, hints). */
export const ONE_LINE = "validation.one_line";
export const ITEM_ONE_LINE = "validation.item_one_line";
