import type { z } from "zod";
import type { Translate } from "./i18n/translator";

/** A zod issue turned into a localised sentence: schema messages are i18n keys; other issues map by code. */
export function describeIssue(
  issue: z.core.$ZodIssue,
  t: Translate,
  isKey: (key: string) => boolean,
  input?: unknown,
): string {
  // The field is the nearest named key: an item of a list (`tags.1`) is named by its list.
  const fieldName = String(issue.path.findLast((segment) => typeof segment === "string") ?? "");
  const field = fieldName ? t(`fields.${fieldName}`, { defaultValue: fieldName }) : t("fields.body");
  if (issue.message && isKey(issue.message)) return t(issue.message, { field });
  switch (issue.code) {
    case "invalid_type":
      return valueAt(input, issue.path) == null
        ? t("validation.required", { field })
        : t("validation.invalid_type", { field });
    case "too_small":
      if (issue.origin === "string") {
        return Number(issue.minimum) <= 1
          ? t("validation.required", { field })
          : t("validation.too_short", { field, min: Number(issue.minimum) });
      }
      if (issue.origin === "array") return t("validation.too_few", { field, min: Number(issue.minimum) });
      return t("validation.too_small_number", { field, min: Number(issue.minimum) });
    case "too_big":
      if (issue.origin === "string") return t("validation.too_long", { field, max: Number(issue.maximum) });
      if (issue.origin === "array") return t("validation.too_many", { field, max: Number(issue.maximum) });
      return t("validation.too_big_number", { field, max: Number(issue.maximum) });
    case "invalid_format":
      return issue.format === "email" ? t("validation.invalid_email") : t("validation.invalid_format", { field });
    case "invalid_value":
      return t("validation.invalid_value", { field });
    default:
      return t("validation.invalid", { field });
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
