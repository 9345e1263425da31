import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { profileUpdateSchema } from "./account";
import { challengeCreateSchema, challengeUpdateSchema, flagsCreateSchema } from "./challenge";
import { configUpdateSchema } from "./config";
import { gameUpdateSchema, noticeSchema } from "./game";
import { postCreateSchema } from "./post";
import { teamCreateSchema, teamUpdateSchema } from "./team";
import { isOneLine } from "./text";

describe("isOneLine", () => {
  it.each(["a\nb", "a\r\nb", "a\rb", "a\tb", "a\u0085b", "a\u2028b", "a\u2029b"])("refuses %j", (text) => expect(isOneLine(text)).toBe(false));
  it.each(["", "Red Team", "红队 🚩", "a\u00a0b"])("accepts %j", (text) => expect(isOneLine(text)).toBe(true));
});

/** The message of the first issue when `body` is refused, else "ok". */
function outcome(schema: z.ZodType, body: unknown): string {
  const result = schema.safeParse(body);
  return result.success ? "ok" : String(result.error.issues[0]?.message);
}

// Each field as the UI edits it: a one-line input (TextField, <input>) or a text area / Markdown editor.
const ONE_LINE_FIELDS: [string, z.ZodType, (text: string) => unknown][] = [
  ["team name (create)", teamCreateSchema, (name) => ({ name })],
  ["team name (update)", teamUpdateSchema, (name) => ({ name })],
  ["real name", profileUpdateSchema, (realName) => ({ realName })],
  ["student number", profileUpdateSchema, (stdNumber) => ({ stdNumber })],
  ["game title", gameUpdateSchema, (title) => ({ title })],
  ["game summary", gameUpdateSchema, (summary) => ({ summary })],
  ["game invitation code", gameUpdateSchema, (inviteCode) => ({ inviteCode })],
  ["division name", gameUpdateSchema, (name) => ({ divisions: [{ name }] })],
  ["division invitation code", gameUpdateSchema, (inviteCode) => ({ divisions: [{ name: "Open", inviteCode }] })],
  ["challenge title (create)", challengeCreateSchema, (title) => ({ title, category: "Misc", type: "StaticAttachment" })],
  ["challenge title (update)", challengeUpdateSchema, (title) => ({ title })],
  ["file name", challengeUpdateSchema, (fileName) => ({ fileName })],
  ["flag template", challengeUpdateSchema, (flagTemplate) => ({ flagTemplate })],
  ["flag", flagsCreateSchema, (flag) => [{ flag }]],
  ["post title", postCreateSchema, (title) => ({ title })],
  ["platform title", configUpdateSchema, (title) => ({ globalConfig: { title } })],
  ["platform slogan", configUpdateSchema, (slogan) => ({ globalConfig: { slogan } })],
];

const ITEM_FIELDS: [string, z.ZodType, (text: string) => unknown][] = [
  ["hint", challengeUpdateSchema, (hint) => ({ hints: ["first", hint] })],
  ["tag", postCreateSchema, (tag) => ({ title: "Post", tags: ["news", tag] })],
];

const MULTI_LINE_FIELDS: [string, z.ZodType, (text: string) => unknown][] = [
  ["team bio", teamUpdateSchema, (bio) => ({ bio })],
  ["user bio", profileUpdateSchema, (bio) => ({ bio })],
  ["game content", gameUpdateSchema, (content) => ({ content })],
  ["writeup instructions", gameUpdateSchema, (writeupNote) => ({ writeupNote })],
  ["notice", noticeSchema, (content) => ({ content })],
  ["challenge content", challengeUpdateSchema, (content) => ({ content })],
  ["post summary", postCreateSchema, (summary) => ({ title: "Post", summary })],
  ["post content", postCreateSchema, (content) => ({ title: "Post", content })],
  ["platform description", configUpdateSchema, (description) => ({ globalConfig: { description } })],
  ["footer", configUpdateSchema, (footerInfo) => ({ globalConfig: { footerInfo } })],
];

describe("one-line fields", () => {
  it.each(ONE_LINE_FIELDS)("%s refuses tabs and line breaks inside", (_, schema, body) => {
    for (const text of ["Red\nTeam", "a\r\nb\tc", "a\u2028b"]) expect(outcome(schema, body(text)), JSON.stringify(text)).toBe("validation.one_line");
    expect(outcome(schema, body("Red Team"))).toBe("ok");
  });

  it.each(ITEM_FIELDS)("each %s refuses tabs and line breaks inside", (_, schema, body) => {
    expect(outcome(schema, body("two\nlines"))).toBe("validation.item_one_line");
    expect(outcome(schema, body("one line"))).toBe("ok");
  });

  it("forgives a line break at either end of a trimmed field: it is trimmed away", () => {
    expect(teamCreateSchema.parse({ name: "Red Team\n" }).name).toBe("Red Team");
  });
});

describe("multi-line fields", () => {
  it.each(MULTI_LINE_FIELDS)("%s keeps its line breaks and tabs", (_, schema, body) => {
    expect(outcome(schema, body("line one\n\tline two"))).toBe("ok");
  });
});
