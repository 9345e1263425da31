import { describe, expect, it } from "vitest";
import type { ParticipationStatus } from "../enums";
import type { ParticipationInfo } from "../schemas/game";
import { confirmationMessage, NO_REVIEW_FILTER, needsConfirmation, parseReviewFilter, reviewCounts, reviewRows } from "./review";

const member = (userName: string) => ({ userId: userName, userName, email: "", bio: "", phone: "", realName: "", stdNumber: "", avatar: null, role: "User" as const });

function participation(id: number, status: ParticipationStatus, name: string, divisionId: number | null = null, members: string[] = [], formerMembers: string[] = []): ParticipationInfo {
  return {
    id,
    status,
    divisionId,
    registeredMembers: [],
    formerMembers: formerMembers.map(member),
    team: {
      id: id + 100,
      locked: false,
      captainId: "c",
      name,
      bio: "",
      avatar: null,
      members: members.map(member),
    },
  };
}

const list = [
  participation(1, "Accepted", "Alpha", 1, ["ann"]),
  participation(2, "Pending", "Bravo", 2, ["bea", "ann2"]),
  participation(3, "Rejected", "Charlie", null),
  participation(4, "Pending", "Delta", 1),
  participation(5, "Suspended", "Echo", 2, [], ["gone"]),
];
const ids = (rows: ParticipationInfo[]) => rows.map((p) => p.id);

describe("review rows", () => {
  it("lists pending requests first, then by id", () => {
    expect(ids(reviewRows(list, NO_REVIEW_FILTER))).toEqual([2, 4, 1, 3, 5]);
  });

  it.each([
    [{ status: "Pending" }, [2, 4]],
    [{ status: "Suspended" }, [5]],
    [{ status: "Unsubmitted" }, []],
    [{ division: 1 }, [4, 1]],
    [{ division: "none" }, [3]],
    [{ query: "ann" }, [2, 1]],
    [{ query: "charlie" }, [3]],
    [{ query: "#104" }, [4]],
    // A member who has left the team stays registered in the game through it.
    [{ query: "gone" }, [5]],
    [{ status: "Pending", division: 2, query: "bea" }, [2]],
    [{ status: "Accepted", query: "bravo" }, []],
  ] as const)("filter %j gives %j", (filter, expected) => {
    expect(ids(reviewRows(list, { ...NO_REVIEW_FILTER, ...filter }))).toEqual(expected);
  });

  it("does not reorder the list it is given", () => {
    const copy = [...list];
    reviewRows(copy, NO_REVIEW_FILTER);
    expect(ids(copy)).toEqual([1, 2, 3, 4, 5]);
  });

  it("counts each status and all", () => {
    expect(reviewCounts(list)).toEqual({ all: 5, Pending: 2, Accepted: 1, Rejected: 1, Suspended: 1, Unsubmitted: 0 });
  });
});

describe("review filter from the address", () => {
  it.each([
    ["", NO_REVIEW_FILTER],
    ["status=Pending&division=3&q=abc", { status: "Pending", division: 3, query: "abc" }],
    ["division=none", { ...NO_REVIEW_FILTER, division: "none" }],
    ["status=pending&division=x", NO_REVIEW_FILTER],
    ["status=all&division=-1", NO_REVIEW_FILTER],
  ])("%j", (search, expected) => {
    expect(parseReviewFilter(new URLSearchParams(search))).toEqual(expected);
  });
});

describe("needsConfirmation", () => {
  it("asks before suspending anyone and before rejecting an accepted team", () => {
    expect(needsConfirmation("Accepted", "Suspended")).toBe(true);
    expect(needsConfirmation("Pending", "Suspended")).toBe(true);
    expect(needsConfirmation("Accepted", "Rejected")).toBe(true);
  });

  it("asks before rejecting a suspended team, saying that this lifts its ban", () => {
    expect(needsConfirmation("Suspended", "Rejected")).toBe(true);
    expect(confirmationMessage("Suspended", "Rejected")).toBe("rejectSuspended");
    expect(confirmationMessage("Accepted", "Rejected")).toBe("reject");
    expect(confirmationMessage("Accepted", "Suspended")).toBe("suspend");
  });

  it("acts at once on the routine ones", () => {
    expect(needsConfirmation("Pending", "Accepted")).toBe(false);
    expect(needsConfirmation("Pending", "Rejected")).toBe(false);
    expect(needsConfirmation("Suspended", "Accepted")).toBe(false);
    expect(needsConfirmation("Rejected", "Accepted")).toBe(false);
  });
});
