import { describe, expect, it } from "vitest";
import { olderPageSkips, uniqueById } from "./paged-list";

describe("olderPageSkips", () => {
  it.each([
    ["nothing loaded", 0, 50, []],
    ["one row", 1, 50, [50]],
    ["a short page", 3, 50, [50]],
    ["one full page", 50, 50, [50]],
    ["a row past one page", 51, 50, [50, 100]],
    ["two full pages", 100, 50, [50, 100]],
    ["pages of ten", 25, 10, [10, 20, 30]],
    ["a negative count", -5, 50, []],
    ["a size of zero", 10, 0, []],
    ["a size that is not a number", 10, Number.NaN, []],
  ])("%s", (_, loaded, size, skips) => {
    expect(olderPageSkips(loaded, size)).toEqual(skips);
  });
});

describe("uniqueById", () => {
  const row = (id: number, title = `g${id}`) => ({ id, title });

  it("keeps rows in order", () => {
    expect(uniqueById([row(3), row(2), row(1)])).toEqual([row(3), row(2), row(1)]);
  });

  it("keeps a repeated id where it first occurs", () => {
    expect(uniqueById([row(3), row(2, "first"), row(2, "again"), row(1)])).toEqual([row(3), row(2, "first"), row(1)]);
  });

  it("takes an empty list", () => {
    expect(uniqueById([])).toEqual([]);
  });

  it("does not change its input", () => {
    const rows = [row(1), row(1)];
    uniqueById(rows);
    expect(rows).toEqual([row(1), row(1)]);
  });
});
