import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GamePermission } from "../enums";
import { type BoardDivision, type BoardInput, type BoardSolve, type BoardTeam, computeScoreboard, firstSolveTime, type ScoreboardItem } from "./scoreboard";

const HOUR = 3_600_000;
const game = { start: 0, end: 10 * HOUR, bloodBonus: 52459530, bloodFactors: { first: 50, second: 30, third: 10 } };
const challenge = (id: number, extra: Partial<BoardInput["challenges"][number]> = {}) => ({
  id,
  title: `C${id}`,
  category: "Web" as const,
  originalScore: 1000,
  minScoreRate: 0.25,
  difficulty: 5,
  deadline: null,
  disableBloodBonus: false,
  ...extra,
});
const team = (p: number, divisionId: number | null = null): BoardTeam => ({
  participationId: p,
  teamId: 100 + p,
  name: `T${p}`,
  bio: "",
  avatar: null,
  divisionId,
});
let sid = 0;
const solve = (p: number, c: number, time: number): BoardSolve => ({ participationId: p, challengeId: c, submissionId: ++sid, time, userName: `u${p}` });
const board = (partial: Partial<BoardInput>) =>
  computeScoreboard({ game, divisions: [], teams: [], challenges: [], solves: [], now: 42, ...partial });

describe("computeScoreboard", () => {
  it("gives bloods in time order with bonuses of the current value, and retroactive values", () => {
    const b = board({
      teams: [team(1), team(2), team(3), team(4)],
      challenges: [challenge(1)],
      solves: [solve(3, 1, 300), solve(1, 1, 100), solve(2, 1, 200), solve(4, 1, 400)],
    });
    // 4 counted solves → value 1000·(0.25+0.75·e^(−3/5)) = 661
    const info = b.challenges.Web![0]!;
    expect(info).toMatchObject({ score: 661, solved: 4 });
    expect(info.bloods.map((x) => x.id)).toEqual([101, 102, 103]);
    expect(b.items.map((i) => [i.id, i.score, i.rank, i.solvedChallenges[0]!.type])).toEqual([
      [101, 694, 1, "FirstBlood"],
      [102, 681, 2, "SecondBlood"],
      [103, 668, 3, "ThirdBlood"],
      [104, 661, 4, "Normal"],
    ]);
  });

  it("breaks score ties by who reached the score first, then by join order", () => {
    const b = board({
      teams: [team(1), team(2), team(3)],
      challenges: [challenge(1, { disableBloodBonus: true }), challenge(2, { disableBloodBonus: true })],
      solves: [solve(2, 1, 100), solve(1, 2, 200)],
    });
    expect(b.items.map((i) => i.id)).toEqual([102, 101, 103]);
    expect(b.items[2]).toMatchObject({ score: 0, lastSubmissionTime: 0, rank: 3 });
    expect(b.challenges.Web![0]!.bloods).toEqual([]);
  });

  it("scores nothing after the end or after a challenge deadline, but still lists the solve", () => {
    const b = board({
      teams: [team(1), team(2)],
      challenges: [challenge(1, { deadline: 150 })],
      solves: [solve(1, 1, 100), solve(2, 1, 200), solve(2, 1, game.end + 1)],
    });
    const t2 = b.items.find((i) => i.id === 102)!;
    expect(t2.score).toBe(0);
    expect(t2.lastSubmissionTime).toBe(0);
    expect(t2.solvedCount).toBe(2);
    expect(t2.solvedChallenges.every((s) => s.score === 0 && s.type === "Normal")).toBe(true);
    // Late solves do not lower the value.
    expect(b.challenges.Web![0]).toMatchObject({ score: 1000, solved: 1 });
  });

  it("applies division permissions: no overall rank, no score, no blood, no effect on the value", () => {
    const divisions: BoardDivision[] = [
      { id: 1, name: "Open", defaultPermissions: GamePermission.All, challengeConfigs: {} },
      { id: 2, name: "Guests", defaultPermissions: GamePermission.All & ~GamePermission.RankOverall, challengeConfigs: { 1: GamePermission.ViewChallenge | GamePermission.SubmitFlags } },
    ];
    const b = board({
      divisions,
      teams: [team(1, 1), team(2, 2), team(3, 1)],
      challenges: [challenge(1)],
      solves: [solve(2, 1, 50), solve(1, 1, 100), solve(3, 1, 200)],
    });
    const guest = b.items.find((i) => i.id === 102)!;
    expect(guest).toMatchObject({ rank: 0, divisionRank: 1, score: 0 });
    expect(guest.solvedChallenges[0]!.type).toBe("Normal");
    // Two counted solves (the guest's does not count) → 864; first blood goes to team 1.
    expect(b.challenges.Web![0]).toMatchObject({ score: 864, solved: 2 });
    expect(b.challenges.Web![0]!.bloods.map((x) => x.id)).toEqual([101, 103]);
    expect(b.items.filter((i) => i.divisionId === 1).map((i) => [i.id, i.rank, i.divisionRank])).toEqual([
      [101, 1, 1],
      [103, 2, 2],
    ]);
    expect(b.timelines.map((t) => [t.divisionId, t.teams.map((x) => x.id)])).toEqual([
      [0, [101, 103]],
      [1, [101, 103]],
      [2, [102]],
    ]);
  });

  it("builds cumulative timelines of the top ten ranked teams", () => {
    const teams = Array.from({ length: 12 }, (_, i) => team(i + 1));
    const solves = teams.flatMap((t, i) => [solve(t.participationId, 1, 10 + i), solve(t.participationId, 2, 100 + i)]);
    const b = board({ teams, challenges: [challenge(1), challenge(2)], solves });
    expect(b.timelines[0]!.teams).toHaveLength(10);
    const first = b.timelines[0]!.teams[0]!;
    expect(first.items.map((p) => p.time)).toEqual([10, 100]);
    expect(first.items[1]!.score).toBe(b.items[0]!.score);
  });

  it("orders challenges by category, then title, and counts them", () => {
    const b = board({
      challenges: [
        challenge(1, { category: "Web", title: "b" }),
        challenge(2, { category: "Misc", title: "z" }),
        challenge(3, { category: "Web", title: "a" }),
      ],
    });
    expect(Object.keys(b.challenges)).toEqual(["Misc", "Web"]);
    expect(b.challenges.Web!.map((c) => c.id)).toEqual([3, 1]);
    expect(b.challengeCount).toBe(3);
  });
});

