import { brandColour, iconStrokeOn, parseHex } from "./colour";
import { faviconSvg } from "./favicon-svg";

/**
 * The default favicon, used while no logo is set (the logo is the favicon then): the flag on a rounded
 * square of the brand colour in effect (the admin's colour, else the default one), as an inline SVG, so
 * browsers do not ask the server for /favicon.ico. The flag is white where that keeps 3:1 on the colour,
 * near-black on a light one. Server-side (the root's loader); a page without the root's data uses
 * DEFAULT_FAVICON (app/core/favicon-svg.ts).
 */
export function computeDefaultFavicon(customTheme: string | null | undefined): string {
  const fill = brandColour(customTheme);
  return faviconSvg(fill, iconStrokeOn(parseHex(fill)!));
}
