import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";

/**
 * Says the new page's title to screen readers after a client-side navigation. A full page load is
 * announced by the browser; a router navigation changes the page silently, and the focus stays on the
 * link that was pressed (or falls to the page when that link is gone).
 */
export function RouteAnnouncer() {
  const { pathname } = useLocation();
  const [message, setMessage] = useState("");
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // The title is the new route's meta, in the same commit as the new page; read it just after.
    const timer = setTimeout(() => setMessage(document.title), 100);
    return () => clearTimeout(timer);
  }, [pathname]);
  return (
    <p aria-live="polite" aria-atomic="true" className="sr-only" data-testid="route-announcer">
      {message}
    </p>
  );
}
