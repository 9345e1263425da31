import { describe, expect, it } from "vitest";
import { PushesDuringRead } from "./pushes-during-read";

const add = (n: number) => (list: number[]) => [n, ...list.filter((x) => x !== n)];
const remove = (n: number) => (list: number[]) => list.filter((x) => x !== n);

describe("PushesDuringRead", () => {
  it("applies the changes pushed during a read to its answer, in order", () => {
    const reads = new PushesDuringRead<number[]>();
    const round = reads.begin();
    reads.push(add(3));
    reads.push(remove(1));
    reads.push(add(4));
    expect(reads.settle(round, [2, 1])).toEqual([4, 3, 2]);
  });

  it("keeps no change once the read has settled", () => {
    const reads = new PushesDuringRead<number[]>();
    const first = reads.begin();
    expect(reads.settle(first, [1])).toEqual([1]);
    reads.push(add(5));
    const second = reads.begin();
    expect(reads.settle(second, [1])).toEqual([1]);
  });

  it("ignores an older read that answers after a newer one began", () => {
    const reads = new PushesDuringRead<number[]>();
    const older = reads.begin();
    const newer = reads.begin();
    reads.push(add(7));
    expect(reads.settle(older, [1])).toBeNull();
    expect(reads.settle(newer, [2])).toEqual([7, 2]);
    expect(reads.fail(older)).toBe(false);
  });

  it("drops the kept changes when the newest read fails", () => {
    const reads = new PushesDuringRead<number[]>();
    const round = reads.begin();
    reads.push(add(1));
    expect(reads.fail(round)).toBe(true);
    const next = reads.begin();
    expect(reads.settle(next, [])).toEqual([]);
  });
});
