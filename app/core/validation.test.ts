import { describe, expect, it } from "vitest";
import { z } from "zod";
import { typeMessage } from "./schemas/messages";
import { registerSchema } from "./schemas/account";
import { inviteCodeSchema } from "./schemas/team";
import { cleanJsonInput, describeIssue, firstIssue, issueField, MAX_JSON_DEPTH, pathField } from "./validation";

const t = (key: string, params?: Record<string, unknown>) => (key.startsWith("fields.") ? key : `${key}${params ? JSON.stringify(params) : ""}`);
const isKey = (key: string) => key.startsWith("validation.");

function first(schema: z.ZodType, input: unknown): string {
  const r = schema.safeParse(input);
  if (r.success) throw new Error("expected a failure");
  return describeIssue(r.error.issues[0]!, t, isKey, input);
}

describe("describeIssue", () => {
  const schema = z.object({ name: z.string().min(3).max(5), tags: z.array(z.string()).max(1), custom: z.string().min(1, "validation.custom").optional() });

  it("tells a missing field from a wrong type", () => {
    expect(first(schema, { tags: [] })).toBe('validation.required{"field":"fields.name"}');
    expect(first(schema, { name: 5, tags: [] })).toBe('validation.invalid_type{"field":"fields.name"}');
  });

  it("maps lengths and counts", () => {
    expect(first(schema, { name: "ab", tags: [] })).toBe('validation.too_short{"field":"fields.name","min":3}');
    expect(first(schema, { name: "abcdef", tags: [] })).toBe('validation.too_long{"field":"fields.name","max":5}');
    expect(first(schema, { name: "abc", tags: ["a", "b"] })).toBe('validation.too_many{"field":"fields.tags","max":1,"count":1}');
  });

  it("uses schema messages that are i18n keys", () => {
    expect(first(schema, { name: "abc", tags: [], custom: "" })).toBe('validation.custom{"field":"fields.custom"}');
  });

  it("asks for a field left empty instead of giving its length rule, and keeps a schema's own emptiness message", () => {
    const named = z.object({ userName: z.string().trim().min(3, "validation.username_length").max(15, "validation.username_length"), bio: z.string().trim().min(1, "validation.bio_empty") });
    expect(first(named, { userName: "", bio: "x" })).toBe('validation.required{"field":"fields.userName"}');
    expect(first(named, { userName: "   ", bio: "x" })).toBe('validation.required{"field":"fields.userName"}');
    expect(first(named, { userName: "ab", bio: "x" })).toBe('validation.username_length{"field":"fields.userName"}');
    expect(first(named, { userName: "abc", bio: "" })).toBe('validation.bio_empty{"field":"fields.bio"}');
  });

  it("asks for an email address left empty, and says a wrong one is not valid", () => {
    expect(first(registerSchema, { userName: "ada", password: "Passw0rd", email: "" })).toBe('validation.required{"field":"fields.email"}');
    expect(first(registerSchema, { userName: "ada", password: "Passw0rd", email: "  " })).toBe('validation.required{"field":"fields.email"}');
    expect(first(registerSchema, { userName: "ada", password: "Passw0rd", email: "ada@" })).toBe('validation.invalid_email{"field":"fields.email"}');
  });

  it("gives a range, not the type's message, for a number of the right type out of range", () => {
    // The schemas give their type message with typeMessage, which leaves the type's checks their own issue.
    const ranged = z.object({ minScoreRate: z.number(typeMessage("validation.invalid_type")).min(0).max(1), limit: z.number(typeMessage("validation.invalid_type")).int().min(0) });
    expect(first(ranged, { minScoreRate: 2, limit: 0 })).toBe('validation.too_big_number{"field":"fields.minScoreRate","max":1}');
    expect(first(ranged, { minScoreRate: -1, limit: 0 })).toBe('validation.too_small_number{"field":"fields.minScoreRate","min":0}');
    expect(first(ranged, { minScoreRate: 1, limit: -5 })).toBe('validation.too_small_number{"field":"fields.limit","min":0}');
    expect(first(ranged, { minScoreRate: "x", limit: 0 })).toBe('validation.invalid_type{"field":"fields.minScoreRate"}');
    expect(first(ranged, { minScoreRate: 1, limit: 1.5 })).toBe('validation.whole_number{"field":"fields.limit"}');
  });

  it("gives the length, not an emptiness message, for a text too long", () => {
    const notice = z.object({ content: z.string(typeMessage("validation.content_empty")).max(5), to: z.string(typeMessage("validation.required")).max(3) });
    expect(first(notice, { content: "123456", to: "a" })).toBe('validation.too_long{"field":"fields.content","max":5}');
    expect(first(notice, { content: "ok", to: "abcd" })).toBe('validation.too_long{"field":"fields.to","max":3}');
    expect(first(notice, { to: "a" })).toBe('validation.content_empty{"field":"fields.content"}');
  });

  it("keeps a schema's missing-value message for a missing or null value, and says a wrong type is one", () => {
    const notice = z.object({ content: z.string(typeMessage("validation.content_empty")).max(5) });
    expect(first(notice, {})).toBe('validation.content_empty{"field":"fields.content"}');
    expect(first(notice, { content: null })).toBe('validation.content_empty{"field":"fields.content"}');
    for (const content of [123, true, ["a"], { a: 1 }]) {
      expect(first(notice, { content }), JSON.stringify(content)).toBe('validation.invalid_type{"field":"fields.content"}');
    }
  });

  it("says greater or less than for a bound the value may not equal", () => {
    const join = z.object({ divisionId: z.number().int().positive(), share: z.number().lt(1) });
    expect(first(join, { divisionId: 0, share: 0 })).toBe('validation.greater_than{"field":"fields.divisionId","min":0}');
    expect(first(join, { divisionId: -3, share: 0 })).toBe('validation.greater_than{"field":"fields.divisionId","min":0}');
    expect(first(join, { divisionId: 1, share: 1 })).toBe('validation.less_than{"field":"fields.share","max":1}');
    // An inclusive bound keeps "at least" / "at most".
    const ranged = z.object({ n: z.number().min(0).max(9) });
    expect(first(ranged, { n: -1 })).toBe('validation.too_small_number{"field":"fields.n","min":0}');
    expect(first(ranged, { n: 10 })).toBe('validation.too_big_number{"field":"fields.n","max":9}');
  });

  it("names an item of a list by its list, with the limit of each item", () => {
    const post = z.object({ tags: z.array(z.string().max(3)) });
    expect(first(post, { tags: ["ok", "toolong"] })).toBe('validation.item_too_long{"field":"fields.tags","max":3}');
  });

  it("uses the catalogue's generic words where no field can be named: the body as a whole", () => {
    expect(first(schema, undefined)).toBe("validation.missing_parameter");
    expect(first(schema, null)).toBe("validation.missing_parameter");
    expect(first(schema, [])).toBe("validation.invalid_parameter");
    expect(first(schema, "text")).toBe("validation.invalid_parameter");
    const refined = z.object({ a: z.number() }).refine((v) => v.a > 1);
    expect(first(refined, { a: 1 })).toBe("validation.incorrect_parameter");
    // A field is still named by its rule.
    expect(first(z.object({ a: z.number() }).refine((v) => v.a > 1, { path: ["a"] }), { a: 1 })).toBe('validation.invalid{"field":"fields.a"}');
  });

  it("passes the count for plural forms of list sizes", () => {
    const list = z.object({ items: z.array(z.string()).min(2) });
    expect(first(list, { items: ["a"] })).toBe('validation.too_few{"field":"fields.items","min":2,"count":2}');
  });
});

