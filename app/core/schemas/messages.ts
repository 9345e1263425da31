/**
 * A schema's own message (an i18n key) for a value that is missing or of the wrong type only. Given as
 * `z.number("key")`, zod also puts it on every check of that schema without a message of its own, so
 * an out-of-range number read "has the wrong type" and a 12,000-character notice "Content can't be
 * empty"; with this, those checks keep their own issue and describeIssue gives the range or length.
 */
export const typeMessage = (key: string) => ({
  // 12.5 for a whole number is of the right type: describeIssue says "must be a whole number".
  error: (issue: { code?: string; expected?: string; input?: unknown }) =>
    issue.code === "invalid_type" && !(issue.expected === "int" && typeof issue.input === "number") ? key : undefined,
});
