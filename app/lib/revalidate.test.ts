import { describe, expect, it } from "vitest";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { changedNothing, keepAfterUnchanged, unchanged } from "./revalidate";

const args = (actionResult: unknown, defaultShouldRevalidate = true) => ({ actionResult, defaultShouldRevalidate }) as ShouldRevalidateFunctionArgs;

describe("reading loaders again after a form's action", () => {
  it("skips the read after an action that changed nothing, and keeps the default otherwise", () => {
    expect(unchanged({ formError: "x" })).toEqual({ formError: "x", unchanged: true });
    expect(changedNothing(unchanged({}))).toBe(true);
    for (const other of [undefined, null, "text", { saved: true }, { unchanged: "yes" }]) expect(changedNothing(other)).toBe(false);
    expect(keepAfterUnchanged(args(unchanged({ error: "offline" })))).toBe(false);
    expect(keepAfterUnchanged(args({ saved: true }))).toBe(true);
    expect(keepAfterUnchanged(args({ saved: true }, false))).toBe(false);
  });
});
