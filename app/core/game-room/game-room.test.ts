import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GamePermission } from "../enums";
import { emptyFlagCache, judge, playerStatus, setInstance } from "./judge";
import { checkFlagText } from "./schemas";
import { computeScoreboard } from "../scoring/scoreboard";
import { addSolve, boardInput, challengeValue, checkSubmission, countedSolves, type RoomChallenge, roomAccess, type RoomState, solveType } from "./state";
import { verdictText, WRONG_MESSAGE_COUNT, wrongMessageKey } from "./verdict-text";

describe("judge", () => {
  it("accepts any static flag, trimmed, and never reports cheats on static flags", () => {
    const cache = emptyFlagCache(false);
    cache.staticFlags = ["flag{a}", "flag{b}"];
    setInstance(cache, 1, null);
    setInstance(cache, 2, null);
    expect(judge(cache, 1, " flag{b}\n")).toEqual({ status: "Accepted" });
    expect(judge(cache, 1, "FLAG{a}")).toEqual({ status: "WrongAnswer" });
    expect(judge(cache, 3, "flag{a}")).toEqual({ status: "NotFound" });
  });

  it("accepts only the team's own dynamic flag and detects another team's", () => {
    const cache = emptyFlagCache(true);
    setInstance(cache, 1, "flag{one}");
    setInstance(cache, 2, "flag{two}");
    setInstance(cache, 3, null);
    expect(judge(cache, 1, "flag{one}")).toEqual({ status: "Accepted" });
    expect(judge(cache, 1, "flag{two}")).toEqual({ status: "CheatDetected", ownerParticipationId: 2 });
    expect(judge(cache, 3, "flag{one}")).toEqual({ status: "CheatDetected", ownerParticipationId: 1 });
    expect(judge(cache, 3, "anything")).toEqual({ status: "WrongAnswer" });
    // Reassigning a team's flag forgets the old owner entry.
    setInstance(cache, 2, "flag{new}");
    expect(judge(cache, 1, "flag{two}")).toEqual({ status: "WrongAnswer" });
    expect(playerStatus("CheatDetected")).toBe("WrongAnswer");
    expect(playerStatus("Accepted")).toBe("Accepted");
  });
});

function state(overrides: Partial<RoomState["game"]> = {}): RoomState {
  const now = Date.now();
  const challenge: RoomChallenge = {
    id: 10,
    title: "c",
    category: "Web",
    type: "StaticAttachment",
    isEnabled: true,
    originalScore: 1000,
    minScoreRate: 0.25,
    difficulty: 5,
    deadline: null,
    disableBloodBonus: false,
    submissionLimit: 0,
  };
  const s: RoomState = {
    game: { id: 1, title: "g", hidden: false, start: now - 1000, end: now + 100_000, practiceMode: true, bloodBonus: 52459530, writeupRequired: false, writeupDeadline: 0, ...overrides },
    divisions: new Map([[5, { id: 5, name: "d", defaultPermissions: GamePermission.All & ~GamePermission.GetBlood, challengeConfigs: {} }]]),
    participations: new Map(),
    members: new Map(),
    departed: new Set(),
    userNames: new Map(),
    challenges: new Map([[10, challenge]]),
    flagCaches: new Map(),
    solvedBy: new Map(),
    solvesByChallenge: new Map(),
    submissionCounts: new Map(),
  };
  for (let i = 1; i <= 6; i++) {
    s.participations.set(i, { id: i, teamId: 100 + i, name: `t${i}`, bio: "", avatar: null, divisionId: i === 6 ? 5 : null, status: i === 5 ? "Suspended" : "Accepted", token: "" });
    s.members.set(`u${i}`, i);
  }
  return s;
}

