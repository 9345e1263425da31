import { useTranslation } from "react-i18next";
import { Button } from "./button";

/** Previous / "Page n of m" / Next under a table paged in the browser; nothing when there is one page. */
export function Pager({ page, pages, onPage, label }: { page: number; pages: number; onPage: (page: number) => void; label: string }) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="flex items-center gap-2 text-sm">
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t("pager.previous")}
      </Button>
      <span className="tabular-nums">{t("pager.pageOf", { page, pages })}</span>
      <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t("pager.next")}
      </Button>
    </nav>
  );
}
