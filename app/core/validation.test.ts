import { describe, expect, it } from "vitest";
import { z } from "zod";
import { typeMessage } from "./schemas/messages";
import { describeIssue } from "./validation";

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
    expect(first(schema, { name: "abc", tags: ["a", "b"] })).toBe('validation.too_many{"field":"fields.tags","max":1}');
  });

  it("uses schema messages that are i18n keys", () => {
    expect(first(schema, { name: "abc", tags: [], custom: "" })).toBe('validation.custom{"field":"fields.custom"}');
  });

  it("gives a range, not the type's message, for a number of the right type out of range", () => {
    // The schemas give their type message with typeMessage, which leaves the type's checks their own issue.
    const ranged = z.object({ minScoreRate: z.number(typeMessage("validation.invalid_type")).min(0).max(1), limit: z.number(typeMessage("validation.invalid_type")).int().min(0) });
    expect(first(ranged, { minScoreRate: 2, limit: 0 })).toBe('validation.too_big_number{"field":"fields.minScoreRate","max":1}');
    expect(first(ranged, { minScoreRate: -1, limit: 0 })).toBe('validation.too_small_number{"field":"fields.minScoreRate","min":0}');
    expect(first(ranged, { minScoreRate: 1, limit: -5 })).toBe('validation.too_small_number{"field":"fields.limit","min":0}');
    expect(first(ranged, { minScoreRate: "x", limit: 0 })).toBe('validation.invalid_type{"field":"fields.minScoreRate"}');
    expect(first(ranged, { minScoreRate: 1, limit: 1.5 })).toBe('validation.invalid_type{"field":"fields.limit"}');
  });

  it("gives the length, not an emptiness message, for a text too long", () => {
    const notice = z.object({ content: z.string(typeMessage("validation.content_empty")).max(5), to: z.string(typeMessage("validation.required")).max(3) });
    expect(first(notice, { content: "123456", to: "a" })).toBe('validation.too_long{"field":"fields.content","max":5}');
    expect(first(notice, { content: "ok", to: "abcd" })).toBe('validation.too_long{"field":"fields.to","max":3}');
    expect(first(notice, { content: 5, to: "a" })).toBe('validation.content_empty{"field":"fields.content"}');
  });

  it("names an item of a list by its list", () => {
    const post = z.object({ tags: z.array(z.string().max(3)) });
    expect(first(post, { tags: ["ok", "toolong"] })).toBe('validation.too_long{"field":"fields.tags","max":3}');
  });
});
