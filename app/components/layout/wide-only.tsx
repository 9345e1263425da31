import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/**
 * Admin and monitor screens need room for tables: below `minWidth` (a breakpoint of spec §2) the content
 * is replaced by the "Not wide enough" notice. Pure CSS, so it holds during SSR and on resize. The notice's
 * title is the page's h1 while it shows (the content's own h1 is hidden with it); when wide the notice is
 * hidden (display: none), so the page never has two.
 */
export function WideOnly({ children, minWidth = "md" }: { children: ReactNode; minWidth?: "sm" | "md" | "lg" }) {
  const { t } = useTranslation();
  const show = { sm: "sm:block", md: "md:block", lg: "lg:block" }[minWidth];
  const hide = { sm: "sm:hidden", md: "md:hidden", lg: "lg:hidden" }[minWidth];
  return (
    <>
      <div role="status" className={`${hide} mx-auto my-12 max-w-md rounded-lg border border-amber-300 bg-amber-50 p-6 text-center text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50`}>
        <h1 className="text-lg font-semibold">{t("wide.title")}</h1>
        <p className="mt-2 text-sm">{t("wide.body")}</p>
      </div>
      <div className={`hidden ${show}`}>{children}</div>
    </>
  );
}
