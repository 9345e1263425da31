import { describe, expect, it } from "vitest";
import { filterChallenges, groupByCategory } from "./challenge-board";

const c = (id: number, category: "Web" | "Pwn" | "Misc", solvedByMe = false) => ({ id, category, solvedByMe });

describe("filterChallenges", () => {
  const list = [c(1, "Web"), c(2, "Pwn", true), c(3, "Web", true), c(4, "Misc")];

  it.each([
    [{ category: null, hideSolved: false }, [1, 2, 3, 4]],
    [{ category: "Web", hideSolved: false }, [1, 3]],
    [{ category: null, hideSolved: true }, [1, 4]],
    [{ category: "Web", hideSolved: true }, [1]],
    [{ category: "Pwn", hideSolved: true }, []],
  ] as const)("%j shows %j, in board order", (filter, ids) => {
    expect(filterChallenges(list, filter).map((x) => x.id)).toEqual(ids);
  });

  it("keeps the categories' board order when grouped", () => {
    expect(groupByCategory(filterChallenges(list, { category: null, hideSolved: true })).map(([category]) => category)).toEqual(["Web", "Misc"]);
  });
});
