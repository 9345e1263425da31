import { describe, expect, it } from "vitest";
import { type BoardInput, computeScoreboard } from "../scoring/scoreboard";
import { applyBoardDelta, boardDelta } from "./delta";

const input = (solves: BoardInput["solves"]): BoardInput => ({
  game: { start: 0, end: 10_000, bloodBonus: 0, bloodFactors: { first: 0, second: 0, third: 0 } },
  divisions: [],
  teams: [1, 2, 3, 4].map((i) => ({ participationId: i, teamId: 10 + i, name: `t${i}`, bio: "", avatar: null, divisionId: null })),
  challenges: [1, 2].map((i) => ({ id: i, title: `c${i}`, category: "Web" as const, originalScore: 1000, minScoreRate: 0.25, difficulty: 3, deadline: null, disableBloodBonus: false })),
  solves,
  now: 5,
});

const solve = (participationId: number, challengeId: number, time: number) => ({ participationId, challengeId, submissionId: time, time, userName: `u${participationId}` });

describe("compact scoreboard deltas", () => {
  it("sends the solving team whole and only the numbers of teams whose solve values moved", () => {
    const before = computeScoreboard(input([solve(1, 1, 10), solve(2, 1, 20), solve(2, 2, 25)]));
    const after = computeScoreboard(input([solve(1, 1, 10), solve(2, 1, 20), solve(2, 2, 25), solve(3, 1, 30)]));
    const delta = boardDelta(before, after, 2)!;
    expect(delta.items.map((i) => i.id)).toEqual([13]);
    const patched = new Map((delta.patches ?? []).map((p) => [p.id, p]));
    // Teams 1 and 2 solved challenge 1, whose value dropped: their solve of it carries the new value.
    const newValue = after.items.find((i) => i.id === 11)!.solvedChallenges[0]!.score;
    expect(newValue).toBeLessThan(before.items.find((i) => i.id === 11)!.solvedChallenges[0]!.score);
    expect(patched.get(11)?.scores).toEqual([[1, newValue]]);
    expect(patched.get(12)?.scores).toEqual([[1, newValue]]);
    expect(JSON.stringify(patched.get(12))).not.toContain("solvedChallenges");
    expect(applyBoardDelta(before, delta).items).toEqual(after.items);
  });

  it("sends an item whole when its solves changed in more than their values", () => {
    const before = computeScoreboard(input([solve(1, 1, 10)]));
    const after = computeScoreboard(input([solve(1, 1, 10), solve(1, 2, 20)]));
    const delta = boardDelta(before, after, 2)!;
    expect(delta.items.map((i) => i.id)).toEqual([11]);
    expect(applyBoardDelta(before, delta).items).toEqual(after.items);
  });

  it("applies deltas without patches (older rooms) as before", () => {
    const before = computeScoreboard(input([solve(1, 1, 10)]));
    const after = computeScoreboard(input([solve(1, 1, 10), solve(2, 1, 20)]));
    const delta = boardDelta(before, after, 2)!;
    const whole = { ...delta, items: after.items, patches: undefined };
    expect(applyBoardDelta(before, whole).items).toEqual(after.items);
  });
});
