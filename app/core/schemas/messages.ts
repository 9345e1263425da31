/**
 * A schema's own message (an i18n key) for a value that is missing (absent or null) only. Given as
 * `z.number("key")`, zod also puts it on every check of that schema without a message of its own, so
 * an out-of-range number read "has the wrong type" and a 12,000-character notice "Content can't be
 * empty"; with this, those checks keep their own issue and describeIssue gives the range or length.
 * A value of the wrong type (a number for a notice's text) is told so (validation.invalid_type) by
 * describeIssue, not given a "missing" message that does not fit it.
 */
export const typeMessage = (key: string) => ({
  error: (issue: { code?: string; input?: unknown }) => (issue.code === "invalid_type" && issue.input == null ? key : undefined),
});
