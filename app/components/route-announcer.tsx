import { useEffect, useEffectEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";

/**
 * Says the new page's title to screen readers after a client-side navigation. A full page load is
 * announced by the browser; a router navigation changes the page silently, and the focus stays on the
 * link that was pressed (or falls to the page when that link is gone). A language switch clears what it
 * said: the title in the old language stayed in the page, read out in the new one's voice.
 */
export function RouteAnnouncer() {
  const { pathname } = useLocation();
  const { i18n } = useTranslation();
  const language = i18n.language;
  // What was said, and in which language: a title said in another language is not kept.
  const [said, setSaid] = useState<{ title: string; language: string } | null>(null);
  const announce = useEffectEvent(() => setSaid({ title: document.title, language }));
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // The title is the new route's meta, in the same commit as the new page; read it just after.
    const timer = setTimeout(announce, 100);
    return () => clearTimeout(timer);
  }, [pathname]);
  return (
    <p aria-live="polite" aria-atomic="true" className="sr-only" data-testid="route-announcer">
      {said?.language === language ? said.title : ""}
    </p>
  );
}
