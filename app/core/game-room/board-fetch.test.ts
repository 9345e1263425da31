import { describe, expect, it } from "vitest";
import { takesFetchedBoard } from "./board-fetch";

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
