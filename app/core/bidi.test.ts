import { describe, expect, it } from "vitest";
import { hasBidiControl, withoutBidiControls } from "./bidi";

describe("text-direction controls", () => {
  it("finds overrides, embeddings and isolates, not the implicit marks or right-to-left letters", () => {
    for (const c of ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]) expect(hasBidiControl(`a${c}b`)).toBe(true);
    for (const text of ["plain", "\u200eltr mark", "\u200frtl mark", "שלום", "مرحبا", "チーム"]) expect(hasBidiControl(text)).toBe(false);
  });

  it("takes them out of a value and leaves the rest as it was", () => {
    expect(withoutBidiControls("\u202eniw su")).toBe("niw su");
    expect(withoutBidiControls("a\u2067b\u2069c\u202e\u202ed")).toBe("abcd");
    expect(withoutBidiControls("שלום \u200f!")).toBe("שלום \u200f!");
  });
});
