import { describe, expect, it } from "vitest";
import { flagCreateSchema } from "../schemas/challenge";
import { checkFlagText, FLAG_MAX_LENGTH } from "./schemas";

const emoji = "😀";

describe("a submitted flag's length", () => {
  it("is counted in characters, not UTF-16 units", () => {
    expect(checkFlagText(emoji.repeat(FLAG_MAX_LENGTH))).toBeNull();
    expect(checkFlagText(` ${emoji.repeat(FLAG_MAX_LENGTH)}\n`)).toBeNull();
    expect(checkFlagText(`flag{${emoji.repeat(FLAG_MAX_LENGTH - 6)}}`)).toBeNull();
    expect(checkFlagText(emoji.repeat(FLAG_MAX_LENGTH + 1))).toBe("submission.flag_too_long");
  });

  it("takes every flag an admin can add, and no longer one", () => {
    for (const flag of ["x".repeat(FLAG_MAX_LENGTH), emoji.repeat(FLAG_MAX_LENGTH), `${"x".repeat(100)}${emoji.repeat(27)}`]) {
      expect(flagCreateSchema.safeParse({ flag }).success).toBe(true);
      expect(checkFlagText(flag)).toBeNull();
      expect(flagCreateSchema.safeParse({ flag: `${flag}${emoji}` }).success).toBe(false);
      expect(checkFlagText(`${flag}${emoji}`)).toBe("submission.flag_too_long");
    }
  });
});
