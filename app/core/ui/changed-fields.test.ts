import { describe, expect, it } from "vitest";
import { changedFields, changedFromOriginals, originalFieldName } from "./changed-fields";

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

describe("changedFromOriginals", () => {
  const body = { userName: "ada", realName: "Ada", phone: "555-0100", bio: "" };

  it("leaves out every field still at the value the form was drawn with", () => {
    // The tab changed the phone; the real name it shows is the one it was drawn with (an admin's newer one stays).
    expect(changedFromOriginals(body, { userName: "ada", realName: "Ada", phone: "", bio: "" })).toEqual({ phone: "555-0100" });
    expect(changedFromOriginals(body, { ...body })).toEqual({});
  });

  it("writes a field cleared or changed by the user", () => {
    expect(changedFromOriginals(body, { ...body, realName: "Ada L.", bio: "hi" })).toEqual({ realName: "Ada", bio: "" });
  });

  it("writes a field with no original, as before: an older page or a hand-made post", () => {
    expect(changedFromOriginals(body, {})).toEqual(body);
    expect(changedFromOriginals(body, { userName: "ada", realName: "Ada" })).toEqual({ phone: "555-0100", bio: "" });
  });

  it("names the hidden inputs after their fields", () => {
    expect(originalFieldName("stdNumber")).toBe("original.stdNumber");
  });
});
