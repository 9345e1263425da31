import { pagePath } from "./account";

/**
 * Whether a history entry React Router is about to push is its redirect to the login page for the page the
 * address bar already shows: the Back button went to a private page after signing out (the browser moves
 * to the entry before the router loads it), or the page on screen was read again after its session ended.
 * A link followed from another page is not one: the address bar still shows the page it was followed from.
 */
export function isLoginRedirectOfShownPage(pushed: URL, shown: URL, state: unknown): boolean {
  const usr = typeof state === "object" && state !== null ? (state as { usr?: unknown }).usr : undefined;
  if (typeof usr !== "object" || usr === null || (usr as { _isRedirect?: unknown })._isRedirect !== true) return false;
  if (pushed.origin !== shown.origin || pushed.pathname.toLowerCase() !== "/account/login") return false;
  return pushed.searchParams.get("from") === pagePath(shown);
}

/**
 * Makes such a redirect replace the shown page's entry instead of adding one after it. Pushed, it dropped
 * every entry after the private page, and each Back went to that page and was sent to the login page again:
 * the history behind it could not be reached. A loader cannot ask for this itself — it does not know
 * whether its navigation came from the Back button — so it is decided where the entry is written.
 */
export function replaceLoginRedirectsOfShownPage(win: Window): void {
  const history = win.history;
  const push = history.pushState.bind(history);
  history.pushState = (state: unknown, unused: string, url?: string | URL | null) => {
    if (url != null && isLoginRedirectOfShownPage(new URL(url, win.location.href), new URL(win.location.href), state)) {
      // The entry keeps the number of the one it replaces, so the router's entry numbers stay in sequence.
      const idx = (history.state as { idx?: unknown } | null)?.idx;
      history.replaceState(typeof idx === "number" ? { ...(state as object), idx } : state, unused, url);
      return;
    }
    push(state, unused, url);
  };
}
