import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GamePermission } from "../enums";
import { type BoardInput, type BoardSolve, computeScoreboard, type ScoreboardModel } from "../scoring/scoreboard";
import { applyBoardDelta, indexBoard, refetchDelta, solveDelta, solvedCounts } from "./delta";

const ALL = GamePermission.All;
const NO_SCORE = ALL & ~GamePermission.GetScore;
const NO_BLOOD = ALL & ~GamePermission.GetBlood;
const NO_DYNAMIC = ALL & ~GamePermission.AffectDynamicScore;
const NO_RANK = ALL & ~GamePermission.RankOverall;

/** Random games: teams in divisions with mixed permissions, challenges with deadlines and bloods off, solves in and out of the window. */
const arbGame = fc
  .record({
    teams: fc.integer({ min: 1, max: 14 }),
    challenges: fc.integer({ min: 1, max: 5 }),
    divisionOf: fc.array(fc.constantFrom(null, 1, 2), { minLength: 14, maxLength: 14 }),
    divisionPerms: fc.tuple(fc.constantFrom(ALL, NO_SCORE, NO_BLOOD, NO_DYNAMIC, NO_RANK), fc.constantFrom(ALL, NO_RANK, NO_DYNAMIC)),
    override: fc.constantFrom(null, NO_SCORE, NO_BLOOD, NO_DYNAMIC),
    deadlines: fc.array(fc.constantFrom(null, 1010, 1025), { minLength: 5, maxLength: 5 }),
    noBlood: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
    originalScore: fc.constantFrom(0, 1, 10, 500, 1000),
    minScoreRate: fc.constantFrom(0, 0.1, 0.25, 1),
    difficulty: fc.constantFrom(0.5, 1, 3, 20),
    factors: fc.constantFrom([0, 0, 0], [50, 30, 10], [1000, 500, 1], [7, 7, 7]),
    solves: fc.array(fc.tuple(fc.integer({ min: 1, max: 14 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 3 })), { maxLength: 60 }),
    cuts: fc.array(fc.nat(), { maxLength: 4 }),
  })
  .map((g) => {
    const seen = new Set<string>();
    let time = 990;
    const solves: BoardSolve[] = [];
    g.solves.forEach(([p, c, gap], i) => {
      time += gap; // equal times happen: ties are settled by submission id, then join order
      if (p > g.teams || c > g.challenges || seen.has(`${p}:${c}`)) return;
      seen.add(`${p}:${c}`);
      solves.push({ participationId: p, challengeId: c, submissionId: i + 1, time, userName: `u${p}` });
    });
    const input: BoardInput = {
      game: { start: 1000, end: 1040, bloodBonus: 0, bloodFactors: { first: g.factors[0]!, second: g.factors[1]!, third: g.factors[2]! } },
      divisions: [
        { id: 1, name: "one", defaultPermissions: g.divisionPerms[0], challengeConfigs: g.override === null ? {} : { 2: g.override } },
        { id: 2, name: "two", defaultPermissions: g.divisionPerms[1], challengeConfigs: {} },
      ],
      teams: Array.from({ length: g.teams }, (_, i) => ({ participationId: i + 1, teamId: 100 + ((i * 5) % 14), name: `t${i}`, bio: "", avatar: null, divisionId: g.divisionOf[i]! })),
      challenges: Array.from({ length: g.challenges }, (_, i) => ({
        id: i + 1,
        title: `c${i % 2}`,
        category: i % 3 === 0 ? ("Web" as const) : ("Crypto" as const),
        originalScore: g.originalScore,
        minScoreRate: g.minScoreRate,
        difficulty: g.difficulty,
        deadline: g.deadlines[i]!,
        disableBloodBonus: g.noBlood[i]!,
      })),
      solves,
      now: 1,
    };
    const cuts = [...new Set(g.cuts.map((c) => c % (solves.length + 1)))].sort((a, b) => a - b);
    return { input, cuts };
  });

