import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FLAG_PLACEHOLDER_COUNT, pickPlaceholder } from "./placeholders";

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

describe("pickPlaceholder", () => {
  const lines = ["aaaaaaaaaa", "bb", "cccccc", "dddd", "eeeeeeeeeeeeeeee"];
  const width = (line: string) => line.length * 10;
  it.each([
    { random: 0.3, room: 200, shown: 1, why: "the picked line fits" },
    { random: 0, room: 200, shown: 0, why: "the picked line fits exactly at its width" },
    { random: 0.9, room: 100, shown: 3, why: "too wide: the same number picks among those that fit (0, 1, 2, 3)" },
    { random: 0, room: 50, shown: 1, why: "too wide: the first of those that fit (1, 3)" },
    { random: 0.99, room: 50, shown: 3, why: "too wide: the last of those that fit (1, 3)" },
    { random: 0.5, room: 10, shown: 1, why: "none fits: the narrowest" },
  ])("$why", ({ random, room, shown }) => {
    expect(pickPlaceholder(lines, random, room, width)).toBe(shown);
  });

  it("always shows a line that fits when one does", () => {
    for (let room = 0; room <= 200; room += 5) {
      for (let random = 0; random < 1; random += 0.01) {
        const shown = pickPlaceholder(lines, random, room, width);
        if (lines.some((line) => width(line) <= room)) expect(width(lines[shown]!)).toBeLessThanOrEqual(room);
      }
    }
  });
});
