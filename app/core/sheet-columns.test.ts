import { describe, expect, it } from "vitest";
import { computeColumnWidths, DATE_COLUMN_WIDTH, displayWidth, MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH } from "./sheet-columns";

describe("displayWidth", () => {
  it.each([
    ["", 0],
    ["flag{abc}", 9],
    ["チーム", 6],
    ["排行榜 A", 8],
    ["ｆｕｌｌ", 8],
    ["🚩", 2],
    ["e\u0301", 1],
  ])("%j takes %i", (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });
});

describe("computeColumnWidths", () => {
  const date = { value: new Date(0), type: Date, format: "yyyy-mm-dd hh:mm:ss" };

  it("fits each column to its widest cell, header included", () => {
    const rows = [
      [{ value: "Rank", fontWeight: "bold" }, { value: "Team", fontWeight: "bold" }, { value: "Email", fontWeight: "bold" }],
      [1, "A very long team name", "someone@example.com"],
      [12, "B", "<empty>"],
    ];
    expect(computeColumnWidths(rows)).toEqual([{ width: MIN_COLUMN_WIDTH }, { width: 23 }, { width: 21 }]);
  });

  it("gives a date column room for yyyy-mm-dd hh:mm:ss, even under a short header", () => {
    const widths = computeColumnWidths([["Time"], [date], ["<empty>"]]);
    expect(widths[0]!.width).toBe(DATE_COLUMN_WIDTH);
    expect(DATE_COLUMN_WIDTH).toBeGreaterThanOrEqual("yyyy-mm-dd hh:mm:ss".length);
    // A longer header still wins.
    expect(computeColumnWidths([["A header longer than the date"], [date]])[0]!.width).toBe(31);
  });

  it("counts wide characters twice, the longest line of a cell, and caps long values", () => {
    expect(computeColumnWidths([["チーム名前テスト"]])[0]!.width).toBe(18);
    expect(computeColumnWidths([["short\nlonger line"]])[0]!.width).toBe(13);
    expect(computeColumnWidths([["x".repeat(500)]])[0]!.width).toBe(MAX_COLUMN_WIDTH);
  });

  it("widens a column from any row, with ragged rows and empty cells", () => {
    expect(computeColumnWidths([["a"], ["b", null, "a much longer value"], []])).toEqual([
      { width: MIN_COLUMN_WIDTH },
      { width: MIN_COLUMN_WIDTH },
      { width: 21 },
    ]);
  });
});
