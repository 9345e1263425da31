import { describe, expect, it } from "vitest";
import { compareNames, foldText, isAsciiHint } from "./text-fold";

describe("foldText", () => {
  it.each([
    ["ZÜRICH", "zürich"],
    ["Ünïcödé", "ünïcödé"],
    ["ÅLAND", "åland"],
    ["ΩMEGA", "ωmega"],
    ["РУССКИЙ", "русский"],
    ["ＡＢＣ全角", "abc全角"],
    ["山田太郎", "山田太郎"],
  ])("folds %s to %s", (text, folded) => {
    expect(foldText(text)).toBe(folded);
  });

  it("makes a non-ASCII hint match whatever the case on either side", () => {
    expect(foldText("Zürich Team").includes(foldText("ZÜRICH"))).toBe(true);
    expect(foldText("Ümlaut実名").includes(foldText("ümlaut実"))).toBe(true);
  });
});

describe("isAsciiHint", () => {
  it("tells hints SQLite folds itself from the others", () => {
    expect(isAsciiHint("alpha 12_%")).toBe(true);
    expect(isAsciiHint("")).toBe(true);
    expect(isAsciiHint("zürich")).toBe(false);
    expect(isAsciiHint("山田")).toBe(false);
    expect(isAsciiHint("ＡＢＣ")).toBe(false);
  });
});

describe("compareNames", () => {
  it("orders by letters, not by character code", () => {
    const names = ["Zürich", "abc", "ALPHA", "éclair", "Åland", "alpha", "Bravo", "zoe", "team 10", "team 9", "Éclair"];
    expect([...names].sort(compareNames)).toEqual(["abc", "Åland", "alpha", "ALPHA", "Bravo", "éclair", "Éclair", "team 9", "team 10", "zoe", "Zürich"]);
  });
});