describe("scoreboard invariants", () => {
  const arbitraryInput = fc
    .record({
      teamCount: fc.integer({ min: 1, max: 12 }),
      challengeCount: fc.integer({ min: 1, max: 6 }),
      raw: fc.array(fc.tuple(fc.nat(11), fc.nat(5), fc.integer({ min: -HOUR, max: 11 * HOUR })), { maxLength: 60 }),
    })
    .map(({ teamCount, challengeCount, raw }) => {
      const seen = new Set<string>();
      let n = 0;
      const solves: BoardSolve[] = [];
      for (const [t, c, time] of raw) {
        const p = (t % teamCount) + 1;
        const cid = (c % challengeCount) + 1;
        if (seen.has(`${p}:${cid}`)) continue;
        seen.add(`${p}:${cid}`);
        solves.push({ participationId: p, challengeId: cid, submissionId: ++n, time, userName: "u" });
      }
      return {
        teams: Array.from({ length: teamCount }, (_, i) => team(i + 1)),
        challenges: Array.from({ length: challengeCount }, (_, i) => challenge(i + 1)),
        solves,
      };
    });

  it("ranks are a permutation 1..n, scores are sorted, bloods are at most three and in time order", () => {
    fc.assert(
      fc.property(arbitraryInput, (input) => {
        const b = board(input);
        expect(b.items.map((i) => i.rank).sort((x, y) => x - y)).toEqual(input.teams.map((_, i) => i + 1));
        for (let i = 1; i < b.items.length; i++) expect(b.items[i]!.score).toBeLessThanOrEqual(b.items[i - 1]!.score);
        for (const c of b.challenges.Web ?? []) {
          expect(c.bloods.length).toBeLessThanOrEqual(3);
          const times = c.bloods.map((x) => x.submitTimeUtc);
          expect(times).toEqual([...times].sort((x, y) => x - y));
        }
        const total = b.items.reduce((s, i) => s + i.solvedCount, 0);
        expect(total).toBe(input.solves.length);
      }),
    );
  });

  it("a challenge's value never rises when a solve is added", () => {
    fc.assert(
      fc.property(arbitraryInput, fc.integer({ min: 0, max: 9 * HOUR }), (input, time) => {
        const before = board(input);
        const free = input.teams.find((t) => !input.solves.some((s) => s.participationId === t.participationId && s.challengeId === 1));
        if (!free) return;
        const after = board({ ...input, solves: [...input.solves, { participationId: free.participationId, challengeId: 1, submissionId: 9999, time, userName: "x" }] });
        expect(after.challenges.Web![0]!.score).toBeLessThanOrEqual(before.challenges.Web![0]!.score);
      }),
    );
  });
});

describe("firstSolveTime", () => {
  const item = (id: number, times: number[]): ScoreboardItem => ({
    id,
    name: `t${id}`,
    bio: "",
    divisionId: null,
    avatar: null,
    score: 0,
    rank: 0,
    divisionRank: null,
    lastSubmissionTime: 0,
    solvedCount: times.length,
    solvedChallenges: times.map((time, c) => ({ id: c, score: 1, type: "Normal", userName: "u", time })),
  });

  it("is the earliest solve, or the update time when there is none earlier", () => {
    expect(firstSolveTime({ updateTimeUtc: 900, items: [item(1, [500, 300]), item(2, [400])] })).toBe(300);
    expect(firstSolveTime({ updateTimeUtc: 200, items: [item(1, [500])] })).toBe(200);
    expect(firstSolveTime({ updateTimeUtc: 900, items: [] })).toBe(900);
  });

  it("takes a board of 2,000 teams × 100 solves (more than a spread of arguments can hold)", () => {
    const items = Array.from({ length: 2000 }, (_, t) => item(t, Array.from({ length: 100 }, (_, c) => 1_000_000 + t * 100 + c)));
    expect(firstSolveTime({ updateTimeUtc: 9_999_999, items })).toBe(1_000_000);
  });
});
