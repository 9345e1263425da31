/**
 * One route's code as React Router's browser manifest (`window.__reactRouterManifest.routes`) names it: the
 * route module, the chunks it imports (all of them, not only the direct ones) and, when a route is split, its
 * separately built exports.
 */
export interface ManifestRouteCode {
  module: string;
  imports?: readonly string[];
  clientActionModule?: string;
  clientLoaderModule?: string;
  clientMiddlewareModule?: string;
  hydrateFallbackModule?: string;
}

/**
 * The script files of these routes not yet in `done`, each once, in the manifest's order. With them in the
 * browser, following a link to one of these routes needs only its data: React Router reloads the whole
 * document when a route's module cannot be imported, and offline that reload ends on the browser's own
 * error page instead of the app's offline screen.
 */
export function routeCodeToPreload(routes: Readonly<Record<string, ManifestRouteCode | undefined>>, done: ReadonlySet<string>): string[] {
  const hrefs = new Set<string>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const files = [
      route.module,
      ...(route.imports ?? []),
      route.clientActionModule,
      route.clientLoaderModule,
      route.clientMiddlewareModule,
      route.hydrateFallbackModule,
    ];
    for (const href of files) if (href && href.endsWith(".js") && !done.has(href)) hrefs.add(href);
  }
  return [...hrefs];
}
