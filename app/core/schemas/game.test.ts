import { describe, expect, it } from "vitest";
import { timeSchema } from "./game";

describe("times in requests", () => {
  it("refuses a day its month does not have instead of rolling it over", () => {
    expect(timeSchema.safeParse("2024-02-30T00:00:00Z").success).toBe(false);
    expect(timeSchema.safeParse("2023-02-29T00:00:00Z").success).toBe(false);
    expect(timeSchema.safeParse("2024-13-01T00:00:00Z").success).toBe(false);
    expect(timeSchema.safeParse("2024-04-31").success).toBe(false);
  });

  it("reads real dates, offsets and milliseconds", () => {
    expect(timeSchema.parse("2024-02-29T00:00:00Z")).toBe(Date.UTC(2024, 1, 29));
    expect(timeSchema.parse("2024-03-01T09:00:00+09:00")).toBe(Date.UTC(2024, 2, 1));
    expect(timeSchema.parse("1700000000000")).toBe(1_700_000_000_000);
    expect(timeSchema.parse(1_700_000_000_000)).toBe(1_700_000_000_000);
  });
});
