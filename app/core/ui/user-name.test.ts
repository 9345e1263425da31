import { describe, expect, it } from "vitest";
import { computeUserNameProblem } from "./user-name";

describe("computeUserNameProblem", () => {
  it.each([
    ["", "register.userNameRequired"],
    ["   ", "register.userNameRequired"],
    ["ab", "register.userNameLength"],
    [" ab ", "register.userNameLength"],
    ["a".repeat(16), "register.userNameLength"],
    ["abc", null],
    ["a".repeat(15), null],
    // Characters, not UTF-16 units: three emoji are three characters.
    ["😀😀😀", null],
  ])("%j → %s", (userName, expected) => {
    expect(computeUserNameProblem(userName)).toBe(expected);
  });
});
