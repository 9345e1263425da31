/**
 * Colour helpers for the admin brand colour (rules.md §16): the primary palette is derived from one
 * hex colour, and text drawn on it must stay readable, so the text colour is chosen by luminance.
 */

export type Rgb = readonly [number, number, number];

/** The default brand colour (app.css `--brand`), used when the admin colour is empty or `brand`. */
export const DEFAULT_BRAND = "#4f6df5";
/** Text colours to choose from on a primary background. */
export const LIGHT_TEXT = "#ffffff";
export const DARK_TEXT = "#09090b";

const HEX = /^#([0-9a-f]{6})$/i;

/** `#rrggbb` → [r, g, b] (0–255), or null for anything else. */
export function parseHex(value: string): Rgb | null {
  const m = HEX.exec(value.trim());
  if (!m) return null;
  const n = Number.parseInt(m[1]!, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, "0")).join("")}`;
}

const linear = (c: number) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

/** WCAG relative luminance, 0 (black) … 1 (white). */
export function relativeLuminance(rgb: Rgb): number {
  return 0.2126 * linear(rgb[0]) + 0.7152 * linear(rgb[1]) + 0.0722 * linear(rgb[2]);
}

/** WCAG contrast ratio of two colours, 1 … 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Mixes `amount` (0–1) of `a` with the rest of `b`, in sRGB (close enough to choose a text colour). */
export function mix(a: Rgb, b: Rgb, amount: number): Rgb {
  return [0, 1, 2].map((i) => a[i]! * amount + b[i]! * (1 - amount)) as unknown as Rgb;
}

/** White or near-black, whichever reads better on `background`. */
export function readableTextOn(background: Rgb): string {
  const light = contrastRatio(background, parseHex(LIGHT_TEXT)!);
  const dark = contrastRatio(background, parseHex(DARK_TEXT)!);
  return light >= dark ? LIGHT_TEXT : DARK_TEXT;
}

/** The brand colour in effect for a stored `customTheme` ("#rrggbb", "brand" or ""). */
export function brandColour(customTheme: string | null | undefined): string {
  const rgb = customTheme ? parseHex(customTheme) : null;
  return rgb ? toHex(rgb) : DEFAULT_BRAND;
}

const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];

/**
 * A filled button in the brand colour on a light page of its own (the account mails), as the interface's
 * light-theme buttons draw it: primary-600 (85 % brand + black, app.css) and the text that reads on it
 * (`--on-primary-600`). The default colour then gets white text, as the interface's buttons do.
 */
export function brandButtonColours(customTheme: string | null | undefined): { background: string; text: string } {
  const shade = mix(parseHex(brandColour(customTheme))!, BLACK, 0.85);
  return { background: toHex(shade), text: readableTextOn(shade) };
}

/** WCAG 1.4.11: the parts of a graphic (an icon's strokes) need 3:1 against what they are drawn on. */
export const GRAPHIC_CONTRAST = 3;

/** White for an icon's strokes on `background` where it reaches GRAPHIC_CONTRAST, else near-black. */
export function iconStrokeOn(background: Rgb): string {
  return contrastRatio(background, WHITE) >= GRAPHIC_CONTRAST ? LIGHT_TEXT : DARK_TEXT;
}

/**
 * CSS variables for <html> when an admin colour is set: the brand colour and the text colours for the
 * two filled shades the interface uses (primary-600 in the light theme, primary-500 in the dark one),
 * matching app.css (`primary-600` = 85 % brand + black). Null when the default palette applies.
 */
export function brandCssVariables(customTheme: string | null | undefined): Record<string, string> | null {
  const rgb = customTheme ? parseHex(customTheme) : null;
  if (!rgb) return null;
  return {
    "--brand": toHex(rgb),
    "--on-primary-500": readableTextOn(rgb),
    "--on-primary-600": readableTextOn(mix(rgb, BLACK, 0.85)),
    ...readableTextShades(rgb),
  };
}

/** WCAG AA for body text, with a little room for the oklab/sRGB difference of app.css's color-mix. */
export const TEXT_CONTRAST = 4.6;
/** The darkest page background in dark mode (zinc-900) and the tinted light background (primary-100). */
const DARK_SURFACE: Rgb = [0x18, 0x18, 0x1b];

/**
 * Primary text shades that stay readable (rules.md §16): links and labels use primary-700 on light
 * backgrounds and primary-300 on dark ones. A very light brand (gold) makes primary-700 too pale, a very
 * dark one (navy) makes primary-300 too dark; those shades are then replaced by the nearest mix that
 * reaches TEXT_CONTRAST. Nothing is returned when the app.css shades already read well.
 */
export function readableTextShades(rgb: Rgb): Record<string, string> {
  const out: Record<string, string> = {};
  const lightSurface = mix(rgb, WHITE, 0.18);
  const onLight = (amount: number) => mix(rgb, BLACK, amount);
  if (contrastRatio(onLight(0.7), lightSurface) < TEXT_CONTRAST || contrastRatio(onLight(0.7), WHITE) < TEXT_CONTRAST) {
    let amount = 0.7;
    while (amount > 0 && (contrastRatio(onLight(amount), lightSurface) < TEXT_CONTRAST || contrastRatio(onLight(amount), WHITE) < TEXT_CONTRAST)) amount -= 0.02;
    out["--brand-700"] = toHex(onLight(Math.max(0, amount)));
    out["--brand-800"] = toHex(onLight(Math.max(0, amount - 0.1)));
  }
  const onDark = (amount: number) => mix(rgb, WHITE, amount);
  if (contrastRatio(onDark(0.55), DARK_SURFACE) < TEXT_CONTRAST) {
    let amount = 0.55;
    while (amount > 0 && contrastRatio(onDark(amount), DARK_SURFACE) < TEXT_CONTRAST) amount -= 0.02;
    out["--brand-300"] = toHex(onDark(Math.max(0, amount)));
    out["--brand-200"] = toHex(onDark(Math.max(0, amount - 0.15)));
  }
  return out;
}

/** A palette preview (shade → approximate hex) for the settings page, following app.css. */
export function paletteFor(colour: string): { shade: number; hex: string }[] {
  const rgb = parseHex(colour) ?? parseHex(DEFAULT_BRAND)!;
  const steps: [number, Rgb, number][] = [
    [50, WHITE, 0.08],
    [100, WHITE, 0.18],
    [200, WHITE, 0.35],
    [300, WHITE, 0.55],
    [400, WHITE, 0.78],
    [500, WHITE, 1],
    [600, BLACK, 0.85],
    [700, BLACK, 0.7],
    [800, BLACK, 0.55],
    [900, BLACK, 0.4],
    [950, BLACK, 0.25],
  ];
  return steps.map(([shade, other, amount]) => ({ shade, hex: toHex(mix(rgb, other, amount)) }));
}
