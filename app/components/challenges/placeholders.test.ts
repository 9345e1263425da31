import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FLAG_PLACEHOLDER_COUNT } from "./placeholders";

const LANGUAGES = ["en-US", "ja-JP", "zh-CN"];

describe("flag placeholders", () => {
  it.each(LANGUAGES)("has exactly 21 distinct, non-empty ones in %s", (lang) => {
    const common = JSON.parse(readFileSync(new URL(`../../locales/${lang}/common.json`, import.meta.url), "utf8")) as {
      challenge: { placeholders: Record<string, string> };
    };
    const list = common.challenge.placeholders;
    expect(FLAG_PLACEHOLDER_COUNT).toBe(21);
    expect(Object.keys(list).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 21 }, (_, i) => String(i)));
    const values = Object.values(list).map((s) => s.trim());
    expect(values.every((s) => s.length > 0)).toBe(true);
    expect(new Set(values).size).toBe(21);
  });
});
