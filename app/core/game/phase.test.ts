import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { assertJoinable, assertPlayable, canJoin, canPlay, computeGamePhase, containerUnwantedReason, isInWindow } from "./phase";

const game = (practiceMode: boolean) => ({ startTime: 1000, endTime: 2000, practiceMode });

function codeOf(fn: () => void): number | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof AppError ? err.status : -1;
  }
}

describe("game phase", () => {
  it.each([
    [0, "NotStarted"],
    [999, "NotStarted"],
    [1000, "Running"],
    [1999, "Running"],
    [2000, "Ended"],
    [5000, "Ended"],
  ] as const)("at %i is %s", (now, phase) => {
    expect(computeGamePhase(game(true), now)).toBe(phase);
  });

  it("treats the window as start ≤ t < end", () => {
    expect(isInWindow(game(true), 999)).toBe(false);
    expect(isInWindow(game(true), 1000)).toBe(true);
    expect(isInWindow(game(true), 2000)).toBe(false);
  });

  it.each([
    // now, practice, canPlay, canJoin, playable code, joinable code
    [500, true, false, true, 10001, null],
    [500, false, false, true, 10001, null],
    [1500, true, true, true, null, null],
    [1500, false, true, true, null, null],
    [2500, true, true, true, null, null],
    [2500, false, false, false, 10002, 10002],
  ] as const)("at %i with practice %s", (now, practice, play, join, playCode, joinCode) => {
    const g = game(practice);
    expect(canPlay(g, now)).toBe(play);
    expect(canJoin(g, now)).toBe(join);
    expect(codeOf(() => assertPlayable(g, now))).toBe(playCode);
    expect(codeOf(() => assertJoinable(g, now))).toBe(joinCode);
  });

  it("lets a team's containers go only after the end without practice mode, and says so", () => {
    expect(containerUnwantedReason(game(false), 2500)).toBe("gameEnded");
    for (const [now, practice] of [[500, false], [1500, false], [2500, true]] as const) expect(containerUnwantedReason(game(practice), now)).toBeNull();
  });

  it("sends the game-state codes as HTTP 400", () => {
    try {
      assertPlayable(game(false), 0);
      expect.unreachable();
    } catch (err) {
      expect((err as AppError).httpStatus).toBe(400);
      expect((err as AppError).code).toBe("game.not_started");
    }
  });
});