describe("roomAccess", () => {
  it("lists the members of Accepted participations with their team, and the game's visibility", () => {
    const s = state({ hidden: true });
    s.members.set("pending", 7);
    s.participations.set(7, { id: 7, teamId: 107, name: "t7", bio: "", avatar: null, divisionId: null, status: "Pending", token: "" });
    s.members.set("orphan", 99);
    const access = roomAccess(s);
    expect(access.hidden).toBe(true);
    expect([...access.accepted]).toEqual([
      ["u1", 101],
      ["u2", 102],
      ["u3", 103],
      ["u4", 104],
      ["u6", 106],
    ]);
  });
});

describe("submission checks", () => {
  it("follows the order of rules.md §7", () => {
    const s = state();
    const now = Date.now();
    expect(checkSubmission(s, "nobody", 10, now)).toMatchObject({ status: 403, code: "submission.not_joined" });
    expect(checkSubmission(s, "u5", 10, now)).toMatchObject({ status: 403, code: "game.banned" });
    expect(checkSubmission(s, "u1", 99, now)).toMatchObject({ status: 404 });
    expect(checkSubmission(state({ start: now + 1000 }), "u1", 10, now)).toMatchObject({ status: 10001 });
    expect(checkSubmission(state({ end: now - 1, practiceMode: false }), "u1", 10, now)).toMatchObject({ status: 10002 });
    expect("participation" in checkSubmission(state({ end: now - 1 }), "u1", 10, now)).toBe(true);
    s.challenges.get(10)!.deadline = now - 1;
    expect("participation" in checkSubmission(s, "u1", 10, now)).toBe(true);
    s.game.practiceMode = false;
    expect(checkSubmission(s, "u1", 10, now)).toMatchObject({ code: "submission.deadline_passed" });
    s.challenges.get(10)!.deadline = null;
    s.challenges.get(10)!.submissionLimit = 1;
    s.submissionCounts.set("1:10", 1);
    expect(checkSubmission(s, "u1", 10, now)).toMatchObject({ code: "submission.limit_reached" });
    s.divisions.get(5)!.challengeConfigs[10] = GamePermission.ViewChallenge;
    expect(checkSubmission(s, "u6", 10, now)).toMatchObject({ status: 403, code: "submission.not_allowed" });
    s.divisions.get(5)!.challengeConfigs[10] = 0;
    expect(checkSubmission(s, "u6", 10, now)).toMatchObject({ status: 404 });
  });

  it("refuses a registered member who has left the team as such, not as one who never joined", () => {
    const s = state();
    const now = Date.now();
    s.departed.add("gone");
    expect(checkSubmission(s, "gone", 10, now)).toMatchObject({ status: 403, code: "submission.left_team" });
    expect(checkSubmission(s, "nobody", 10, now)).toMatchObject({ status: 403, code: "submission.not_joined" });
    expect(roomAccess(s).accepted.has("gone")).toBe(false);
  });

  it("checks the flag text", () => {
    expect(checkFlagText(undefined)).toBe("submission.flag_empty");
    expect(checkFlagText("  ")).toBe("submission.flag_empty");
    expect(checkFlagText(null)).toBe("submission.flag_empty");
    expect(checkFlagText(5)).toBe("submission.flag_type");
    expect(checkFlagText(["flag{x}"])).toBe("submission.flag_type");
    expect(checkFlagText("x".repeat(128))).toBe("submission.flag_too_long");
    expect(checkFlagText("x".repeat(127))).toBeNull();
    // The limit applies to the text matched, without surrounding whitespace.
    expect(checkFlagText(` ${"x".repeat(127)}\n`)).toBeNull();
    expect(checkFlagText(` ${"x".repeat(128)} `)).toBe("submission.flag_too_long");
  });
});

describe("blood order", () => {
  it("gives the first three blood-eligible solves of accepted teams their bloods", () => {
    const s = state();
    const c = s.challenges.get(10)!;
    const t = s.game.start + 10;
    const take = (pid: number) => {
      const type = solveType(s, s.participations.get(pid)!, c, t + pid);
      addSolve(s, { participationId: pid, challengeId: 10, submissionId: pid, time: t + pid, userName: "" });
      return type;
    };
    // Team 6's division lacks GetBlood; team 5 is suspended (its solve does not count).
    expect(take(6)).toBe("Normal");
    expect(take(5)).toBe("FirstBlood");
    expect(take(1)).toBe("FirstBlood");
    expect(take(2)).toBe("SecondBlood");
    expect(take(3)).toBe("ThirdBlood");
    expect(take(4)).toBe("Normal");
    expect(solveType(state({ end: Date.now() - 1, start: Date.now() - 1000 }), s.participations.get(1)!, c, Date.now())).toBe("Normal");
  });
});

