import { afterEach, describe, expect, it, vi } from "vitest";
import { flagsEqual, matchesAny } from "~/core/flags/match";

// Flag comparison in constant time (rules.md §5): the comparison reads every byte of both inputs,
// whatever the position of the first difference, so its running time reveals nothing about how much of
// a guess was right. Instrumented: TextEncoder.encode hands out arrays that count their element reads.

const realEncode = TextEncoder.prototype.encode;
let reads = 0;

function instrument() {
  reads = 0;
  vi.spyOn(TextEncoder.prototype, "encode").mockImplementation(function (this: TextEncoder, input?: string) {
    const bytes = realEncode.call(this, input);
    return new Proxy(bytes, {
      get(target, key) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads += 1;
        const value = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

const FLAG = "flag{7h15_15_4_v3ry_l0n6_4nd_53cr37_fl46_v4lu3}";

/** Reads done by one comparison. */
function readsFor(submitted: string, expected = FLAG): { equal: boolean; reads: number } {
  instrument();
  const equal = flagsEqual(submitted, expected);
  const counted = reads;
  vi.restoreAllMocks();
  return { equal, reads: counted };
}

describe("flagsEqual runs in time independent of where the inputs differ", () => {
  it("reads every byte of both inputs for equal, early-mismatch and late-mismatch guesses", () => {
    const n = new TextEncoder().encode(FLAG).length;
    const equal = readsFor(FLAG);
    expect(equal).toEqual({ equal: true, reads: 2 * n });
    const variants = [
      `X${FLAG.slice(1)}`, // first byte differs
      `${FLAG.slice(0, n / 2)}X${FLAG.slice(n / 2 + 1)}`, // middle
      `${FLAG.slice(0, -1)}X`, // last byte
      "X".repeat(n), // everything
    ];
    for (const guess of variants) {
      expect(guess.length).toBe(FLAG.length);
      expect(readsFor(guess), guess).toEqual({ equal: false, reads: 2 * n });
    }
  });

  it("a shorter or longer guess still walks the longer input in full", () => {
    const n = FLAG.length;
    expect(readsFor("f")).toEqual({ equal: false, reads: 2 * n });
    expect(readsFor(`${FLAG}extra`)).toEqual({ equal: false, reads: 2 * (n + 5) });
    expect(readsFor("")).toEqual({ equal: false, reads: 2 * n });
  });

  it("matchesAny compares against every flag even after a hit", () => {
    const flags = ["flag{a}", "flag{b}", "flag{c}"];
    instrument();
    expect(matchesAny("flag{a}", flags)).toBe(true);
    const afterFirstHit = reads;
    vi.restoreAllMocks();
    instrument();
    expect(matchesAny("flag{z}", flags)).toBe(false);
    expect(reads).toBe(afterFirstHit);
    expect(reads).toBe(3 * 2 * 7);
  });

  it("keeps its answers: exact, case-sensitive, the submission trimmed", () => {
    expect(flagsEqual(`  ${FLAG}\n`, FLAG)).toBe(true);
    expect(flagsEqual(FLAG.toUpperCase(), FLAG)).toBe(false);
    expect(flagsEqual("flag{ä}", "flag{ä}")).toBe(true);
  });
});
