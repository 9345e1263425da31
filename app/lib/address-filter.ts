import { useCallback, useEffect, useState } from "react";
import { useSearchParams } from "react-router";

/** `params` with `changes` set (or, when empty, dropped); any change but the page's goes back to page 1. */
export function applyFilterChanges(params: URLSearchParams, changes: Record<string, string>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value === "" || (key === "page" && value === "1")) next.delete(key);
    else next.set(key, value);
  }
  if (!("page" in changes)) next.delete("page");
  return next;
}

/**
 * The filter and page of a table filtered and paged in the browser (`?status=…&q=…&page=2`), kept in the
 * address so that a reload or a copied link shows the same rows. React state holds it, so quick changes
 * build on each other; the address follows with `history.replaceState`, which runs no loader (a router
 * navigation per keystroke would re-run the layouts' loaders). A navigation of the router to other
 * parameters (a link, back and forward) replaces the filter.
 */
export function useAddressFilter(): [URLSearchParams, (changes: Record<string, string>) => void] {
  const [routed] = useSearchParams();
  const routedSearch = routed.toString();
  const [state, setState] = useState(() => ({ routedSearch, params: new URLSearchParams(routed) }));
  let params = state.params;
  if (state.routedSearch !== routedSearch) {
    params = new URLSearchParams(routed);
    setState({ routedSearch, params });
  }

  useEffect(() => {
    const url = new URL(window.location.href);
    const search = params.toString();
    if (url.search.replace(/^\?/, "") === search) return;
    url.search = search;
    window.history.replaceState(window.history.state, "", url);
  }, [params]);

  const setFilter = useCallback((changes: Record<string, string>) => {
    setState((prev) => ({ ...prev, params: applyFilterChanges(prev.params, changes) }));
  }, []);
  return [params, setFilter];
}

/**
 * Whether a navigation changes nothing but the query parameter `name` (e.g. `?challenge=12`, the open
 * challenge): such a step of the history needs no loader run (routes return it from `shouldRevalidate`).
 */
export function onlyParamChanged(current: URL, next: URL, name: string): boolean {
  if (current.pathname !== next.pathname || current.searchParams.get(name) === next.searchParams.get(name)) return false;
  const rest = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete(name);
    params.sort();
    return params.toString();
  };
  return rest(current) === rest(next);
}