describe("challengeValue", () => {
  it("counts accepted teams' solves in the game's time only, whether the challenge is enabled or not", () => {
    const s = state();
    const c = s.challenges.get(10)!;
    const solve = (pid: number, time: number) => addSolve(s, { participationId: pid, challengeId: 10, submissionId: pid, time, userName: "" });
    solve(1, s.game.start + 1);
    expect(challengeValue(s, c)).toBe(1000);
    // A suspended team's solve and one after the end (practice) do not count.
    solve(5, s.game.start + 2);
    solve(2, s.game.end);
    expect(challengeValue(s, c)).toBe(1000);
    solve(3, s.game.start + 3);
    expect(challengeValue(s, c)).toBe(864);
    c.isEnabled = false;
    expect(challengeValue(s, c)).toBe(864);
  });
});

describe("countedSolves", () => {
  it("is the board's solve count: no suspended team, nothing after the end or the deadline, no division without AffectDynamicScore", () => {
    const s = state();
    const c = s.challenges.get(10)!;
    c.deadline = s.game.start + 50;
    s.divisions.get(5)!.challengeConfigs[10] = GamePermission.All & ~GamePermission.AffectDynamicScore;
    const solve = (pid: number, time: number) => addSolve(s, { participationId: pid, challengeId: 10, submissionId: pid, time, userName: "" });
    solve(1, s.game.start + 1);
    solve(2, s.game.start + 2);
    solve(5, s.game.start + 3);
    solve(6, s.game.start + 4);
    solve(3, c.deadline + 1);
    solve(4, s.game.end);
    const onBoard = () => computeScoreboard(boardInput(s, Date.now())).challenges.Web?.find((info) => info.id === 10)?.solved;
    expect(countedSolves(s, c)).toBe(2);
    expect(onBoard()).toBe(2);
    // The team plays again: its solve counts on the board and here alike.
    s.participations.get(5)!.status = "Accepted";
    expect(countedSolves(s, c)).toBe(3);
    expect(onBoard()).toBe(3);
    // Off the board (disabled), the count stays the rule's.
    c.isEnabled = false;
    expect(countedSolves(s, c)).toBe(3);
  });
});

describe("verdict texts", () => {
  it("has 23 wrong-flag messages in every language, and picks one at random", () => {
    for (const lang of ["en-US", "ja-JP", "zh-CN"]) {
      const common = JSON.parse(readFileSync(`app/locales/${lang}/common.json`, "utf8")) as { verdict: { wrong: Record<string, string> } };
      const messages = Object.values(common.verdict.wrong);
      expect(messages).toHaveLength(WRONG_MESSAGE_COUNT);
      expect(new Set(messages).size).toBe(WRONG_MESSAGE_COUNT);
      expect(messages.every((m) => m.trim().length > 0 && m.length <= 80)).toBe(true);
    }
    expect(wrongMessageKey(() => 0)).toBe("verdict.wrong.0");
    expect(wrongMessageKey(() => 0.9999)).toBe("verdict.wrong.22");
    expect(verdictText("CheatDetected", { submissionId: 1, ended: false, random: () => 0.5 }).key).toBe("verdict.wrong.11");
    expect(verdictText("Accepted", { submissionId: 1, ended: true }).key).toBe("verdict.notScored");
    expect(verdictText("NotFound", { submissionId: 7, ended: false })).toMatchObject({ key: "verdict.unknown", params: { id: 7 } });
    expect(verdictText("FlagSubmitted", { submissionId: 7, ended: false }).key).toBe("verdict.submitted");
  });
});
