import { describe, expect, it } from "vitest";
import { secretEquals } from "./secret-equal";

describe("secretEquals", () => {
  it.each([
    ["abc", "abc", true],
    ["abc", "abd", false],
    ["abc", "ab", false],
    ["abc", "abcd", false],
    ["", "", false],
    [undefined, "abc", false],
    ["abc", undefined, false],
    [undefined, undefined, false],
  ] as const)("%j vs %j → %s", (expected, given, equal) => {
    expect(secretEquals(expected, given)).toBe(equal);
  });
});