const comparable = (b: ScoreboardModel) => ({ ...b, updateTimeUtc: 0 });
/** What the browser holds: the board and deltas went through JSON. */
const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe("scoreboard deltas", () => {
  it("adding solves by deltas, in any batches, gives the full computation — in the room and in the browser", () => {
    fc.assert(
      fc.property(arbGame, ({ input, cuts }) => {
        const bounds = [...cuts, input.solves.length];
        const index = indexBoard(input);
        let room = computeScoreboard({ ...input, solves: input.solves.slice(0, bounds[0]) });
        let browser = wire(room);
        let version = 1;
        for (let i = 1; i < bounds.length; i++) {
          const batch = input.solves.slice(bounds[i - 1], bounds[i]);
          const { delta, board } = solveDelta(index, room, batch, ++version, 2);
          room = board;
          browser = applyBoardDelta(browser, wire(delta));
          expect(delta.version).toBe(version);
        }
        const full = computeScoreboard({ ...input, now: 2 });
        expect(comparable(room)).toEqual(comparable(full));
        expect(comparable(browser)).toEqual(wire(comparable(full)));
      }),
      { numRuns: 400 },
    );
  });

  it("counts each challenge's solves as the full computation does, with the solves still waiting for a delta", () => {
    fc.assert(
      fc.property(arbGame, ({ input, cuts }) => {
        const onBoard = cuts[0] ?? 0;
        const board = computeScoreboard({ ...input, solves: input.solves.slice(0, onBoard) });
        const counts = solvedCounts(indexBoard(input), board, input.solves.slice(onBoard));
        const full = Object.values(computeScoreboard(input).challenges).flat();
        expect([...counts].sort((a, b) => a[0] - b[0])).toEqual(full.map((c) => [c.id, c.solved]).sort((a, b) => a[0]! - b[0]!));
      }),
      { numRuns: 400 },
    );
  });

  it("carries facts, not moved items: the re-scoring of earlier solves and no order when it follows from the scores", () => {
    const input: BoardInput = {
      game: { start: 0, end: 10_000, bloodBonus: 0, bloodFactors: { first: 0, second: 0, third: 0 } },
      divisions: [],
      teams: [1, 2, 3, 4].map((i) => ({ participationId: i, teamId: 10 + i, name: `t${i}`, bio: "", avatar: null, divisionId: null })),
      challenges: [1, 2].map((i) => ({ id: i, title: `c${i}`, category: "Web" as const, originalScore: 1000, minScoreRate: 0.25, difficulty: 3, deadline: null, disableBloodBonus: true })),
      solves: [],
      now: 5,
    };
    const s = (participationId: number, challengeId: number, time: number) => ({ participationId, challengeId, submissionId: time, time, userName: `u${participationId}` });
    const before = computeScoreboard({ ...input, solves: [s(1, 1, 10), s(2, 1, 20), s(2, 2, 25)] });
    const { delta, board } = solveDelta(indexBoard(input), before, [s(3, 1, 30)], 2, 6);
    const was = before.challenges.Web!.find((c) => c.id === 1)!.score;
    const value = board.challenges.Web!.find((c) => c.id === 1)!.score;
    expect(value).toBeLessThan(was);
    expect(delta.challenges.map((c) => [c.id, c.solved, c.score])).toEqual([[1, 3, value]]);
    expect(delta.solves).toEqual([{ team: 13, last: 30, solve: { id: 1, score: value, type: "Normal", userName: "u3", time: 30 } }]);
    expect(delta.rescored).toEqual([[1, "Normal", was, value]]);
    expect(delta.order).toBeNull();
    expect(JSON.stringify(delta).length).toBeLessThan(400);
    expect(board.items.map((i) => [i.id, i.score, i.rank])).toEqual([
      [12, value + 1000, 1],
      [11, value, 2],
      [13, value, 3],
      [14, 0, 4],
    ]);
  });

  it("sends the order when only the join order settles a tie", () => {
    const input: BoardInput = {
      game: { start: 0, end: 10_000, bloodBonus: 0, bloodFactors: { first: 0, second: 0, third: 0 } },
      divisions: [],
      teams: [1, 2].map((i) => ({ participationId: i, teamId: 10 + i, name: `t${i}`, bio: "", avatar: null, divisionId: null })),
      challenges: [1, 2].map((i) => ({ id: i, title: `c${i}`, category: "Web" as const, originalScore: 100, minScoreRate: 1, difficulty: 3, deadline: null, disableBloodBonus: true })),
      solves: [],
      now: 5,
    };
    // Team 2 leads; then team 1 catches up at the very same time: equal score and time, and the join
    // order puts team 1 first although team 2 was ahead before.
    const before = computeScoreboard({ ...input, solves: [{ participationId: 2, challengeId: 1, submissionId: 1, time: 10, userName: "b" }] });
    expect(before.items.map((i) => i.id)).toEqual([12, 11]);
    const { delta, board } = solveDelta(
      indexBoard(input),
      before,
      [
        { participationId: 1, challengeId: 1, submissionId: 2, time: 20, userName: "a" },
        { participationId: 1, challengeId: 2, submissionId: 3, time: 20, userName: "a" },
        { participationId: 2, challengeId: 2, submissionId: 4, time: 20, userName: "b" },
      ],
      2,
      6,
    );
    expect(board.items.map((i) => [i.id, i.score, i.rank])).toEqual([
      [11, 200, 1],
      [12, 200, 2],
    ]);
    expect(delta.order).toEqual([11, 12]);
    expect(applyBoardDelta(before, delta).items).toEqual(board.items);
  });

  it("a refetch delta carries nothing else", () => {
    expect(refetchDelta(3, 9)).toEqual({ version: 3, updateTimeUtc: 9, challenges: [], solves: [], rescored: [], order: null, refetch: true });
  });
});
