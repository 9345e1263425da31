import { describe, expect, it } from "vitest";
import { sameValues } from "./same-values";

describe("sameValues", () => {
  it.each([
    ["equal strings", "a", "a", true],
    ["different strings", "a", "b", false],
    ["equal numbers", 3, 3, true],
    ["a number and its text", 3, "3", false],
    ["NaN and NaN", Number.NaN, Number.NaN, true],
    ["true and false", true, false, false],
    ["null and null", null, null, true],
    ["null and undefined", null, undefined, false],
    ["null and empty text", null, "", false],
    ["undefined and empty text", undefined, "", false],
    ["0 and empty text", 0, "", false],
    ["0 and false", 0, false, false],
  ])("%s", (_, a, b, same) => {
    expect(sameValues(a, b)).toBe(same);
    expect(sameValues(b, a)).toBe(same);
  });

  it("compares plain objects by content, in any key order", () => {
    expect(sameValues({ title: "A", limit: 0 }, { limit: 0, title: "A" })).toBe(true);
    expect(sameValues({ title: "A", limit: 0 }, { title: "A", limit: 1 })).toBe(false);
    expect(sameValues({ title: "A" }, { title: "A", limit: 0 })).toBe(false);
    expect(sameValues({ bio: null }, { bio: "" })).toBe(false);
    expect(sameValues({ bio: null }, {})).toBe(false);
  });

  it("counts a property set to undefined as absent, as JSON sends it", () => {
    expect(sameValues({ title: "A", role: undefined }, { title: "A" })).toBe(true);
    expect(sameValues({ title: "A" }, { title: "A", role: undefined })).toBe(true);
    expect(sameValues({ role: undefined }, { role: null })).toBe(false);
  });

  it("compares lists item by item, in order", () => {
    expect(sameValues(["x", "y"], ["x", "y"])).toBe(true);
    expect(sameValues(["x", "y"], ["y", "x"])).toBe(false);
    expect(sameValues(["x"], ["x", "y"])).toBe(false);
    expect(sameValues([], [])).toBe(true);
    expect(sameValues([], {})).toBe(false);
    expect(sameValues({ 0: "x", length: 1 }, ["x"])).toBe(false);
  });

  it("compares nested objects and lists", () => {
    const divisions = [{ id: 1, name: "Students", challengeConfigs: [{ challengeId: 2, permissions: 5 }] }];
    const body = { title: "A", divisions, tags: ["x"] };
    expect(sameValues(body, structuredClone(body))).toBe(true);
    const moved = structuredClone(body);
    moved.divisions[0]!.challengeConfigs[0]!.permissions = 7;
    expect(sameValues(body, moved)).toBe(false);
    expect(sameValues({ divisions: [{ id: null }] }, { divisions: [{ id: 0 }] })).toBe(false);
  });

  it("compares anything but plain objects and lists by identity", () => {
    const date = new Date(0);
    expect(sameValues(date, date)).toBe(true);
    expect(sameValues(new Date(0), new Date(0))).toBe(false);
    expect(sameValues(new Date(0), {})).toBe(false);
  });
});
