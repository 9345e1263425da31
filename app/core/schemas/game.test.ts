import { describe, expect, it } from "vitest";
import { gameCreateSchema, noticeSchema, TIME_MAX, timeSchema } from "./game";

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

  it("refuses a time after 9999-12-31T23:59:59.999Z, which the forms' date fields cannot show", () => {
    expect(TIME_MAX).toBe(Date.UTC(9999, 11, 31, 23, 59, 59, 999));
    expect(timeSchema.parse(TIME_MAX)).toBe(TIME_MAX);
    expect(timeSchema.parse("9999-12-31T23:59:59.999Z")).toBe(TIME_MAX);
    for (const late of [TIME_MAX + 1, 8.64e15, "+010000-01-01T00:00:00Z", "+275760-09-13T00:00:00Z", "253402300800000"]) {
      expect(timeSchema.safeParse(late).error?.issues[0]?.message, String(late)).toBe("validation.time_too_late");
    }
    expect(gameCreateSchema.safeParse({ title: "x", start: 0, end: 8.64e15 }).error?.issues[0]).toMatchObject({ path: ["end"], message: "validation.time_too_late" });
    // Not a time at all stays "not a valid time".
    for (const bad of [-1, Number.NaN, "soon", 1e300]) expect(timeSchema.safeParse(bad).error?.issues[0]?.message, String(bad)).not.toBe(undefined);
    expect(timeSchema.safeParse("soon").error?.issues[0]?.message).toBe("validation.invalid_time");
  });
});

describe("notices", () => {
  it("keeps the empty-content message for a missing text only: a number is of the wrong type", () => {
    expect(noticeSchema.safeParse({}).error?.issues[0]?.message).toBe("notice.content_empty");
    expect(noticeSchema.safeParse({ content: null }).error?.issues[0]?.message).toBe("notice.content_empty");
    expect(noticeSchema.safeParse({ content: 123 }).error?.issues[0]?.message).not.toBe("notice.content_empty");
  });
});
