import { describe, expect, it } from "vitest";
import resources from "~/locales";
import { flattenKeys } from "./locale-keys";

describe("flattenKeys", () => {
  it.each([
    [{}, []],
    [{ a: "x" }, ["a"]],
    [{ a: { b: "x", c: { d: "y" } }, e: "z" }, ["a.b", "a.c.d", "e"]],
  ])("%j → %j", (input, expected) => {
    expect(flattenKeys(input)).toEqual(expected);
  });
});

describe("common.json", () => {
  const english = flattenKeys(resources["en-US"].common).sort();

  it.each(["ja-JP", "zh-CN"] as const)("%s has exactly the keys of en-US", (language) => {
    expect(flattenKeys(resources[language].common).sort()).toEqual(english);
  });

  it.each(["en-US", "ja-JP", "zh-CN"] as const)("%s has no empty strings", (language) => {
    const walk = (value: unknown): string[] =>
      typeof value === "string" ? [value] : Object.values(value as Record<string, unknown>).flatMap(walk);
    expect(walk(resources[language].common).filter((s) => s.trim() === "")).toEqual([]);
  });
});
