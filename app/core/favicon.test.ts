import { describe, expect, it } from "vitest";
import { contrastRatio, DEFAULT_BRAND, GRAPHIC_CONTRAST, parseHex } from "./colour";
import { computeDefaultFavicon } from "./favicon";
import { DEFAULT_FAVICON } from "./favicon-svg";

/** The square's fill and the flag's stroke of a favicon data URI. */
function coloursOf(uri: string): { fill: string; stroke: string } {
  expect(uri.startsWith("data:image/svg+xml,")).toBe(true);
  const svg = decodeURIComponent(uri.slice("data:image/svg+xml,".length));
  return { fill: /<rect [^>]*fill="([^"]+)"/.exec(svg)![1]!, stroke: /<path [^>]*stroke="([^"]+)"/.exec(svg)![1]! };
}

describe("computeDefaultFavicon", () => {
  it.each([
    ["", DEFAULT_BRAND],
    ["brand", DEFAULT_BRAND],
    ["#e11d48", "#e11d48"],
    ["#12AB3C", "#12ab3c"],
  ])("fills the square with the brand colour in effect (%j → %s)", (customTheme, fill) => {
    expect(coloursOf(computeDefaultFavicon(customTheme)).fill).toBe(fill);
  });

  it("keeps the default favicon's white flag on the default colour", () => {
    expect(coloursOf(computeDefaultFavicon("")).stroke).toBe("#ffffff");
  });

  it.each(["#ffd400", "#f5f5f4", "#4f6df5", "#1e3a8a", "#000000", "#e11d48", "#84cc16"])("draws the flag readable on %s (3:1 at least)", (colour) => {
    const { fill, stroke } = coloursOf(computeDefaultFavicon(colour));
    expect(contrastRatio(parseHex(fill)!, parseHex(stroke)!)).toBeGreaterThanOrEqual(GRAPHIC_CONTRAST);
  });

  it("a light colour gets a dark flag", () => {
    expect(coloursOf(computeDefaultFavicon("#ffd400")).stroke).toBe("#09090b");
  });

  it("draws the default colour's favicon as the browser's constant for a page without the root's data", () => {
    expect(DEFAULT_FAVICON).toBe(computeDefaultFavicon(""));
  });
});
