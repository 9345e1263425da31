import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codePointLength, firstCodePoints, initialOf, surrogatePairCount, utf16MaxLength } from "./text-length";

const emoji = "😀";

describe("text length in characters", () => {
  it.each([
    ["", 0, 0],
    ["flag{x}", 7, 0],
    ["チーム", 3, 0],
    [emoji, 1, 1],
    [emoji.repeat(12), 12, 12],
    [`a${emoji}b${emoji}`, 4, 2],
    ["👍🏽", 2, 2], // a thumb and its skin tone: two characters, as the server counts them
    ["\ud83d", 1, 0], // a lone surrogate is one character, as in zod
    ["\ude00\ud83d", 2, 0], // low before high is no pair
  ])("%j has %i characters and %i surrogate pairs", (text, characters, pairs) => {
    expect(codePointLength(text)).toBe(characters);
    expect(surrogatePairCount(text)).toBe(pairs);
  });

  it("counts as the server's schemas do", () => {
    for (const text of ["", "abc", emoji.repeat(3), `x${emoji}\ud83d`, "👨‍👩‍👧", "\ud83d\ud83d"]) {
      const length = codePointLength(text);
      expect(z.string().max(length).safeParse(text).success).toBe(true);
      if (length > 0) expect(z.string().max(length - 1).safeParse(text).success).toBe(false);
    }
  });

  it("takes the first characters without splitting a pair", () => {
    expect(firstCodePoints(emoji.repeat(5), 3)).toBe(emoji.repeat(3));
    expect(firstCodePoints(`ab${emoji}c`, 3)).toBe(`ab${emoji}`);
    expect(firstCodePoints("abc", 10)).toBe("abc");
    expect(firstCodePoints(emoji, 0)).toBe("");
    expect(firstCodePoints("\ud83dx", 1)).toBe("\ud83d");
  });
});

describe("the maxLength attribute for a limit in characters", () => {
  it("lets a value of the limit in characters fit, whatever it is made of", () => {
    for (const value of ["a".repeat(20), emoji.repeat(20), `${emoji.repeat(10)}${"b".repeat(10)}`]) {
      expect(codePointLength(value)).toBe(20);
      expect(utf16MaxLength(20, value)).toBe(value.length);
    }
  });

  it("stops plain text at the limit", () => {
    expect(utf16MaxLength(20, "")).toBe(20);
    expect(utf16MaxLength(20, "abc", "x".repeat(40))).toBe(20);
    expect(utf16MaxLength(20, emoji.repeat(3), "x".repeat(40))).toBe(23);
  });

  // The browser keeps as many units of the insertion as the attribute leaves beside the text kept.
  const inserted = (limit: number, kept: string, text: string) => text.slice(0, utf16MaxLength(limit, kept, text) - kept.length);

  it.each([
    [50, "", emoji.repeat(40), emoji.repeat(40)],
    [50, "", emoji.repeat(60), emoji.repeat(50)],
    [5, "ab", `${emoji.repeat(4)}`, emoji.repeat(3)],
    [5, "", `abcd${emoji.repeat(4)}`, `abcd${emoji}`],
    [5, "", `${emoji.repeat(4)}abcd`, `${emoji.repeat(4)}a`],
    [5, emoji.repeat(5), "x", ""],
    [5, emoji.repeat(4), emoji.repeat(2), emoji],
  ])("limit %i, kept %j, pasting %j keeps %j", (limit, kept, text, expected) => {
    expect(inserted(limit, kept, text)).toBe(expected);
  });
});

describe("an avatar's initial", () => {
  it.each([
    ["alice", "A"],
    ["  bob", "B"],
    [`${emoji}team`, emoji],
    ["👍🏽 thumbs", "👍🏽"],
    ["👨‍👩‍👧 family", "👨‍👩‍👧"],
    ["éclair", "É"],
    ["e\u0301clair", "E\u0301"],
    ["チーム", "チ"],
    ["", ""],
  ])("of %j is %j", (name, initial) => {
    expect(initialOf(name)).toBe(initial);
  });
});