describe("firstIssue", () => {
  const port = z.object({ exposePort: z.number(typeMessage("validation.invalid_type")).int().min(1).max(65535), teamId: z.number().int().positive() });
  const describe1 = (input: unknown) => {
    const r = port.safeParse(input);
    if (r.success) throw new Error("expected a failure");
    return describeIssue(firstIssue(r.error.issues)!, t, isKey, input);
  };

  it("gives the field's own range, not the safe-integer bound of .int()", () => {
    expect(describe1({ exposePort: 1e20, teamId: 1 })).toBe('validation.too_big_number{"field":"fields.exposePort","max":65535}');
    expect(describe1({ exposePort: -1e20, teamId: 1 })).toBe('validation.too_small_number{"field":"fields.exposePort","min":1}');
  });

  it("says out of range when the safe-integer bound is the only limit", () => {
    expect(describe1({ exposePort: 80, teamId: 1e308 })).toBe('validation.out_of_range{"field":"fields.teamId"}');
  });

  it("keeps the first issue otherwise", () => {
    expect(describe1({ exposePort: 0, teamId: 1 })).toBe('validation.too_small_number{"field":"fields.exposePort","min":1}');
    expect(firstIssue([])).toBeUndefined();
  });
});

describe("pathField", () => {
  it("names the top-level field of a refused string's path, none for the body or an array's item", () => {
    const refused = cleanJsonInput({ notice: "ok", content: "bell \u0007" });
    expect(refused).toEqual({ badPath: ["content"] });
    expect(pathField((refused as { badPath: (string | number)[] }).badPath)).toBe("content");
    expect(pathField(["divisions", 0, "name"])).toBe("divisions");
    expect(pathField([])).toBeNull();
    expect(pathField([2])).toBeNull();
  });
});

