import { z } from "zod";

/**
 * Query-string values as the clients of this API send them. Tools written for the platform whose API we
 * keep (api.md) spell flags and names in any case — Python's `requests` sends `True`, .NET `True` too —
 * and that platform's binding reads them case-insensitively; so do these. A value that is none of the
 * allowed ones is refused (400), never read as a default.
 */

const BOOLEAN_WORDS = ["true", "false", "1", "0"] as const;

/** A query flag: `true`/`false` in any case, or `1`/`0`; absent is false. */
export const queryBoolean = z
  .preprocess(
    (value) => (typeof value === "string" ? value.trim().toLowerCase() : typeof value === "boolean" ? String(value) : value),
    z.enum(BOOLEAN_WORDS),
  )
  .transform((word) => word === "true" || word === "1")
  .default(false);

/** One of `values`, matched in any case and given back as spelled in `values`. */
export function queryEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess((value) => {
    if (typeof value !== "string") return value;
    const lower = value.trim().toLowerCase();
    return values.find((known) => known.toLowerCase() === lower) ?? value;
  }, z.enum(values));
}

/** Decimal digits with an optional sign: what api.md means by a number in a query string. */
const DECIMAL_INTEGER = /^[+-]?[0-9]+$/;

/**
 * A whole number in a query string, then checked by `range`. Only decimal digits are read: `Number()`
 * would also take `0x10`, `1e1` or `0b1`, spellings no client of the API means as a count.
 */
export const queryInt = (range: z.ZodNumber) => z.string().trim().regex(DECIMAL_INTEGER, "validation.whole_number").transform(Number).pipe(range);
