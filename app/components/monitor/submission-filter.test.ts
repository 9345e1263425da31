import { describe, expect, it } from "vitest";
import type { SubmissionRecord } from "~/core/protocol";
import { keepNewest, matchesSubmissionFilter, pushSubmission, submissionFilterFrom, submissionsQuery } from "./submission-filter";

const record: SubmissionRecord = { id: 9, answer: "flag{x}", status: "WrongAnswer", time: 1, user: "u", team: "T", challenge: "C", challengeId: 4, teamId: 7, ip: "127.0.0.1" };

describe("the monitor's submission filter", () => {
  it("reads the address, ignoring what it cannot read", () => {
    expect(submissionFilterFrom(new URLSearchParams("status=Accepted&challenge=4&team=7"))).toEqual({ status: "Accepted", challenge: 4, team: 7 });
    expect(submissionFilterFrom(new URLSearchParams("status=Bogus&challenge=0&team=1.5"))).toEqual({ status: "", challenge: null, team: null });
    expect(submissionFilterFrom(new URLSearchParams("challenge=-3&team=abc"))).toEqual({ status: "", challenge: null, team: null });
  });

  it("asks the API for only what filters", () => {
    const filter = { status: "CheatDetected", challenge: 4, team: 7 } as const;
    expect(submissionsQuery(filter, 100, 200)).toBe("count=100&skip=200&type=CheatDetected&challengeId=4&teamId=7");
    expect(submissionsQuery({ status: "", challenge: null, team: null }, 100, 0)).toBe("count=100&skip=0");
  });

  it("matches pushed submissions on status, challenge id and team id together", () => {
    expect(matchesSubmissionFilter(record, { status: "", challenge: null, team: null })).toBe(true);
    expect(matchesSubmissionFilter(record, { status: "WrongAnswer", challenge: 4, team: 7 })).toBe(true);
    expect(matchesSubmissionFilter(record, { status: "Accepted", challenge: null, team: null })).toBe(false);
    expect(matchesSubmissionFilter(record, { status: "", challenge: 5, team: null })).toBe(false);
    expect(matchesSubmissionFilter(record, { status: "", challenge: null, team: 8 })).toBe(false);
    expect(matchesSubmissionFilter({ ...record, teamId: null }, { status: "", challenge: null, team: 7 })).toBe(false);
  });

  it("moves a pushed submission to the top with its latest status, once", () => {
    const older = { ...record, id: 8 };
    const submitted = { ...record, id: 10, status: "FlagSubmitted" as const };
    const all = { status: "" as const, challenge: null, team: null };
    expect(pushSubmission([older], submitted, all)).toEqual([submitted, older]);
    const judged = { ...submitted, status: "Accepted" as const };
    expect(pushSubmission([submitted, older], judged, all)).toEqual([judged, older]);
  });

  it("takes a submission out of the list when its new status no longer matches", () => {
    const submitted = { ...record, id: 10, status: "FlagSubmitted" as const };
    const waiting = { status: "FlagSubmitted" as const, challenge: null, team: null };
    expect(pushSubmission([submitted, record], { ...submitted, status: "Accepted" }, waiting)).toEqual([record]);
    expect(pushSubmission([record], { ...submitted, status: "Accepted" }, waiting)).toEqual([record]);
  });
});

describe("keepNewest", () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ ...record, id: n - i }));

  it("lets the oldest rows go past the number the page holds, keeping the newest in order", () => {
    const pushed = keepNewest(pushSubmission(rows(100), { ...record, id: 101 }, { status: "", challenge: null, team: null }), 100);
    expect(pushed).toHaveLength(100);
    expect(pushed[0]!.id).toBe(101);
    expect(pushed.at(-1)!.id).toBe(2);
  });

  it("keeps the rows as they are within the number", () => {
    const held = rows(3);
    expect(keepNewest(held, 100)).toBe(held);
  });
});
