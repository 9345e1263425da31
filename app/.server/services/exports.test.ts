import { describe, expect, it } from "vitest";
import type { ScoreboardModel } from "~/core/scoring/scoreboard";
import { EMPTY_CELL, joinValues, scoreboardFileName, scoreboardRows, submissionsFileName, SUBMISSION_STATUS_LABELS } from "./exports";

const t = (key: string) => key.replace("common:exports.", "");

const board: ScoreboardModel = {
  updateTimeUtc: 0,
  bloodBonus: 0,
  timelines: [],
  divisions: [{ id: 7, name: "Students", defaultPermissions: 0, challengeConfigs: {} }],
  challengeCount: 3,
  challenges: {
    Web: [{ id: 2, title: "w", category: "Web", score: 100, solved: 1, deadline: null, bloods: [], disableBloodBonus: false }],
    Misc: [
      { id: 3, title: "m2", category: "Misc", score: 100, solved: 0, deadline: null, bloods: [], disableBloodBonus: false },
      { id: 1, title: "m1", category: "Misc", score: 100, solved: 0, deadline: null, bloods: [], disableBloodBonus: false },
    ],
  },
  items: [
    {
      id: 10, name: "Alpha", bio: "", divisionId: 7, avatar: null, score: 105, rank: 1, divisionRank: 1, lastSubmissionTime: Date.UTC(2026, 0, 2, 3, 4, 5),
      solvedChallenges: [{ id: 2, score: 105, type: "FirstBlood", userName: "ann", time: Date.UTC(2026, 0, 2, 3, 4, 5) }], solvedCount: 1,
    },
    { id: 11, name: "", bio: "", divisionId: null, avatar: null, score: 0, rank: 0, divisionRank: null, lastSubmissionTime: 0, solvedChallenges: [], solvedCount: 0 },
  ],
};

describe("excel export layout (rules.md §12)", () => {
  it("names the files in UTC", () => {
    const at = Date.UTC(2026, 10, 21, 9, 8, 7);
    expect(scoreboardFileName("CTF", at)).toBe("CTF-Scoreboard-20261121-09.08.07Z.xlsx");
    expect(submissionsFileName("CTF", at)).toBe("CTF_Submissions_20261121090807.xlsx");
    // A title is one segment of the file's name: no directories, no line breaks.
    expect(scoreboardFileName("../../tmp/pwn", at)).toBe(".._.._tmp_pwn-Scoreboard-20261121-09.08.07Z.xlsx");
    expect(submissionsFileName("a\r\nX-Injected: 1", at)).toBe("a__X-Injected: 1_Submissions_20261121090807.xlsx");
  });

  it("joins several values with ' / ' and prints empty ones as <empty>", () => {
    expect(joinValues(["a", "", "b"])).toBe(`a / ${EMPTY_CELL} / b`);
    expect(joinValues([])).toBe(EMPTY_CELL);
  });

  it("lays out the scoreboard: division column, challenges in board order, '-' for rank 0, points with bonus", () => {
    const roster = new Map([[10, { captain: "ann", members: [{ userName: "ann", realName: "Ann", email: "a@x", stdNumber: "", phone: "1" }, { userName: "bob", realName: "", email: "b@x", stdNumber: "", phone: "" }] }]]);
    const rows = scoreboardRows(board, roster, t);
    expect(rows[0]!.map((c) => (typeof c === "object" && c !== null && "value" in c ? c.value : c))).toEqual([
      "rank", "team", "division", "captain", "crew", "realName", "email", "stdNumber", "phone", "solved", "time", "score", "m1", "m2", "w",
    ]);
    const [alpha, nameless] = [rows[1]!, rows[2]!];
    expect(alpha.slice(0, 10)).toEqual([1, "Alpha", "Students", "ann", "ann / bob", `Ann / ${EMPTY_CELL}`, "a@x / b@x", `${EMPTY_CELL} / ${EMPTY_CELL}`, `1 / ${EMPTY_CELL}`, 1]);
    expect(alpha[10]).toMatchObject({ value: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), type: Date });
    expect(alpha.slice(11)).toEqual([105, 0, 0, 105]);
    expect(nameless.slice(0, 11)).toEqual(["-", EMPTY_CELL, EMPTY_CELL, EMPTY_CELL, EMPTY_CELL, EMPTY_CELL, EMPTY_CELL, EMPTY_CELL, EMPTY_CELL, 0, EMPTY_CELL]);
  });

  it("omits the division column without divisions and labels every status", () => {
    const rows = scoreboardRows({ ...board, divisions: [] }, new Map(), t);
    expect(rows[0]).toHaveLength(14);
    expect(SUBMISSION_STATUS_LABELS).toEqual({ Accepted: "ACCEPTED", WrongAnswer: "WRONG", CheatDetected: "Cheat detection", FlagSubmitted: "Successfully submitted", NotFound: "Unknown instance" });
  });
});
