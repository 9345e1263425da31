/**
 * Text limits count characters as api.md §3 and zod do: Unicode code points, so an emoji (two UTF-16 units, a
 * surrogate pair) is one character, and a lone surrogate is one too. `.length` and the browsers' `maxLength`
 * count UTF-16 units instead.
 */

const isHigh = (unit: number) => (unit & 0xfc00) === 0xd800;
const isLow = (unit: number) => (unit & 0xfc00) === 0xdc00;

/** How many surrogate pairs (characters outside the BMP) `text` holds: its units beyond its characters. */
export function surrogatePairCount(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    if (isHigh(text.charCodeAt(i)) && isLow(text.charCodeAt(i + 1))) {
      pairs++;
      i++;
    }
  }
  return pairs;
}

/** The length of `text` in characters (code points). */
export function codePointLength(text: string): number {
  return text.length - surrogatePairCount(text);
}

/** The first `count` characters of `text`, never half of a surrogate pair. */
export function firstCodePoints(text: string, count: number): string {
  let end = 0;
  for (let taken = 0; taken < count && end < text.length; taken++) {
    end += isHigh(text.charCodeAt(end)) && isLow(text.charCodeAt(end + 1)) ? 2 : 1;
  }
  return text.slice(0, end);
}

/**
 * The `maxLength` attribute, in UTF-16 units, that lets exactly `limit` characters into a control holding `kept`
 * when `inserted` goes in: the limit plus the surrogate pairs of the text that stays and of the part of the
 * insertion that fits. Browsers cut an insertion to the units the attribute leaves, so a value of `limit`
 * characters always fits and plain text still stops at `limit`.
 */
export function utf16MaxLength(limit: number, kept: string, inserted = ""): number {
  const fits = firstCodePoints(inserted, Math.max(0, limit - codePointLength(kept)));
  return limit + surrogatePairCount(kept) + surrogatePairCount(fits);
}

let graphemes: Intl.Segmenter | null | undefined;

/** A name's first user-perceived character (a whole emoji, a letter with its accents), upper-cased: an avatar's initial. */
export function initialOf(name: string): string {
  const text = name.trim();
  graphemes ??= typeof Intl.Segmenter === "function" ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
  const first = graphemes ? (graphemes.segment(text)[Symbol.iterator]().next().value?.segment ?? "") : firstCodePoints(text, 1);
  return first.toUpperCase();
}
