import { describe, expect, it } from "vitest";
import { ifMatchFor, parseIfMatch, versionEtag, versionMatches } from "./if-match";

describe("parseIfMatch", () => {
  it.each([
    ["absent", undefined, null],
    ["null", null, null],
    ["any", "*", null],
    ["any with spaces", " * ", null],
    ["one version", '"3"', [3]],
    ["a list", '"3", "7" ,"12"', [3, 7, 12]],
    ["the ETag this server sends", versionEtag(42), [42]],
    ["a weak tag never matches (strong comparison)", 'W/"3"', []],
    ["a weak tag beside a strong one", 'W/"3", "4"', [4]],
    ["a tag this server never made", '"abc"', []],
    ["zero and leading zeros are not versions", '"0", "03"', []],
    ["unquoted", "3", []],
    ["garbage after a tag", '"3" x', []],
    ["empty", "", []],
    ["a comma inside a tag is one tag", '"3,4"', []],
  ])("%s", (_name, header, expected) => {
    expect(parseIfMatch(header)).toEqual(expected);
  });
});

describe("versionMatches", () => {
  it("accepts any version without a condition and only the listed ones with one", () => {
    expect(versionMatches(null, 5)).toBe(true);
    expect(versionMatches([4, 5], 5)).toBe(true);
    expect(versionMatches([4], 5)).toBe(false);
    expect(versionMatches([], 5)).toBe(false);
  });
});

describe("ifMatchFor", () => {
  it("sends the tag as given, a weakened one as the strong tag it was, nothing without one", () => {
    expect(ifMatchFor('"3"')).toBe('"3"');
    expect(ifMatchFor('W/"3"')).toBe('"3"');
    expect(parseIfMatch(ifMatchFor('W/"3"'))).toEqual([3]);
    expect(ifMatchFor(null)).toBeNull();
    expect(ifMatchFor("")).toBeNull();
  });
});
