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

describe("every namespace in every language", () => {
  const languages = Object.keys(resources) as (keyof typeof resources)[];
  const namespaces = Object.keys(resources["en-US"]) as (keyof (typeof resources)["en-US"])[];
  const leaves = (value: unknown, prefix = ""): [string, string][] =>
    typeof value === "string"
      ? [[prefix, value]]
      : Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
  const variables = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();

  it("bundles every locale file", async () => {
    const { readdirSync } = await import("node:fs");
    const { join } = await import("node:path");
    for (const language of languages) {
      const files = readdirSync(join(__dirname, "..", "..", "locales", language)).filter((f) => f.endsWith(".json"));
      expect(files.map((f) => f.replace(/\.json$/, "")).sort()).toEqual(Object.keys(resources[language]).sort());
    }
  });

  it.each(languages.flatMap((language) => namespaces.map((ns) => [language, ns] as const)))("%s/%s has the keys of en-US, none empty", (language, ns) => {
    expect(flattenKeys(resources[language][ns]).sort()).toEqual(flattenKeys(resources["en-US"][ns]).sort());
    expect(leaves(resources[language][ns]).filter(([, text]) => text.trim() === "").map(([key]) => key)).toEqual([]);
  });

  it.each(languages.filter((l) => l !== "en-US").flatMap((language) => namespaces.map((ns) => [language, ns] as const)))(
    "%s/%s uses the same {{variables}} as en-US",
    (language, ns) => {
      const english = new Map(leaves(resources["en-US"][ns]));
      const mismatched = leaves(resources[language][ns])
        .filter(([key, text]) => english.has(key) && variables(text).join() !== variables(english.get(key) ?? "").join())
        .map(([key]) => key);
      expect(mismatched).toEqual([]);
    },
  );
});
