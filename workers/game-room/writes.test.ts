import { describe, expect, it } from "vitest";
import { emptyWrites, hasWrites, IdPool, mergeWrites } from "./writes";

describe("IdPool", () => {
  it("hands out ids in ascending order across blocks", () => {
    const pool = new IdPool();
    pool.add(10, 13);
    pool.add(20, 22);
    expect(pool.available).toBe(5);
    expect(pool.take(2)).toEqual([10, 11]);
    expect(pool.take(2)).toEqual([12, 20]);
    expect(pool.available).toBe(1);
    expect(pool.take(1)).toEqual([21]);
    expect(pool.available).toBe(0);
  });

  it("refuses to hand out more than it holds, and takes nothing then", () => {
    const pool = new IdPool();
    pool.add(1, 3);
    expect(() => pool.take(3)).toThrow(RangeError);
    expect(pool.take(2)).toEqual([1, 2]);
  });

  it("refuses a block that does not come after the last one (ids must ascend with arrival)", () => {
    const pool = new IdPool();
    pool.add(100, 200);
    expect(() => pool.add(150, 250)).toThrow(RangeError);
    expect(() => pool.add(50, 60)).toThrow(RangeError);
    expect(() => pool.add(300, 300)).toThrow(RangeError);
    pool.add(200, 210);
    expect(pool.available).toBe(110);
  });
});

describe("mergeWrites", () => {
  it("puts the older writes first and keeps every kind", () => {
    const older = emptyWrites();
    older.submissions.push([1, 5, 7, "u", "flag{a}", "WrongAnswer", 10, ""]);
    older.events.push(["FlagSubmit", ["WrongAnswer"], 10, "u", 3]);
    older.acceptedChallenges.add(5);
    const newer = emptyWrites();
    newer.submissions.push([2, 6, 7, "u", "flag{b}", "Accepted", 11, ""]);
    newer.firstSolves.push([7, 6, 2, "u", 11, "FirstBlood"]);
    newer.notices.push(["FirstBlood", ["team", "chal"], 11]);
    newer.acceptedChallenges.add(6);
    const merged = mergeWrites(older, newer);
    expect(merged.submissions.map((r) => r[0])).toEqual([1, 2]);
    expect(merged.events).toHaveLength(1);
    expect(merged.firstSolves).toHaveLength(1);
    expect(merged.notices).toHaveLength(1);
    expect([...merged.acceptedChallenges]).toEqual([5, 6]);
    expect(hasWrites(merged)).toBe(true);
    expect(hasWrites(mergeWrites(emptyWrites(), emptyWrites()))).toBe(false);
  });
});
