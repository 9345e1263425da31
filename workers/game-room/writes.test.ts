import { describe, expect, it } from "vitest";
import { type NewSubmission, storedOf } from "./writes";

const sub = (participationId: number, challengeId: number): NewSubmission => ({ challengeId, participationId, userId: "u", answer: "a", time: 1, ip: "" });

describe("storedOf", () => {
  it("gives every row its id in insertion order, whatever order the rows come back in", () => {
    const subs = [sub(1, 10), sub(2, 10), sub(1, 11)];
    expect(storedOf(subs, [{ id: 7, p: 2, c: 10 }, { id: 8, p: 1, c: 11 }, { id: 6, p: 1, c: 10 }])).toEqual([6, 7, 8]);
  });

  it("marks the rows left out, wherever they are in the batch", () => {
    // Participation 2 was deleted while its rows waited: both of its rows are missing.
    const subs = [sub(2, 10), sub(1, 10), sub(2, 11), sub(3, 10)];
    expect(storedOf(subs, [{ id: 20, p: 1, c: 10 }, { id: 21, p: 3, c: 10 }])).toEqual([null, 20, null, 21]);
  });

  it("keeps repeated pairs apart (a team sending one challenge several flags)", () => {
    const subs = [sub(1, 10), sub(1, 10), sub(4, 12), sub(1, 10)];
    expect(storedOf(subs, [{ id: 3, p: 1, c: 10 }, { id: 4, p: 1, c: 10 }, { id: 5, p: 1, c: 10 }])).toEqual([3, 4, null, 5]);
  });

  it("marks everything when nothing was stored", () => {
    expect(storedOf([sub(1, 1), sub(2, 2)], [])).toEqual([null, null]);
    expect(storedOf([], [])).toEqual([]);
  });
});
