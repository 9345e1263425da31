import { describe, expect, it } from "vitest";
import { formatFileSize, precheckWriteup, WRITEUP_MAX_BYTES, writeupWindow } from "./format";

describe("formatFileSize", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1 KB"],
    [1536, "1.5 KB"],
    [20 * 1024 * 1024, "20 MB"],
    [150 * 1024 * 1024, "150 MB"],
    [3 * 1024 ** 3, "3 GB"],
  ])("%i → %s", (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });
});

describe("precheckWriteup", () => {
  it.each([
    [{ name: "a.pdf", size: 1 }, "ok"],
    [{ name: "A.PDF", size: WRITEUP_MAX_BYTES }, "ok"],
    [{ name: "a.pdf", size: 0 }, "invalid"],
    [{ name: "a.pdf", size: WRITEUP_MAX_BYTES + 1 }, "invalid"],
    [{ name: "a.png", size: 10 }, "invalid"],
  ])("%j → %s", (file, verdict) => {
    expect(precheckWriteup(file)).toBe(verdict);
  });
});

describe("writeupWindow", () => {
  const deadline = 1_700_000_000_000;
  it.each([
    ["open before the deadline", deadline - 1, deadline - 60_000, "open"],
    ["open at the deadline", deadline, deadline - 60_000, "open"],
    ["checking once a deadline read before it has passed", deadline + 1, deadline - 60_000, "checking"],
    ["checking when read at the very deadline", deadline + 1, deadline, "checking"],
    ["closed once a read after the deadline confirms it", deadline + 2_000, deadline + 1_000, "closed"],
  ] as const)("%s", (_, now, readAt, state) => {
    expect(writeupWindow(deadline, now, readAt)).toBe(state);
  });
});
