import { describe, expect, it } from "vitest";
import { formatCountdown, fromLocalInput, toLocalInput } from "./time";

describe("game time helpers", () => {
  it("formats countdowns", () => {
    const days = (_key: "common.days", { count }: { count: number }) => `${count}d`;
    expect(formatCountdown(0, days)).toBe("00:00:00");
    expect(formatCountdown(-5, days)).toBe("00:00:00");
    expect(formatCountdown(61_000, days)).toBe("00:01:01");
    expect(formatCountdown(3 * 86_400_000 + 3_600_000 + 1500, days)).toBe("3d 01:00:01");
  });

  it("round-trips datetime-local values to the minute", () => {
    const ms = new Date(2031, 4, 6, 7, 8).getTime();
    expect(toLocalInput(ms)).toBe("2031-05-06T07:08");
    expect(fromLocalInput("2031-05-06T07:08")).toBe(ms);
    expect(fromLocalInput("")).toBeNull();
    expect(fromLocalInput("garbage")).toBeNull();
  });
});
