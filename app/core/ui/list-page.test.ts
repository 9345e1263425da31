import { describe, expect, it } from "vitest";
import { LIST_PAGE_SIZE, matchesQuery, pageOf } from "./list-page";

const items = Array.from({ length: 120 }, (_, i) => i);

describe("pageOf", () => {
  it.each([
    [1, 0, 49],
    [2, 50, 99],
    [3, 100, 119],
  ])("page %i holds items %i…%i", (page, first, last) => {
    const p = pageOf(items, page);
    expect(p.rows[0]).toBe(first);
    expect(p.rows.at(-1)).toBe(last);
    expect(p).toMatchObject({ page, pages: 3, total: 120 });
  });

  it.each([
    [0, 1],
    [-4, 1],
    [Number.NaN, 1],
    [1.5, 1],
    [9, 3],
  ])("page %d is shown as page %i", (asked, shown) => {
    expect(pageOf(items, asked).page).toBe(shown);
  });

  it("has one empty page for no items and uses the shared size", () => {
    expect(pageOf([], 3)).toEqual({ rows: [], page: 1, pages: 1, total: 0 });
    expect(pageOf(items, 1).rows).toHaveLength(LIST_PAGE_SIZE);
    expect(pageOf(items, 2, 100).rows).toEqual(items.slice(100));
  });
});

describe("matchesQuery", () => {
  const texts = ["Null Pointers", "alice", "Bob_2"];
  it.each([
    ["", true],
    ["   ", true],
    ["null", true],
    ["POINTERS null", true],
    ["bob_2", true],
    ["ＡＬＩＣＥ", true],
    ["42", true],
    ["#42", true],
    ["4", false],
    ["#41", false],
    ["carol", false],
    ["null carol", false],
    ["#42 alice", true],
    ["#41 alice", false],
    ["null 42", false],
    ["#bob", false],
  ])("%j → %s", (query, expected) => {
    expect(matchesQuery(query, 42, texts)).toBe(expected);
  });

  it("matches a number inside a name as text", () => {
    expect(matchesQuery("2", 42, texts)).toBe(true);
    expect(matchesQuery("7", 42, texts)).toBe(false);
  });
});
