import { brandColour, iconStrokeOn, parseHex } from "./colour";

/**
 * The default favicon, used while no logo is set (the logo is the favicon then): the flag on a rounded
 * square of the brand colour in effect (the admin's colour, else the default one), as an inline SVG, so
 * browsers do not ask the server for /favicon.ico. The flag is white where that keeps 3:1 on the colour,
 * near-black on a light one.
 */
export function computeDefaultFavicon(customTheme: string | null | undefined): string {
  const fill = brandColour(customTheme);
  const stroke = iconStrokeOn(parseHex(fill)!);
  return (
    "data:image/svg+xml," +
    encodeURIComponent(
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="${fill}"/><path d="M10 6v20M10 7h12l-3 5 3 5H10" stroke="${stroke}" stroke-width="2.5" fill="none" stroke-linejoin="round"/></svg>`,
    )
  );
}
