/**
 * The default favicon's drawing (app/core/favicon.ts chooses its colours): the flag on a rounded square, as
 * an inline SVG, so browsers do not ask the server for /favicon.ico. No imports: the browser's root module
 * takes DEFAULT_FAVICON from here, and anything it imports lands in the shell chunk every page loads
 * (app/shell-chunk.vite.ts) — the colour maths of app/core/colour.ts stays out of it.
 */
export function faviconSvg(fill: string, stroke: string): string {
  return (
    "data:image/svg+xml," +
    encodeURIComponent(
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="${fill}"/><path d="M10 6v20M10 7h12l-3 5 3 5H10" stroke="${stroke}" stroke-width="2.5" fill="none" stroke-linejoin="round"/></svg>`,
    )
  );
}

/**
 * The default favicon in the default colour (DEFAULT_BRAND, white flag), as computeDefaultFavicon("") draws
 * it (a unit test holds them equal), for a page without the root's data (the error screen).
 */
export const DEFAULT_FAVICON = faviconSvg("#4f6df5", "#ffffff");
