import { describe, expect, it } from "vitest";
import { arrayOf, arrayResponseOf, isRecord, recordWith } from "./list-shape";

const game = recordWith<{ id: number; title: string; tags: string[]; hidden: boolean }>({ id: "number", title: "string", tags: "array", hidden: "boolean" });

describe("list shapes", () => {
  it("isRecord takes plain objects only", () => {
    expect(isRecord({})).toBe(true);
    expect([null, undefined, [], "x", 1, true].map(isRecord)).toEqual([false, false, false, false, false, false]);
  });

  it.each([
    [{ id: 1, title: "A", tags: [], hidden: false, extra: "kept" }, true],
    [{ id: "1", title: "A", tags: [], hidden: false }, false],
    [{ id: 1, title: "A", tags: "web", hidden: false }, false],
    [{ id: 1, title: "A", tags: [] }, false],
    [{ title: "A", tags: [], hidden: false }, false],
    [[1], false],
    [null, false],
  ])("recordWith checks the named fields of %j", (value, ok) => {
    expect(game(value)).toBe(ok);
  });

  const row = { id: 1, title: "A", tags: [], hidden: false };

  it("arrayOf checks every item", () => {
    const games = arrayOf(game);
    expect(games([])).toBe(true);
    expect(games([row, row])).toBe(true);
    expect(games([row, { ...row, id: null }])).toBe(false);
    expect(games({ x: 1 })).toBe(false);
    expect(games({ data: [row] })).toBe(false);
    expect(games(null)).toBe(false);
  });

  it("arrayResponseOf checks the envelope and its items", () => {
    const page = arrayResponseOf(game);
    expect(page({ data: [row], length: 1, total: 7 })).toBe(true);
    expect(page({ data: [], length: 0, total: 0 })).toBe(true);
    expect(page({ data: null, length: 0, total: 0 })).toBe(false);
    expect(page({ data: [row], length: 1 })).toBe(false);
    expect(page({ data: [{ ...row, title: 5 }], length: 1, total: 1 })).toBe(false);
    expect(page([row])).toBe(false);
    expect(page({ x: 1 })).toBe(false);
  });
});
