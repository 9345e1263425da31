import { describe, expect, it } from "vitest";
import { mergeList } from "./merge-list";

const d = (id: number | null, name: string) => ({ id, name });

describe("mergeList", () => {
  const base = [d(1, "A"), d(2, "B")];

  it("keeps what another tab added when this tab adds too (nothing of theirs is deleted)", () => {
    expect(mergeList(base, [...base, d(null, "West")], [...base, d(3, "East")])).toEqual([d(1, "A"), d(2, "B"), d(null, "West"), d(3, "East")]);
  });

  it("applies this tab's removals and edits, and the others' edits of items this tab left alone", () => {
    expect(mergeList(base, [d(2, "B2")], [d(1, "A"), d(2, "B"), d(3, "C")])).toEqual([d(2, "B2"), d(3, "C")]);
    expect(mergeList(base, [d(1, "A"), d(2, "B"), d(null, "N")], [d(1, "A*"), d(2, "B")])).toEqual([d(1, "A*"), d(2, "B"), d(null, "N")]);
  });

  it("merges an item both tabs changed field by field: this tab's fields, the others' for the rest", () => {
    const base2 = [{ id: 1, name: "Undergrads", code: "" }];
    const mine = [{ id: 1, name: "Undergrads", code: "SECRET" }];
    const theirs = [{ id: 1, name: "Students", code: "" }];
    expect(mergeList(base2, mine, theirs)).toEqual([{ id: 1, name: "Students", code: "SECRET" }]);
  });

  it("does not bring back an item another tab removed, even one this tab edited", () => {
    expect(mergeList(base, [d(1, "A"), d(2, "B edited")], [d(1, "A")])).toEqual([d(1, "A")]);
  });

  it("is this tab's list when nobody else saved", () => {
    const mine = [d(2, "B"), d(null, "New"), d(1, "A renamed")];
    expect(mergeList(base, mine, base)).toEqual(mine);
  });
});
