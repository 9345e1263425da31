import { describe, expect, it } from "vitest";
import { SlidingWindowLimiter, TokenBucketLimiter } from "./rate-limit";

describe("SlidingWindowLimiter", () => {
  it("allows `limit` hits per window, then asks to wait until a segment expires", () => {
    const l = new SlidingWindowLimiter(3, 60_000, 6);
    expect([l.hit("a", 0), l.hit("a", 1000), l.hit("a", 2000)]).toEqual([0, 0, 0]);
    const wait = l.hit("a", 3000);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    // Other keys are independent.
    expect(l.hit("b", 3000)).toBe(0);
    // After the window has slid past the first segment, requests are allowed again.
    expect(l.hit("a", 60_000)).toBe(0);
  });

  it("counts hits spread over segments", () => {
    const l = new SlidingWindowLimiter(2, 10_000, 5);
    expect(l.hit("k", 0)).toBe(0);
    expect(l.hit("k", 4_000)).toBe(0);
    expect(l.hit("k", 9_000)).toBeGreaterThan(0);
    expect(l.hit("k", 10_000)).toBe(0);
  });
});

describe("TokenBucketLimiter", () => {
  it("spends the capacity, then refills per interval", () => {
    const b = new TokenBucketLimiter(2, 1, 5_000);
    expect(b.hit("t", 0)).toBe(0);
    expect(b.hit("t", 0)).toBe(0);
    expect(b.hit("t", 100)).toBe(5);
    expect(b.hit("t", 5_000)).toBe(0);
    expect(b.hit("t", 5_001)).toBeGreaterThan(0);
  });

  it("never holds more than its capacity", () => {
    const b = new TokenBucketLimiter(2, 10, 1_000);
    b.hit("t", 0);
    expect(b.hit("t", 100_000)).toBe(0);
    expect(b.hit("t", 100_000)).toBe(0);
    expect(b.hit("t", 100_000)).toBeGreaterThan(0);
  });
});
