import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigation } from "react-router";

/** A page that arrives sooner shows no bar: it would only flicker. */
const SHOW_AFTER_MS = 200;

/**
 * A thin bar across the top of the window while the next page is on its way (its code or data): on a slow
 * connection the old page otherwise stayed as it was for seconds after a click, as if nothing happened.
 * Form submissions are left out, their buttons say they are busy. With reduced motion the bar stands still.
 */
export function NavigationProgress() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const loadingPage = navigation.state === "loading" && (!navigation.formMethod || navigation.formMethod.toUpperCase() === "GET");
  const pendingKey = loadingPage ? navigation.location.key : undefined;
  const [delayedKey, setDelayedKey] = useState<string>();
  useEffect(() => {
    if (pendingKey === undefined) return;
    const timer = setTimeout(() => setDelayedKey(pendingKey), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [pendingKey]);
  if (pendingKey === undefined || delayedKey !== pendingKey) return null;
  return (
    <div
      role="progressbar"
      aria-label={t("nav.loadingPage")}
      className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden bg-primary-100 dark:bg-primary-950"
    >
      <div className="h-full w-1/3 bg-primary-500 motion-safe:animate-page-progress motion-reduce:w-full" />
    </div>
  );
}
