import { describe, expect, it } from "vitest";
import { applyFilterChanges } from "~/lib/address-filter";
import { boardFilterChanges, boardFilterFrom, knownDivision } from "./board-filter";

describe("the scoreboard's filter", () => {
  it("reads the address, ignoring what it cannot read", () => {
    expect(boardFilterFrom(new URLSearchParams("division=4&q=Team+A"))).toEqual({ division: 4, query: "Team A" });
    expect(boardFilterFrom(new URLSearchParams(""))).toEqual({ division: null, query: "" });
    for (const bad of ["0", "-3", "1.5", "abc", ""]) expect(boardFilterFrom(new URLSearchParams({ division: bad })).division).toBeNull();
  });

  it("cuts a search longer than the box takes", () => {
    expect(boardFilterFrom(new URLSearchParams({ q: "x".repeat(60) })).query).toHaveLength(40);
  });

  it("falls back to all divisions for one the game does not have", () => {
    const divisions = [{ id: 3 }, { id: 5 }];
    expect(knownDivision(5, divisions)).toBe(5);
    expect(knownDivision(4, divisions)).toBeNull();
    expect(knownDivision(null, divisions)).toBeNull();
    expect(knownDivision(3, [])).toBeNull();
  });

  it("writes a change to the address, dropping what is cleared and keeping the rest", () => {
    const at = (search: string, next: Parameters<typeof boardFilterChanges>[0]) => applyFilterChanges(new URLSearchParams(search), boardFilterChanges(next)).toString();
    expect(at("", { division: 4 })).toBe("division=4");
    expect(at("division=4", { query: "a b" })).toBe("division=4&q=a+b");
    expect(at("division=4&q=ab", { division: null })).toBe("q=ab");
    expect(at("division=4&q=ab", { query: "" })).toBe("division=4");
  });
});
