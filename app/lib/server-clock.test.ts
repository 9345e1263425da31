import { describe, expect, it } from "vitest";
import { clockOffset } from "./server-clock";

describe("clockOffset", () => {
  const at = Date.UTC(2031, 4, 6, 7, 8, 9, 250);
  const exact = (ms: number) => new Headers({ "X-Server-Time": String(ms) });
  const dated = (ms: number) => new Headers({ Date: new Date(ms).toUTCString() });

  it("applies a browser clock minutes slow or fast, from the exact header", () => {
    expect(clockOffset(exact(at + 5 * 60_000), at - 40, at + 40)).toBe(5 * 60_000);
    expect(clockOffset(exact(at - 3 * 60_000), at, at)).toBe(-3 * 60_000);
  });

  it("falls back to the Date header, to within its second", () => {
    const offset = clockOffset(dated(at + 5 * 60_000), at - 40, at + 40);
    expect(Math.abs(offset - 5 * 60_000)).toBeLessThanOrEqual(1000);
  });

  it("leaves a clock within the round trip's uncertainty alone, and ignores missing or broken headers", () => {
    expect(clockOffset(exact(at + 1500), at - 100, at + 100)).toBe(0);
    expect(clockOffset(dated(at), at - 100, at + 100)).toBe(0);
    expect(clockOffset(new Headers(), at, at)).toBe(0);
    expect(clockOffset(new Headers({ Date: "not a date", "X-Server-Time": "soon" }), at, at)).toBe(0);
  });
});
