import { describe, expect, it } from "vitest";
import { PARTICIPATION_STATUSES } from "../enums";
import { expectedInviteCode, initialJoinChoice, joinRefusal, keepsDivision } from "./join";

describe("join rules", () => {
  it("a registered team keeps its division; only a Rejected one chooses again", () => {
    expect(PARTICIPATION_STATUSES.filter((s) => s !== "Unsubmitted" && !keepsDivision(s))).toEqual(["Rejected"]);
  });

  it.each([
    ["game", { inviteCode: "div" }, "div"],
    ["game", { inviteCode: "" }, "game"],
    ["game", null, "game"],
    ["", { inviteCode: "" }, ""],
  ] as const)("game code %j with division %j asks for %j", (game, division, expected) => {
    expect(expectedInviteCode(game, division)).toBe(expected);
  });

  describe("what the Join dialog refuses before asking", () => {
    const base = { teamId: 7, participation: undefined, myTeamId: null, memberLimit: 0 };

    it("a team without a participation, or a Pending, Accepted or Rejected one with room, may join", () => {
      expect(joinRefusal(base)).toBeNull();
      for (const status of ["Pending", "Accepted", "Rejected"] as const) {
        expect(joinRefusal({ ...base, participation: { status, members: 2 }, memberLimit: 3 })).toBeNull();
      }
    });

    it("a team suspended in the game is banned, whatever else holds", () => {
      expect(joinRefusal({ ...base, participation: { status: "Suspended", members: 1 } })).toBe("banned");
      expect(joinRefusal({ ...base, participation: { status: "Suspended", members: 5 }, myTeamId: 8, memberLimit: 1 })).toBe("banned");
    });

    it("a caller registered with another team cannot join with this one; with this one (a re-application) they may", () => {
      expect(joinRefusal({ ...base, myTeamId: 8 })).toBe("otherTeam");
      expect(joinRefusal({ ...base, participation: { status: "Rejected", members: 3 }, myTeamId: 7, memberLimit: 3 })).toBeNull();
    });

    it("a team whose registered members fill the limit takes no one more; 0 is unlimited", () => {
      expect(joinRefusal({ ...base, participation: { status: "Accepted", members: 3 }, memberLimit: 3 })).toBe("memberLimit");
      expect(joinRefusal({ ...base, participation: { status: "Pending", members: 4 }, memberLimit: 3 })).toBe("memberLimit");
      expect(joinRefusal({ ...base, participation: { status: "Accepted", members: 40 }, memberLimit: 0 })).toBeNull();
    });
  });

  describe("what the Join dialog has chosen when it opens", () => {
    const none = { teamId: null, status: "Unsubmitted", division: null } as const;
    it.each([
      ["no registration, several divisions", [3, 4], none, [10, 11], { teamId: 3, divisionId: null }],
      ["no registration, one division", [3, 4], none, [10], { teamId: 3, divisionId: 10 }],
      ["no registration, no division", [3], none, [], { teamId: 3, divisionId: null }],
      ["no team", [], none, [10], { teamId: null, divisionId: 10 }],
      ["rejected: the team and the division it applied with", [3, 4], { teamId: 4, status: "Rejected", division: 11 }, [10, 11], { teamId: 4, divisionId: 11 }],
      ["rejected in a division no longer open to joining", [3, 4], { teamId: 4, status: "Rejected", division: 12 }, [10, 11], { teamId: 4, divisionId: null }],
      ["rejected in a division no longer open, one left", [4], { teamId: 4, status: "Rejected", division: 12 }, [10], { teamId: 4, divisionId: 10 }],
      ["rejected without a division", [3, 4], { teamId: 4, status: "Rejected", division: null }, [10, 11], { teamId: 4, divisionId: null }],
      ["rejected with a team the caller has left", [3], { teamId: 4, status: "Rejected", division: 11 }, [10, 11], { teamId: 3, divisionId: null }],
      ["registered, not rejected", [3, 4], { teamId: 4, status: "Pending", division: 11 }, [10, 11], { teamId: 3, divisionId: null }],
    ] as const)("%s", (_, teamIds, mine, joinable, expected) => {
      expect(initialJoinChoice({ teamIds, mine, joinable })).toEqual(expected);
    });
  });
});
