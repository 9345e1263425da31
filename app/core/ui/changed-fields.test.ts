import { describe, expect, it } from "vitest";
import { changedFields } from "./changed-fields";

describe("changedFields", () => {
  const loaded = { title: "A", summary: "s", tags: ["x", "y"], divisions: [{ id: 1, name: "Students" }], limit: 0, pinned: false };

  it("keeps only what differs from the loaded values", () => {
    expect(changedFields(loaded, { ...loaded, summary: "new" })).toEqual({ summary: "new" });
    expect(changedFields(loaded, { ...loaded, limit: 3, pinned: true })).toEqual({ limit: 3, pinned: true });
  });

  it("compares lists and objects by content", () => {
    expect(changedFields(loaded, { ...loaded, tags: ["x", "y"], divisions: [{ id: 1, name: "Students" }] })).toEqual({});
    expect(changedFields(loaded, { ...loaded, tags: ["y", "x"] })).toEqual({ tags: ["y", "x"] });
    const divisions = [...loaded.divisions, { id: 0, name: "Open" }];
    expect(changedFields(loaded, { ...loaded, divisions })).toEqual({ divisions });
  });

  it("sends nothing when nothing changed", () => {
    expect(changedFields(loaded, { ...loaded })).toEqual({});
  });
});
