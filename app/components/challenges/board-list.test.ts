import { describe, expect, it } from "vitest";
import type { ChallengeInfo } from "~/core/scoring/scoreboard";
import { boardFromDetails, withPushedSolves } from "./board-list";

const info = (id: number, title: string, deadline: number | null = null): ChallengeInfo => ({
  id,
  title,
  category: "Misc",
  score: 1000,
  solved: 1,
  deadline,
  bloods: [],
  disableBloodBonus: false,
});

const solve = (id: number, score: number) => ({ id, score, type: "Normal" as const, userName: "u", time: 1 });

describe("boardFromDetails", () => {
  it("marks the team's solves, and a solve worth 0 points (as the scoreboard has it) not scored", () => {
    const list = boardFromDetails({
      challenges: { Misc: [info(3, "c"), info(1, "a"), info(2, "b")] },
      rank: { solvedChallenges: [solve(1, 1000), solve(2, 0)] },
    });
    expect(list.map((c) => [c.title, c.solvedByMe, c.solvedUnscored])).toEqual([
      ["a", true, false],
      ["b", true, true],
      ["c", false, false],
    ]);
  });
});

describe("withPushedSolves", () => {
  const list = boardFromDetails({ challenges: { Misc: [info(1, "a"), info(2, "b", 500), info(3, "c")] }, rank: { solvedChallenges: [solve(3, 0)] } });

  it("marks a pushed solve solved, not scored at or after the end or after the deadline", () => {
    const marked = (now: number) => withPushedSolves(list, new Set([1, 2, 3]), 1_000, now).map((c) => [c.solvedByMe, c.solvedUnscored]);
    expect(marked(400)).toEqual([
      [true, false],
      [true, false],
      [true, true],
    ]);
    expect(marked(600)).toEqual([
      [true, false],
      [true, true],
      [true, true],
    ]);
    expect(marked(1_000)).toEqual([
      [true, true],
      [true, true],
      [true, true],
    ]);
  });

  it("keeps the list as it is without pushed solves", () => {
    expect(withPushedSolves(list, new Set(), 1_000, 0)).toBe(list);
  });
});
