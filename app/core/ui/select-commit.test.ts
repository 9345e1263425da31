import { describe, expect, it } from "vitest";
import { computeSelectChange, computeSelectCommit, computeSelectKey, type HeldChoice } from "./select-commit";

const key = (k: string, mods: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {}) =>
  computeSelectKey({ key: k, altKey: false, ctrlKey: false, metaKey: false, ...mods });

describe("computeSelectKey", () => {
  it.each([
    ["Enter", "commit"],
    [" ", "list"],
    ["F4", "list"],
    ["ArrowDown", "step"],
    ["ArrowUp", "step"],
    ["ArrowLeft", "step"],
    ["ArrowRight", "step"],
    ["Home", "step"],
    ["End", "step"],
    ["PageUp", "step"],
    ["PageDown", "step"],
    ["b", "step"],
    ["紅", "step"],
    ["Tab", "none"],
    ["Escape", "none"],
    ["Shift", "none"],
  ])("%j → %s", (k, meaning) => {
    expect(key(k)).toBe(meaning);
  });

  it("Alt+arrow opens the list; other modified keys are not steps", () => {
    expect(key("ArrowDown", { altKey: true })).toBe("list");
    expect(key("ArrowUp", { altKey: true })).toBe("list");
    expect(key("c", { ctrlKey: true })).toBe("none");
    expect(key("ArrowDown", { metaKey: true })).toBe("none");
  });
});

describe("a select stepped through with the keys saves once, when committed", () => {
  /** The select as the user goes: what it saves, with each change stepping or not. */
  function select(saved: number) {
    let held: HeldChoice<number> | null = null;
    const saves: number[] = [];
    return {
      saves,
      change(value: number, stepping: boolean) {
        const outcome = computeSelectChange(stepping, value, saved);
        if (outcome === null) held = null;
        else if ("hold" in outcome) held = outcome.hold;
        else {
          held = null;
          saves.push(outcome.save);
          saved = outcome.save;
        }
      },
      commit() {
        const value = computeSelectCommit(held, saved);
        held = null;
        if (value !== null) {
          saves.push(value);
          saved = value;
        }
      },
      savedElsewhere(value: number) {
        saved = value;
      },
    };
  }

  it("two steps down then leaving saves the last value only", () => {
    const s = select(1);
    s.change(2, true);
    s.change(3, true);
    expect(s.saves).toEqual([]);
    s.commit();
    expect(s.saves).toEqual([3]);
    s.commit();
    expect(s.saves).toEqual([3]);
  });

  it("a choice made with the pointer (or from the opened list) saves at once", () => {
    const s = select(1);
    s.change(3, false);
    expect(s.saves).toEqual([3]);
    s.change(3, false);
    expect(s.saves).toEqual([3]);
  });

  it("stepping back to the saved value saves nothing", () => {
    const s = select(1);
    s.change(2, true);
    s.change(1, true);
    s.commit();
    expect(s.saves).toEqual([]);
  });

  it("a held value is dropped when the saved one changed meanwhile (another admin's save)", () => {
    const s = select(1);
    s.change(2, true);
    s.savedElsewhere(3);
    s.commit();
    expect(s.saves).toEqual([]);
  });
});
