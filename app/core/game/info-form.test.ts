import { describe, expect, it } from "vitest";
import { checkGameNumbers, type GameNumberField } from "./info-form";

const fine: Record<GameNumberField, string> = { memberLimit: "4", containerLimit: "", writeupHours: "1.5", bloodFirst: "5", bloodSecond: "3.5", bloodThird: "0" };

describe("checkGameNumbers", () => {
  it("reads the values, an empty box as 0", () => {
    expect(checkGameNumbers(fine)).toEqual({ values: { memberLimit: 4, containerLimit: 0, writeupHours: 1.5, bloodFirst: 5, bloodSecond: 3.5, bloodThird: 0 } });
  });

  it.each([
    ["memberLimit", "-3", "adminGames.numberWhole"],
    ["memberLimit", "2.5", "adminGames.numberWhole"],
    ["containerLimit", "abc", "adminGames.numberWhole"],
    ["containerLimit", "1e9", "adminGames.numberWhole"],
    ["writeupHours", "-1", "adminGames.numberDecimal"],
    ["writeupHours", "0.125", "adminGames.numberDecimal"],
    ["bloodFirst", "150", "adminGames.numberDecimal"],
    ["bloodSecond", "-0.1", "adminGames.numberDecimal"],
    ["bloodThird", "2.55", "adminGames.numberDecimal"],
    ["bloodThird", "Infinity", "adminGames.numberDecimal"],
  ] as const)("%s = %j is refused (%s)", (field, value, key) => {
    const result = checkGameNumbers({ ...fine, [field]: value });
    expect(result).toMatchObject({ problem: { field, key } });
  });

  it("accepts the edges", () => {
    expect(checkGameNumbers({ ...fine, bloodFirst: "100", bloodThird: "0.1", memberLimit: "0", writeupHours: "0.01" })).toHaveProperty("values");
  });
});
