import { describe, expect, it } from "vitest";
import { parsePathId } from "./path-id";

describe("parsePathId", () => {
  it.each([
    ["1", 1],
    ["42", 42],
    ["100", 100],
    ["999999999999999", 999_999_999_999_999],
  ])("reads %j as %d", (raw, id) => {
    expect(parsePathId(raw)).toBe(id);
  });

  it.each([undefined, null, "", "0", "00", "01", "007", "0x1", "0b1", "0o1", "+1", "-1", " 1", "1 ", "%201", "1.0", "1e3", "١", "1000000000000000", "Infinity", "NaN", "abc"])(
    "refuses %j",
    (raw) => {
      expect(parsePathId(raw)).toBeNull();
    },
  );
});
