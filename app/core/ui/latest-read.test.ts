import { describe, expect, it } from "vitest";
import { LatestRead } from "./latest-read";

describe("LatestRead", () => {
  it("takes the answer of the only read", () => {
    const reads = new LatestRead();
    const read = reads.begin();
    expect(reads.pending).toBe(true);
    expect(reads.settle(read)).toBe(true);
    expect(reads.pending).toBe(false);
  });

  it("drops an older read that answers after a newer one, whichever answers first", () => {
    const reads = new LatestRead();
    const older = reads.begin();
    const newer = reads.begin();
    expect(reads.settle(newer)).toBe(true);
    expect(reads.settle(older)).toBe(false);
    const third = reads.begin();
    const fourth = reads.begin();
    expect(reads.settle(third)).toBe(false);
    expect(reads.pending).toBe(true);
    expect(reads.settle(fourth)).toBe(true);
  });

  it("says a read is on its way until the latest one has answered", () => {
    const reads = new LatestRead();
    expect(reads.pending).toBe(false);
    const older = reads.begin();
    const newer = reads.begin();
    reads.settle(older);
    expect(reads.pending).toBe(true);
    reads.settle(newer);
    expect(reads.pending).toBe(false);
  });
});
