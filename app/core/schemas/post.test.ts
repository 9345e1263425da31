import { describe, expect, it } from "vitest";
import { postUpdateSchema } from "./post";

describe("post update", () => {
  it("leaves a null title unchanged (api.md §1 partial updates) but refuses an empty one", () => {
    expect(postUpdateSchema.parse({ title: null, isPinned: true })).toEqual({ title: null, isPinned: true });
    expect(postUpdateSchema.safeParse({ title: "  " }).success).toBe(false);
  });
});
