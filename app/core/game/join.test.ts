import { describe, expect, it } from "vitest";
import { PARTICIPATION_STATUSES } from "../enums";
import { expectedInviteCode, keepsDivision } from "./join";

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
});
