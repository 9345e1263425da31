import { type ReactNode, type Ref, useState } from "react";
import { useTranslation } from "react-i18next";
import { Markdown } from "~/components/markdown";
import { withoutBidiControls } from "~/core/bidi";
import type { GameNoticeInfo } from "~/core/schemas/game";
import { NoticeIcon } from "./marks";
import { formatDateTime } from "./time";

/** The sentence of a notice in the viewer's language, from its type and `values` (rules.md §11). */
export function useNoticeText() {
  const { t } = useTranslation();
  return (notice: GameNoticeInfo): string => {
    const [a = "", b = ""] = notice.values.map(withoutBidiControls);
    switch (notice.type) {
      case "FirstBlood":
      case "SecondBlood":
      case "ThirdBlood":
        return t(`notices.template.${notice.type}`, { team: a, challenge: b });
      case "NewHint":
      case "NewChallenge":
        return t(`notices.template.${notice.type}`, { challenge: a });
      default:
        return a;
    }
  };
}

/** One notice: Normal notices are Markdown; the others are localised templates. */
export function NoticeItem({ notice, actions, className = "" }: { notice: GameNoticeInfo; actions?: ReactNode; className?: string }) {
  const { t } = useTranslation();
  const text = useNoticeText();
  return (
    <li className={`flex gap-3 py-3 ${className}`} data-testid="notice" data-notice-type={notice.type}>
      <NoticeIcon type={notice.type} />
      <div className="min-w-0 flex-1 space-y-1">
        <p className="flex flex-wrap items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
          <span className="font-medium text-zinc-700 dark:text-zinc-300">{t(`notices.type.${notice.type}`)}</span>
          <time className="tabular-nums" dateTime={new Date(notice.time).toISOString()}>
            {formatDateTime(notice.time)}
          </time>
        </p>
        {notice.type === "Normal" ? <Markdown source={notice.values[0] ?? ""} className="text-sm" /> : <p className="text-sm wrap-anywhere">{text(notice)}</p>}
      </div>
      {actions ? <div className="flex shrink-0 items-start gap-1">{actions}</div> : null}
    </li>
  );
}

/**
 * The notices that arrived while the page is open, newest first, in a polite live region. The region is on
 * the page from the start, empty: screen readers announce what is added to a region they already know, not
 * a region that appears together with its first notice. LiveNotices shows its arrivals here; the game
 * page's list, which shows them already, keeps the region out of sight (`visuallyHidden`) only to say them.
 */
export function ArrivedNotices({
  ref,
  notices,
  actions,
  visuallyHidden = false,
  narrowMax,
  className = "",
}: {
  ref?: Ref<HTMLDivElement>;
  notices: readonly GameNoticeInfo[];
  actions?: (notice: GameNoticeInfo) => ReactNode;
  visuallyHidden?: boolean;
  /**
   * Below the sm breakpoint only the newest `narrowMax` show, the rest behind a "+N more" button: five
   * filled a phone's first screen. The newest is always shown, so the region still says each arrival.
   */
  narrowMax?: number;
  className?: string;
}) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const folded = narrowMax !== undefined && !expanded ? Math.max(0, notices.length - narrowMax) : 0;
  const list = (
    <ul data-testid="live-notices" className="divide-y divide-sky-200 dark:divide-sky-800">
      {notices.map((n, i) => (
        <NoticeItem key={n.id} notice={n} actions={actions?.(n)} className={folded > 0 && i >= narrowMax! ? "max-sm:hidden" : ""} />
      ))}
    </ul>
  );
  // Out of sight it is no landmark of its own: it only speaks.
  const region = (
    <div ref={ref} aria-live="polite" className={`${visuallyHidden ? "sr-only" : ""} ${className}`}>
      {notices.length === 0 ? null : visuallyHidden ? (
        list
      ) : (
        <section aria-label={t("notices.arrived")} className="rounded-md border border-sky-300 bg-sky-50 px-3 dark:border-sky-700 dark:bg-sky-950">
          {list}
        </section>
      )}
    </div>
  );
  if (narrowMax === undefined) return region;
  // The button stands outside the live region (its count changing with each arrival is no news of its own),
  // in a wrapper that is always there: a region moved to a new parent would be a new region, and unheard.
  return (
    <div>
      {region}
      {folded === 0 ? null : (
        <button
        type="button"
        data-testid="notices-more"
        onClick={() => setExpanded(true)}
        className="touch-target mt-1 rounded px-2 py-1 text-sm font-medium text-sky-800 hover:bg-sky-100 sm:hidden dark:text-sky-200 dark:hover:bg-sky-900"
      >
        {t("notices.more", { count: folded })}
        </button>
      )}
    </div>
  );
}
