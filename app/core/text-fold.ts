/**
 * Text as searches compare it: width-folded (NFKC: "ＡＢＣ" is "abc") and lower-cased in every script
 * ("ZÜRICH" is "zürich", "ΣIGMA" is "σigma"). SQLite's `LIKE` and `lower()` fold ASCII letters only.
 */
export const foldText = (s: string) => s.normalize("NFKC").toLocaleLowerCase();

/** A hint SQLite's ASCII-only case folding compares rightly: printable ASCII alone. */
export const isAsciiHint = (hint: string) => /^[\x20-\x7e]*$/.test(hint);
