import type { z } from "zod";
import { errorField } from "./errors";
import type { Translate } from "./i18n/translator";

/**
 * Whether an issue is the bound of zod's safe-integer check (`.int()` refuses numbers beyond ±2^53 − 1
 * before the schema's own range is checked): "must be at most 9007199254740991" names no real limit.
 */
function isSafeIntegerBound(issue: z.core.$ZodIssue): boolean {
  const numeric = (origin: string) => origin === "int" || origin === "number";
  if (issue.code === "too_big") return numeric(issue.origin) && Number(issue.maximum) === Number.MAX_SAFE_INTEGER;
  if (issue.code === "too_small") return numeric(issue.origin) && Number(issue.minimum) === Number.MIN_SAFE_INTEGER;
  return false;
}

/**
 * The issue to report: the first, except that a safe-integer bound gives way to the schema's own range
 * for the same field (a port of 1e20 is told "at most 65535").
 */
export function firstIssue(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue | undefined {
  const first = issues[0];
  if (!first || !isSafeIntegerBound(first)) return first;
  const samePath = (issue: z.core.$ZodIssue) => issue.path.length === first.path.length && issue.path.every((segment, i) => segment === first.path[i]);
  return issues.find((issue) => issue !== first && samePath(issue) && !isSafeIntegerBound(issue)) ?? first;
}

/** The nearest named key of a path: an item of a list (`tags.1`) is named by its list; "" for the body. */
const fieldKey = (path: readonly PropertyKey[]) => String(path.findLast((segment) => typeof segment === "string") ?? "");

/**
 * The request field a failing rule is about: the top-level key of its path (a form's field), or for a body
 * that is one value (POST team/accept) the field its message names (errorField); null when neither.
 */
export function issueField(issue: z.core.$ZodIssue): string | null {
  return pathField(issue.path) ?? (issue.path.length === 0 && issue.message ? errorField(issue.message) : null);
}

/** The request field a body path is in (its top-level key; none for the body itself or an array's item). */
export function pathField(path: readonly PropertyKey[]): string | null {
  const top = path[0];
  return typeof top === "string" ? top : null;
}

/** The localised name of the field at `path` (its key when it has no name; "Request body" at the top). */
export function fieldLabel(path: readonly PropertyKey[], t: Translate): string {
  const key = fieldKey(path);
  return key ? t(`fields.${key}`, { defaultValue: key }) : t("fields.body");
}

/** A zod issue turned into a localised sentence: schema messages are i18n keys; other issues map by code. */
export function describeIssue(
  issue: z.core.$ZodIssue,
  t: Translate,
  isKey: (key: string) => boolean,
  input?: unknown,
): string {
  const field = fieldLabel(issue.path, t);
  // A field left empty is asked for, not told a length rule ("3 to 15 characters" for a blank user name);
  // a minimum of 1 is the schema's own emptiness rule, whose message stands.
  // So is an email address left empty ("Email is required", as the forms say), rather than told it is not a valid one.
  const askedFor = (issue.code === "too_small" && issue.origin === "string" && Number(issue.minimum) > 1) || (issue.code === "invalid_format" && issue.format === "email");
  if (askedFor) {
    const value = valueAt(input, issue.path);
    if (typeof value === "string" && value.trim() === "") return t("validation.required", { field });
  }
  // A custom issue may name what was wrong (`params`, e.g. the entry of a list that was refused).
  if (issue.message && isKey(issue.message)) return t(issue.message, { field, ...(issue.code === "custom" ? issue.params : {}) });
  // The body as a whole, where no field can be named: the error catalogue's words (spec §8).
  if (issue.path.length === 0 && issue.code === "invalid_type") {
    return valueAt(input, issue.path) == null ? t("validation.missing_parameter") : t("validation.invalid_parameter");
  }
  switch (issue.code) {
    case "invalid_type": {
      const value = valueAt(input, issue.path);
      // 12.5 where a whole number is wanted is the right type, the wrong kind of number.
      if (issue.expected === "int" && typeof value === "number") return t("validation.whole_number", { field });
      return value == null ? t("validation.required", { field }) : t("validation.invalid_type", { field });
    }
    case "too_small":
      if (issue.origin === "string") {
        return Number(issue.minimum) <= 1
          ? t("validation.required", { field })
          : t("validation.too_short", { field, min: Number(issue.minimum) });
      }
      if (issue.origin === "array") return t("validation.too_few", { field, min: Number(issue.minimum), count: Number(issue.minimum) });
      if (isSafeIntegerBound(issue)) return t("validation.out_of_range", { field });
      // `.positive()` and `.gt()` leave the bound out: "at least 0" would let 0 through.
      if (issue.inclusive === false) return t("validation.greater_than", { field, min: Number(issue.minimum) });
      return t("validation.too_small_number", { field, min: Number(issue.minimum) });
    case "too_big":
      if (issue.origin === "string") {
        // An item of a list (`tags.1`) is named by its list: the limit is each item's.
        const ofItem = typeof issue.path.at(-1) === "number" && fieldKey(issue.path) !== "";
        return t(ofItem ? "validation.item_too_long" : "validation.too_long", { field, max: Number(issue.maximum) });
      }
      if (issue.origin === "array") return t("validation.too_many", { field, max: Number(issue.maximum), count: Number(issue.maximum) });
      if (isSafeIntegerBound(issue)) return t("validation.out_of_range", { field });
      if (issue.inclusive === false) return t("validation.less_than", { field, max: Number(issue.maximum) });
      return t("validation.too_big_number", { field, max: Number(issue.maximum) });
    case "invalid_format":
      return issue.format === "email" ? t("validation.invalid_email") : t("validation.invalid_format", { field });
    case "invalid_value":
      return t("validation.invalid_value", { field });
    default:
      return issue.path.length === 0 ? t("validation.incorrect_parameter") : t("validation.invalid", { field });
  }
}

/** The value at an issue's path in the parsed input (zod 4 issues do not carry the input by default). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** C0 controls other than tab, line feed and carriage return, and DEL: never meant in a text field. */
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** A UTF-16 surrogate without its pair (JSON can spell one, `"\ud800"`; it is not a character). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/**
 * Text that shows nothing because of format characters (zero-width spaces, direction marks), with or
 * without white space. White space alone is left to the schemas, which trim it or refuse it by name.
 */
const INVISIBLE_ONLY = /^[\s\p{Cf}]*\p{Cf}[\s\p{Cf}]*$/u;

/**
 * How deep a request body may nest. The API's bodies nest a few levels (a list of objects in an object);
 * a recursive walk of thousands of levels would exhaust the stack, so deeper input is refused.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Cleans a parsed JSON request body before its schema sees it: a string that shows nothing (zero-width or
 * direction marks, maybe with white space) becomes "", so required fields say "required" instead of
 * storing an invisible title; a string with a control character or a lone surrogate is refused, and so is
 * a body nested deeper than `MAX_JSON_DEPTH`.
 * Returns the cleaned value, the path of the first refused string, or `tooDeep`.
 */
export function cleanJsonInput(value: unknown): { value: unknown } | { badPath: (string | number)[] } | { tooDeep: true } {
  const path: (string | number)[] = []; // the walk's position, copied only when a string is refused
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      if (CONTROL.test(v) || LONE_SURROGATE.test(v)) throw new BadText([...path]);
      return INVISIBLE_ONLY.test(v) ? "" : v;
    }
    if (v === null || typeof v !== "object") return v;
    if (path.length >= MAX_JSON_DEPTH) throw TOO_DEEP;
    const at = (key: string | number, item: unknown): unknown => {
      path.push(key);
      const cleaned = walk(item);
      path.pop();
      return cleaned;
    };
    if (Array.isArray(v)) return v.map((item, i) => at(i, item));
    // fromEntries defines each key as data, so a `__proto__` key stays a plain (ignored) field.
    return Object.fromEntries(Object.entries(v).map(([key, item]) => [key, at(key, item)]));
  };
  try {
    return { value: walk(value) };
  } catch (err) {
    if (err instanceof BadText) return { badPath: err.path };
    if (err === TOO_DEEP) return { tooDeep: true };
    throw err;
  }
}

const TOO_DEEP = Symbol("too deep");

class BadText extends Error {
  constructor(readonly path: (string | number)[]) {
    super("bad text");
  }
}
