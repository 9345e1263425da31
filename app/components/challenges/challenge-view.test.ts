import { describe, expect, it } from "vitest";
import { attemptsState, formatBytes } from "./challenge-view";

describe("attempts line", () => {
  it.each([
    [0, 0, null],
    [0, 4, { key: "tried", count: 4 }],
    [5, 0, { key: "left", count: 5 }],
    [5, 3, { key: "left", count: 2 }],
    [5, 5, { key: "usedUp", count: 0 }],
    [5, 9, { key: "usedUp", count: 0 }],
  ])("limit %i, attempts %i", (limit, attempts, expected) => {
    expect(attemptsState(limit, attempts)).toEqual(expected);
  });
});

describe("file sizes", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1536, "1.5 KiB"],
    [5 * 1024 * 1024, "5.0 MiB"],
  ])("%i bytes", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
