import { describe, expect, it } from "vitest";
import { align, mergeHints } from "./merge-hints";

describe("mergeHints", () => {
  // [what happened, base (this tab loaded), mine (this tab holds), theirs (the server now), merged]
  const cases: [string, string[], string[], string[], string[]][] = [
    ["nobody else saved: this tab's list", ["A", "B"], ["B", "A*", "New"], ["A", "B"], ["B", "A*", "New"]],
    ["this tab edits a hint, the other added one: both", ["A", "B"], ["A", "B edited"], ["A", "B", "C"], ["A", "B edited", "C"]],
    ["this tab adds a hint, the other edited one: both", ["A", "B"], ["A", "B", "C"], ["A", "B edited"], ["A", "B edited", "C"]],
    ["both add a hint: the server's first, then this tab's", ["A"], ["A", "Mine"], ["A", "Theirs"], ["A", "Theirs", "Mine"]],
    ["the other edited and added, this tab added", ["A"], ["A", "Mine"], ["A*", "Theirs"], ["A*", "Theirs", "Mine"]],
    ["this tab removes a hint the other kept, the other's addition stays", ["A", "B", "C"], ["A", "C"], ["A", "B", "C", "D"], ["A", "C", "D"]],
    ["this tab removes a hint the other edited: removed", ["A", "B"], ["A"], ["A", "B*"], ["A"]],
    ["the other removed a hint this tab edited: it stays removed", ["A", "B"], ["A", "B*", "New"], ["A"], ["A", "New"]],
    ["both edit the same hint: this tab's text", ["A", "B"], ["A", "B mine"], ["A", "B theirs"], ["A", "B mine"]],
    ["the other edits a hint this tab left alone: theirs", ["A", "B", "C"], ["A", "B", "C", "D"], ["A", "B*", "C"], ["A", "B*", "C", "D"]],
    ["a hint added at the start by the other stays at the start", ["A"], ["A*"], ["Z", "A"], ["Z", "A*"]],
    ["the same hint added by both (a save repeated after a lost answer) is there once", ["A"], ["A", "C"], ["A", "C"], ["A", "C"]],
    ["equal hints are told apart by place", ["x", "x"], ["x", "x", "y"], ["x", "x*", "x"], ["x", "x*", "x", "y"]],
    ["from an empty list", [], ["Mine"], ["Theirs"], ["Theirs", "Mine"]],
    ["this tab clears the list, the other's new hint stays", ["A", "B"], [], ["A", "B", "C"], ["C"]],
  ];

  it.each(cases)("%s", (_what, base, mine, theirs, merged) => {
    expect(mergeHints(base, mine, theirs)).toEqual(merged);
  });

  it("with nothing changed on this side it is the server's list, whatever the other did", () => {
    const base = ["A", "B", "C"];
    for (const theirs of [[], ["C", "B", "A"], ["A", "X", "C", "Y"], ["B"], ["A", "B", "C", "A"]]) {
      expect(mergeHints(base, base, theirs)).toEqual(theirs);
    }
  });
});

describe("align", () => {
  it("pairs a hint gone from between two kept ones with the new one in its place as an edit; the rest are added or removed", () => {
    expect(align(["A", "B", "C"], ["A", "B2", "C"])).toEqual({ kept: ["A", "B2", "C"], added: [[], [], [], []] });
    expect(align(["A", "B", "C"], ["A", "B2", "X", "C", "D"])).toEqual({ kept: ["A", "B2", "C"], added: [[], [], ["X"], ["D"]] });
    expect(align(["A", "B", "C"], ["C"])).toEqual({ kept: [null, null, "C"], added: [[], [], [], []] });
  });
});
