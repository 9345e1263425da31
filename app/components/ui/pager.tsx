import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Button, buttonClass } from "./button";
import { Card } from "./card";

/**
 * Previous / "Page n of m" / Next under a table paged in the browser; nothing when there is one page.
 * Turning a page goes back to the top, where the new page's first rows are.
 */
export function Pager({ page, pages, onPage, label }: { page: number; pages: number; onPage: (page: number) => void; label: string }) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  const turn = (to: number) => {
    onPage(to);
    window.scrollTo({ top: 0 });
  };
  return (
    <nav aria-label={label} className="flex items-center gap-2 text-sm">
      <Button variant="secondary" disabled={page <= 1} onClick={() => turn(page - 1)}>
        {t("pager.previous")}
      </Button>
      <span className="tabular-nums">{t("pager.pageOf", { page, pages })}</span>
      <Button variant="secondary" disabled={page >= pages} onClick={() => turn(page + 1)}>
        {t("pager.next")}
      </Button>
    </nav>
  );
}

/**
 * Previous / "Page n of m" / Next as links under a list paged by the server (`?page=n`); nothing when there
 * is one page, or when `page` is past the last (PastEndNotice says so and links to the last page instead).
 */
export function PageLinks({ page, pages, label, href }: { page: number; pages: number; label: string; href: (page: number) => string }) {
  const { t } = useTranslation();
  if (pages <= 1 || page > pages) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-center gap-3 text-sm">
      {page > 1 ? (
        <Link className={buttonClass("secondary")} to={href(page - 1)}>
          {t("pager.previous")}
        </Link>
      ) : null}
      <span>{t("pager.pageOf", { page, pages })}</span>
      {page < pages ? (
        <Link className={buttonClass("secondary")} to={href(page + 1)}>
          {t("pager.next")}
        </Link>
      ) : null}
    </nav>
  );
}

/** A server-paged list opened past its last page (a bookmark, or rows deleted since): says so, links to the last. */
export function PastEndNotice({ page, pages, lastPageHref }: { page: number; pages: number; lastPageHref: string }) {
  const { t } = useTranslation();
  return (
    <Card className="space-y-3 text-center">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("pager.pastEnd", { page, pages })}</p>
      <Link className={buttonClass("secondary")} to={lastPageHref}>
        {t("pager.lastPage", { pages })}
      </Link>
    </Card>
  );
}
