import { describe, expect, it } from "vitest";
import { computeNotScored } from "./not-scored";

describe("computeNotScored", () => {
  const end = 10_000;
  it.each([
    { at: 9_999, deadline: null, reason: null },
    { at: 10_000, deadline: null, reason: "ended" },
    { at: 12_000, deadline: null, reason: "ended" },
    { at: 5_000, deadline: 5_000, reason: null },
    { at: 5_001, deadline: 5_000, reason: "deadline" },
    { at: 9_999, deadline: 5_000, reason: "deadline" },
    { at: 10_000, deadline: 5_000, reason: "ended" },
    { at: 9_000, deadline: 20_000, reason: null },
  ] as const)("at $at (end 10000, deadline $deadline) → $reason", ({ at, deadline, reason }) => {
    expect(computeNotScored(at, { end, deadline })).toBe(reason);
  });
});
