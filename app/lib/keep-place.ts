import { type RefObject, useCallback, useLayoutEffect, useRef } from "react";

/**
 * The first element in the page's flow after `el` (fixed and absolute ones skipped), or null. Its top, not
 * the region's bottom, is what follows the region: an empty region's margin collapses with its neighbour's,
 * so a first notice moves what follows by more than the region's own height.
 */
function following(el: Element): Element | null {
  for (let at: Element | null = el; at && at !== document.body; at = at.parentElement) {
    for (let next = at.nextElementSibling; next; next = next.nextElementSibling) {
      const { position, display } = getComputedStyle(next);
      if (position !== "fixed" && position !== "absolute" && display !== "none") return next;
    }
  }
  return null;
}

/**
 * Keeps what the reader sees where it is when a region of the page grows or shrinks by itself above it (a
 * live notice arriving or going). Chrome anchors the scroll position itself; Safari does not, so on a phone
 * scrolled down the text being read jumped by each notice's height.
 *
 * `region` goes on the element that changes. `mark()` is called right before the change and tells whether
 * the region starts above the visible part of the page; then it notes an anchor: the first of the region's
 * `items` still in sight, else what follows the region. After the next commit the page scrolls by what the
 * anchor moved in the viewport (what follows the region when that item went), so a browser that anchored
 * already (it moved by 0) is not scrolled twice. A region that starts in sight is left alone: the reader
 * sees it change. A change the reader made (dismissing a notice, reading older ones) is not marked.
 */
export function useKeepPlace<T extends HTMLElement>(items: string): { region: RefObject<T | null>; mark: () => boolean } {
  const region = useRef<T>(null);
  const anchor = useRef<{ el: Element; edge: "top" | "bottom"; at: number }[] | null>(null);
  const mark = useCallback(() => {
    const root = region.current;
    if (!root) return false;
    const box = root.getBoundingClientRect();
    if (box.top >= 0) return false;
    // Several changes before one commit: the first mark holds (it was taken before any of them).
    if (anchor.current) return true;
    const inSight = box.bottom > 0 ? Array.from(root.querySelectorAll(items)).find((el) => el.getBoundingClientRect().bottom > 0) : undefined;
    const next = following(root);
    const end = next ? ({ el: next, edge: "top", at: next.getBoundingClientRect().top } as const) : ({ el: root, edge: "bottom", at: box.bottom } as const);
    anchor.current = inSight ? [{ el: inSight, edge: "top", at: inSight.getBoundingClientRect().top }, end] : [end];
    return true;
  }, [items]);
  useLayoutEffect(() => {
    const noted = anchor.current;
    if (!noted) return;
    anchor.current = null;
    // The item in sight went (deleted): what follows the region stays where it was.
    const kept = noted.find((a) => a.el.isConnected);
    if (!kept) return;
    const box = kept.el.getBoundingClientRect();
    const moved = (kept.edge === "top" ? box.top : box.bottom) - kept.at;
    if (moved !== 0) window.scrollBy({ top: moved, behavior: "instant" });
  });
  return { region, mark };
}
