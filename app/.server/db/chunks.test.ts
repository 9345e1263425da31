import { describe, expect, it } from "vitest";
import { D1_LIST_MAX, inChunks } from "./chunks";

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("inChunks", () => {
  it.each([
    [0, []],
    [1, [1]],
    [D1_LIST_MAX, [D1_LIST_MAX]],
    [D1_LIST_MAX + 1, [D1_LIST_MAX, 1]],
    [250, [90, 90, 70]],
  ])("cuts %i values into parts of %j", async (n, sizes) => {
    const seen: number[][] = [];
    const out = await inChunks(range(n), async (part) => {
      seen.push(part);
      return part.map((v) => v * 2);
    });
    expect(seen.map((p) => p.length)).toEqual(sizes);
    expect(seen.flat()).toEqual(range(n));
    expect(out).toEqual(range(n).map((v) => v * 2));
  });

  it("runs the parts one after another", async () => {
    let running = 0;
    let most = 0;
    await inChunks(range(300), async (part) => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 1));
      running--;
      return part;
    });
    expect(most).toBe(1);
  });

  it("takes another part size", async () => {
    const seen: number[] = [];
    await inChunks(range(5), async (part) => (seen.push(part.length), part), 2);
    expect(seen).toEqual([2, 2, 1]);
  });
});
