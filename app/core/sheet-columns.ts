/**
 * Column widths of the Excel exports, in Excel's unit (characters of the default font's digit width). Without
 * them every column has the default width of about 8.43: a date cell formatted `yyyy-mm-dd hh:mm:ss` shows as
 * `########` until widened, and team names, emails and crews are cut off.
 */

/** A cell as the exports write it: a plain value, or an object carrying one in `value` (a header, a date). */
export type SheetCell = unknown;

/** Width of a date column: the 19 characters of `yyyy-mm-dd hh:mm:ss` and the cell's margin. */
export const DATE_COLUMN_WIDTH = 21;
/** No column is made narrower than Excel's default, nor wider than this (a long answer or crew wraps the view). */
export const MIN_COLUMN_WIDTH = 8;
export const MAX_COLUMN_WIDTH = 60;
/** Room for the cell margins and a bold header's wider glyphs. */
const PADDING = 2;

// East Asian wide and fullwidth characters (Hangul Jamo, CJK, kana, Hangul syllables, compatibility ideographs,
// fullwidth forms, the supplementary ideograph planes) and emoji take two digit widths.
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f6ff}\u{1f900}-\u{1faff}\u{20000}-\u{3fffd}]/u;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** How many digit widths `text` takes in a spreadsheet cell: wide characters count two, combining marks none. */
export function displayWidth(text: string): number {
  // Most cells (user names, emails, flags, numbers) are printable ASCII: one width each.
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const ch of text) {
    if (/\p{Mn}|\p{Me}|\p{Cf}/u.test(ch)) continue;
    width += WIDE.test(ch) ? 2 : 1;
  }
  return width;
}

const isCellObject = (cell: SheetCell): cell is { value?: unknown; type?: unknown } =>
  typeof cell === "object" && cell !== null && !(cell instanceof Date);

function cellWidth(cell: SheetCell): number {
  if (cell === null || cell === undefined) return 0;
  const value = isCellObject(cell) ? cell.value : cell;
  if (value instanceof Date || (isCellObject(cell) && cell.type === Date)) return DATE_COLUMN_WIDTH;
  if (value === null || value === undefined) return 0;
  // The longest line of a cell is what shows; a number as the text Excel prints for it.
  return Math.max(...String(value).split("\n").map(displayWidth)) + PADDING;
}

/**
 * One `{ width }` per column of `rows` (header included): the widest cell of the column, a date column
 * always at least `DATE_COLUMN_WIDTH`, between `MIN_COLUMN_WIDTH` and `MAX_COLUMN_WIDTH`.
 */
export function computeColumnWidths(rows: readonly (readonly SheetCell[])[]): { width: number }[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cellWidth(cell));
    });
  }
  return Array.from(widths, (w) => ({ width: Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, w ?? 0)) }));
}
