/**
 * Text as searches compare it: width-folded (NFKC: "ＡＢＣ" is "abc") and lower-cased in every script
 * ("ZÜRICH" is "zürich", "ΣIGMA" is "σigma"). SQLite's `LIKE` and `lower()` fold ASCII letters only.
 */
export const foldText = (s: string) => s.normalize("NFKC").toLocaleLowerCase();

/** A hint SQLite's ASCII-only case folding compares rightly: printable ASCII alone. */
export const isAsciiHint = (hint: string) => /^[\x20-\x7e]*$/.test(hint);

const nameCollator = new Intl.Collator("en", { numeric: true });

/**
 * Names in the order people read lists in: "Åland" beside "alpha", "Éclair" beside "eclair", "team 9" before
 * "team 10", capitals beside their small letters (SQLite's ORDER BY sorts by code: "Zürich" before "abc").
 */
export const compareNames = (a: string, b: string) => nameCollator.compare(a, b);
