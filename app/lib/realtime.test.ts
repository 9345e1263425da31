import { describe, expect, it } from "vitest";
import { backoffDelay } from "./realtime";

describe("reconnect backoff", () => {
  it("doubles from 1 s and stays within 30 s, with jitter in the upper half", () => {
    expect(backoffDelay(0, () => 0)).toBe(500);
    expect(backoffDelay(0, () => 1)).toBe(1000);
    expect(backoffDelay(1, () => 1)).toBe(2000);
    expect(backoffDelay(3, () => 1)).toBe(8000);
    expect(backoffDelay(10, () => 1)).toBe(30_000);
    expect(backoffDelay(50, () => 0)).toBe(15_000);
  });
});
