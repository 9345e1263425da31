import { describe, expect, it } from "vitest";
import {
  brandButtonColours,
  brandColour,
  brandCssVariables,
  contrastRatio,
  DARK_TEXT,
  DEFAULT_BRAND,
  LIGHT_TEXT,
  mix,
  paletteFor,
  parseHex,
  readableTextOn,
  readableTextShades,
  relativeLuminance,
  toHex,
} from "./colour";

describe("parseHex / toHex", () => {
  it("parses 7-character hex in any case", () => {
    expect(parseHex("#ff8000")).toEqual([255, 128, 0]);
    expect(parseHex("#FF8000")).toEqual([255, 128, 0]);
    expect(toHex([255, 128, 0])).toBe("#ff8000");
  });
  it("rejects anything else", () => {
    for (const bad of ["", "brand", "#fff", "ff8000", "#ff80000", "#gg0000", "red"]) expect(parseHex(bad)).toBeNull();
  });
  it("clamps and rounds when formatting", () => {
    expect(toHex([300, -5, 127.6])).toBe("#ff0080");
  });
});

describe("luminance and contrast", () => {
  it("matches the WCAG reference values", () => {
    expect(relativeLuminance([0, 0, 0])).toBe(0);
    expect(relativeLuminance([255, 255, 255])).toBeCloseTo(1, 5);
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([119, 119, 119], [255, 255, 255])).toBeCloseTo(4.48, 2);
  });
});

describe("readableTextOn", () => {
  it("chooses white on dark colours and near-black on light ones", () => {
    expect(readableTextOn([0, 0, 128])).toBe(LIGHT_TEXT);
    expect(readableTextOn([180, 20, 20])).toBe(LIGHT_TEXT);
    expect(readableTextOn([255, 230, 0])).toBe(DARK_TEXT);
    expect(readableTextOn([0, 255, 200])).toBe(DARK_TEXT);
  });
  it("picks the better of the two, which is never below 4.4:1 (the mid-grey worst case)", () => {
    const light = parseHex(LIGHT_TEXT)!;
    const dark = parseHex(DARK_TEXT)!;
    for (let v = 0; v <= 255; v += 5) {
      for (const bg of [[v, v, v], [v, 0, 0], [0, v, 0], [0, 0, v], [v, v, 0]] as const) {
        const chosen = parseHex(readableTextOn(bg))!;
        const best = Math.max(contrastRatio(bg, light), contrastRatio(bg, dark));
        expect(contrastRatio(bg, chosen)).toBe(best);
        expect(best).toBeGreaterThanOrEqual(4.4);
      }
    }
  });
});

describe("brand colour", () => {
  it("uses the admin hex colour, else the default", () => {
    expect(brandColour("#123456")).toBe("#123456");
    expect(brandColour("brand")).toBe(DEFAULT_BRAND);
    expect(brandColour("")).toBe(DEFAULT_BRAND);
    expect(brandColour(null)).toBe(DEFAULT_BRAND);
  });

  it("gives CSS variables only for a hex colour", () => {
    expect(brandCssVariables("")).toBeNull();
    expect(brandCssVariables("brand")).toBeNull();
    expect(brandCssVariables("#FFEE00")).toMatchObject({
      "--brand": "#ffee00",
      "--on-primary-500": DARK_TEXT,
      "--on-primary-600": DARK_TEXT,
    });
    expect(brandCssVariables("#1e3a8a")).toMatchObject({
      "--brand": "#1e3a8a",
      "--on-primary-500": LIGHT_TEXT,
      "--on-primary-600": LIGHT_TEXT,
    });
  });

  it("builds an 11-step palette around the colour", () => {
    const palette = paletteFor("#ff0000");
    expect(palette.map((p) => p.shade)).toEqual([50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950]);
    expect(palette.find((p) => p.shade === 500)!.hex).toBe("#ff0000");
    expect(palette.find((p) => p.shade === 600)!.hex).toBe(toHex(mix([255, 0, 0], [0, 0, 0], 0.85)));
    expect(relativeLuminance(parseHex(palette[0]!.hex)!)).toBeGreaterThan(relativeLuminance(parseHex(palette[10]!.hex)!));
  });
});

describe("readableTextShades", () => {
  const white = parseHex("#ffffff")!;
  const zinc900 = parseHex("#18181b")!;

  it("leaves a mid brand colour to app.css", () => {
    expect(readableTextShades(parseHex(DEFAULT_BRAND)!)).toEqual({});
  });

  it.each(["#ffd700", "#ffee00", "#e0ffe0", "#00ffff"])("darkens primary-700 for the light colour %s until it reads on white", (colour) => {
    const shades = readableTextShades(parseHex(colour)!);
    expect(contrastRatio(parseHex(shades["--brand-700"]!)!, white)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(["#000033", "#300000"])("lightens primary-300 for the dark colour %s until it reads on zinc-900", (colour) => {
    const shades = readableTextShades(parseHex(colour)!);
    expect(contrastRatio(parseHex(shades["--brand-300"]!)!, zinc900)).toBeGreaterThanOrEqual(4.5);
  });
});

describe("brandButtonColours", () => {
  it.each([
    ["", DEFAULT_BRAND],
    ["brand", DEFAULT_BRAND],
    ["#e11d48", "#e11d48"],
    ["#FFD400", "#ffd400"],
  ])("fills with the light theme's button shade of the brand colour in effect (%j → %s)", (customTheme, brand) => {
    // primary-600 in app.css: 85 % brand + black.
    expect(brandButtonColours(customTheme).background).toBe(toHex(mix(parseHex(brand)!, [0, 0, 0], 0.85)));
  });

  it("gives the default colour's button white text, as the interface's buttons", () => {
    expect(brandButtonColours("").text).toBe(LIGHT_TEXT);
  });

  it.each(["#ffd400", "#f5f5f4", "#4f6df5", "#1e3a8a", "#e11d48", "#84cc16", "#000000", "#ffffff"])("writes on %s in the text colour that reads better", (colour) => {
    const { background, text } = brandButtonColours(colour);
    expect(text).toBe(readableTextOn(parseHex(background)!));
    expect(contrastRatio(parseHex(background)!, parseHex(text)!)).toBeGreaterThanOrEqual(4.5);
  });
});
