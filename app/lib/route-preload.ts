import { type ManifestRouteCode, routeCodeToPreload } from "~/core/ui/route-code";

/** What this module reads of React Router's globals in the browser (set by HydratedRouter). */
interface RouterGlobals {
  __reactRouterManifest?: { routes: Record<string, ManifestRouteCode | undefined> };
  __reactRouterDataRouter?: { subscribe(listener: () => void): () => void };
}

/** How long the browser may wait for an idle moment before the preloads are asked for anyway. */
const IDLE_TIMEOUT_MS = 3000;

let installed = false;

/**
 * Asks the browser, at low priority and when it is idle, for the code of every route the router knows: the
 * page's own routes and those of the links it shows (React Router learns them from `/__manifest` as links
 * appear, so this runs again after each change of the router's state). A route whose code is in the
 * browser fails offline with the app's own offline screen, which comes back by itself; one whose code
 * cannot be fetched makes React Router reload the document, and offline the tab then shows the browser's
 * error page and loses what was typed. Modulepreload only fetches and compiles: nothing runs until used.
 * Called once the page has hydrated (the router exists then); later calls do nothing.
 */
export function preloadRouteCode(win: Window & RouterGlobals): void {
  if (installed) return;
  installed = true;
  if ((win.navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true) return;
  const doc = win.document;
  const done = new Set<string>();
  for (const el of doc.querySelectorAll<HTMLLinkElement | HTMLScriptElement>('link[rel="modulepreload"][href], script[type="module"][src]')) {
    done.add(el.getAttribute("href") ?? el.getAttribute("src") ?? "");
  }
  let scheduled = false;
  let subscribed = false;
  const idle = (run: () => void) =>
    typeof win.requestIdleCallback === "function" ? win.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS }) : win.setTimeout(run, 1000);

  function run() {
    scheduled = false;
    const routes = win.__reactRouterManifest?.routes;
    if (routes) {
      for (const href of routeCodeToPreload(routes, done)) {
        done.add(href);
        const link = doc.createElement("link");
        link.rel = "modulepreload";
        link.href = href;
        link.fetchPriority = "low";
        doc.head.appendChild(link);
      }
    }
    if (!subscribed && win.__reactRouterDataRouter) {
      subscribed = true;
      win.__reactRouterDataRouter.subscribe(schedule);
    }
  }
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    idle(run);
  }
  schedule();
}
