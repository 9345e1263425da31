import { describe, expect, it } from "vitest";
import { decodeUriComponentOrNull, readCookie } from "./cookie";

describe("decodeUriComponentOrNull", () => {
  it.each([
    ["abc", "abc"],
    ["ja-JP", "ja-JP"],
    ["%E6%97%A5", "日"],
    ["a%20b", "a b"],
    ["", ""],
  ])("decodes %j", (text, decoded) => {
    expect(decodeUriComponentOrNull(text)).toBe(decoded);
  });

  it.each(["%", "%E0%A4%A", "%zz", "abc%", "%C3", "%ED%A0%80"])("is null for the broken escape %j", (text) => {
    expect(decodeUriComponentOrNull(text)).toBeNull();
  });
});

describe("readCookie", () => {
  it.each<[string | null | undefined, string | null]>([
    [null, null],
    [undefined, null],
    ["", null],
    ["flagstaff_session=abc", "abc"],
    ["a=1; flagstaff_session=abc; b=2", "abc"],
    ["  flagstaff_session = abc  ", "abc"],
    ["flagstaff_session=", ""],
    ["flagstaff_session=a%3Db", "a=b"],
    ["xflagstaff_session=abc", null],
    ["flagstaff_session", null],
    ["=abc", null],
    // Broken escapes count as no cookie instead of throwing.
    ["flagstaff_session=%", null],
    ["flagstaff_session=%E0%A4%A", null],
    ["a=%; flagstaff_session=abc", "abc"],
    // A broken cookie does not hide a good one of the same name (another path's).
    ["flagstaff_session=%; flagstaff_session=abc", "abc"],
    ["flagstaff_session=abc; flagstaff_session=%", "abc"],
  ])("reads %j", (header, value) => {
    expect(readCookie(header, "flagstaff_session")).toBe(value);
  });
});
