import { describe, expect, it } from "vitest";
import { computeNewPasswordProblem } from "./new-password";

describe("computeNewPasswordProblem", () => {
  it.each([
    ["", "", "password.empty"],
    ["", "x", "password.empty"],
    ["Ab1", "Ab1", "password.tooShort"],
    ["ABCDEF1", "ABCDEF1", "password.needsLowercase"],
    ["abcdef1", "abcdef1", "password.needsUppercase"],
    ["Abcdefg", "Abcdefg", "password.needsDigit"],
    ["Abcdef1", "Abcdef2", "password.mismatch"],
    ["Abcdef1", "", "password.mismatch"],
    ["Abcdef1", "Abcdef1", null],
    ["Abcdef1!", "Abcdef1!", null],
  ])("%j / %j → %s", (password, retype, expected) => {
    expect(computeNewPasswordProblem(password, retype)).toBe(expected);
  });

  it("does not require a symbol", () => {
    expect(computeNewPasswordProblem("Passw0rd", "Passw0rd")).toBeNull();
  });
});