describe("issueField", () => {
  const fieldOf = (schema: z.ZodType, input: unknown) => {
    const r = schema.safeParse(input);
    if (r.success) throw new Error("expected a failure");
    return issueField(firstIssue(r.error.issues)!);
  };

  it("names the form field of the failing rule, also of a nested one", () => {
    expect(fieldOf(registerSchema, { userName: "a b", password: "Passw0rd", email: "a@example.com" })).toBe("userName");
    expect(fieldOf(registerSchema, { userName: "alice", password: "Passw0rd", email: "not an email" })).toBe("email");
    expect(fieldOf(z.object({ divisions: z.array(z.object({ name: z.string().min(1) })) }), { divisions: [{ name: "" }] })).toBe("divisions");
  });

  it("names a one-value body by the field its message is about, else none", () => {
    expect(fieldOf(inviteCodeSchema, "x".repeat(300))).toBe("inviteCode");
    expect(fieldOf(z.string().max(1), "ab")).toBeNull();
  });
});

describe("cleanJsonInput", () => {
  it("empties strings that show nothing, so required fields say so", () => {
    const cleaned = cleanJsonInput({ title: "\u200b\u200b", nested: [{ name: " \u200e\u2060 " }], kept: "\u200bvisible", n: 5, none: null });
    expect(cleaned).toEqual({ value: { title: "", nested: [{ name: "" }], kept: "\u200bvisible", n: 5, none: null } });
    expect(cleanJsonInput("\ufeff")).toEqual({ value: "" });
    // White space alone is the schemas' to trim or refuse by name (a blank flag template says so).
    expect(cleanJsonInput({ flagTemplate: "   " })).toEqual({ value: { flagTemplate: "   " } });
  });

  it("keeps tabs, new lines and ordinary text, and refuses control characters with their path", () => {
    expect(cleanJsonInput({ content: "a\tb\r\nc 旗 🚩" })).toEqual({ value: { content: "a\tb\r\nc 旗 🚩" } });
    expect(cleanJsonInput({ flags: [{ flag: "ok" }, { flag: "a\u0000b" }] })).toEqual({ badPath: ["flags", 1, "flag"] });
    expect(cleanJsonInput({ realName: "x\u001by" })).toEqual({ badPath: ["realName"] });
    expect(cleanJsonInput({ realName: "x\u007fy" })).toEqual({ badPath: ["realName"] });
  });

  it("refuses a body nested deeper than MAX_JSON_DEPTH instead of exhausting the stack", () => {
    const nest = (depth: number, inner: unknown): unknown => {
      let v = inner;
      for (let i = 0; i < depth; i++) v = [v];
      return v;
    };
    expect(cleanJsonInput(nest(MAX_JSON_DEPTH, "ok"))).toEqual({ value: nest(MAX_JSON_DEPTH, "ok") });
    expect(cleanJsonInput(nest(MAX_JSON_DEPTH + 1, "ok"))).toEqual({ tooDeep: true });
    expect(cleanJsonInput({ userName: nest(100_000, 1) })).toEqual({ tooDeep: true });
    // The path of a refused string is still whole after the walk went in and out of siblings.
    expect(cleanJsonInput({ a: [[1], { b: "x" }], c: [{ d: ["ok", "x\u0001"] }] })).toEqual({ badPath: ["c", 0, "d", 1] });
  });

  it("refuses a lone surrogate but keeps a pair", () => {
    expect(cleanJsonInput(JSON.parse('{"content":"x\\ud800y"}'))).toEqual({ badPath: ["content"] });
    expect(cleanJsonInput(JSON.parse('{"content":"\\udc00"}'))).toEqual({ badPath: ["content"] });
    expect(cleanJsonInput(JSON.parse('{"content":"\\ud83d\\udea9"}'))).toEqual({ value: { content: "🚩" } });
  });

  it("keeps a __proto__ key a plain field", () => {
    const cleaned = cleanJsonInput(JSON.parse('{"__proto__":{"isAdmin":true},"a":"b"}'));
    if (!("value" in cleaned)) throw new Error("expected a value");
    expect(Object.getPrototypeOf(cleaned.value)).toBe(Object.prototype);
    expect((cleaned.value as { isAdmin?: boolean }).isAdmin).toBeUndefined();
  });
});
