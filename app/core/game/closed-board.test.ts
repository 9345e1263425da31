import { describe, expect, it } from "vitest";
import { closedBoardRecheck } from "./closed-board";

describe("closedBoardRecheck", () => {
  it.each([
    ["notStarted", false, 30_000, false],
    ["notStarted", true, 30_000, false],
    ["ended", false, 30_000, false],
    ["ended", true, 30_000, false],
    ["forbidden", false, 10_000, true],
    ["forbidden", true, 10_000, false],
    ["banned", false, 10_000, true],
    ["banned", true, 10_000, false],
    ["notJoined", false, 10_000, true],
    ["notJoined", true, 10_000, false],
  ] as const)("%s (hidden: %s) reads again every %i ms, listening: %s", (state, hidden, everyMs, listen) => {
    expect(closedBoardRecheck(state, hidden)).toEqual({ everyMs, listen });
  });

  it("a page waiting on a review or a join reads again at least as often as a list refreshes (rules.md §15)", () => {
    for (const state of ["forbidden", "banned", "notJoined"] as const) expect(closedBoardRecheck(state, true).everyMs).toBeLessThanOrEqual(10_000);
  });
});
