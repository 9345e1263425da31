import { describe, expect, it } from "vitest";
import { START_RETRY_MIN_MS, START_UNKNOWN_WAIT_MS, START_WAIT_MAX_MS, takesFetchedBoard, waitForStartMs } from "./board-fetch";

describe("takesFetchedBoard", () => {
  it("takes the answer to the latest request when nothing was pushed meanwhile", () => {
    expect(takesFetchedBoard({ latestRequest: 2, deltaSinceRequest: false, shownVersion: null }, { request: 2, version: 1 })).toBe(true);
    // Without a delta in between the answer is the newest the page knows, even with a lower number (a woken room).
    expect(takesFetchedBoard({ latestRequest: 2, deltaSinceRequest: false, shownVersion: 9 }, { request: 2, version: 1 })).toBe(true);
  });

  it("drops the answer to an earlier request, whatever its version", () => {
    expect(takesFetchedBoard({ latestRequest: 3, deltaSinceRequest: false, shownVersion: 3 }, { request: 2, version: 2 })).toBe(false);
    expect(takesFetchedBoard({ latestRequest: 3, deltaSinceRequest: false, shownVersion: 3 }, { request: 2, version: 4 })).toBe(false);
  });

  it("drops an answer older than the board a delta made after the request left; keeps one as new or newer", () => {
    const state = { latestRequest: 5, deltaSinceRequest: true, shownVersion: 3 };
    expect(takesFetchedBoard(state, { request: 5, version: 2 })).toBe(false);
    expect(takesFetchedBoard(state, { request: 5, version: 3 })).toBe(true);
    expect(takesFetchedBoard(state, { request: 5, version: 4 })).toBe(true);
  });
});

describe("waitForStartMs", () => {
  const now = 1_700_000_000_000;
  it.each([
    ["until a start ahead", now + 25_000, 25_000],
    ["a second when the start is just now", now, START_RETRY_MIN_MS],
    ["a second when the start has passed (the page's clock runs fast)", now - 5_000, START_RETRY_MIN_MS],
    ["at most the longest single wait for a far start", now + 30 * 86_400_000, START_WAIT_MAX_MS],
    ["a while when the start is unknown", null, START_UNKNOWN_WAIT_MS],
  ] as const)("waits %s", (_, start, wait) => {
    expect(waitForStartMs(start, now)).toBe(wait);
  });

  it("never waits longer than a timer can hold", () => {
    expect(waitForStartMs(Number.MAX_SAFE_INTEGER, now)).toBeLessThan(2 ** 31 - 1);
  });
});
