import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { NOTICES_PAGE, noticesMissed } from "~/core/game/notices-resync";
import type { GameNotice } from "~/core/protocol";
import type { GameNoticeInfo } from "~/core/schemas/game";
import { api } from "~/lib/api";
import { useKeepPlace } from "~/lib/keep-place";
import { useHubSocket } from "~/lib/realtime";
import { ArrivedNotices } from "./notice-item";

/** How many arrivals stay on screen; below the sm breakpoint the newest NARROW_MAX show, the rest folded. */
const SHOWN_MAX = 5;
const NARROW_MAX = 2;
/**
 * The game's notices that arrive while a page is open (announcements, bloods, new hints and challenges),
 * newest first, each dismissible. After a reconnect the notices posted meanwhile are read from
 * GET game/{id}/notices, so a dropped socket loses none. `onNotice` hears every arrival (the challenge page
 * reloads its open challenge on a new hint).
 */
/**
 * `quiet`: the player reads something in front of the list (an open challenge): the chip leading up to new
 * notices waits until it is closed, instead of floating over the challenge's flag box and verdict.
 */
export function LiveNotices({ gameId, onNotice, quiet = false }: { gameId: number; onNotice?: (notice: GameNotice) => void; quiet?: boolean }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<GameNotice[]>([]);
  // Ids of the notices that existed when the page opened or have arrived since; null until first read.
  const known = useRef<Set<number> | null>(null);
  // Ids that arrived on the socket before the first read answered: known too once it does. Left out, a
  // later resync took such a notice for one missed and put it on top again (a dismissed one came back, and
  // a click meant for the newest dismissed the old one that had jumped above it).
  const arrivedEarly = useRef(new Set<number>());
  const knowAlso = (ids: number[]) => new Set([...(known.current ?? arrivedEarly.current), ...ids]);
  const shownRef = useRef(shown);
  const noticeRef = useRef(onNotice);
  useLayoutEffect(() => {
    shownRef.current = shown;
    noticeRef.current = onNotice;
  });

  const read = useCallback(() => api<GameNoticeInfo[]>(`/api/game/${gameId}/notices?count=${NOTICES_PAGE}`), [gameId]);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      read().then(
        (list) => {
          if (live) known.current = knowAlso(list.map((n) => n.id));
        },
        () => undefined,
      );
    }, 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [read]);

  // A notice arriving while the reader is further down neither pushes what they read nor passes unseen:
  // the page keeps its place and a chip at the bottom says a notice came (it goes when the notices are in
  // sight again). Screen readers hear it from the live region.
  const { region, mark: keepPlace } = useKeepPlace<HTMLDivElement>('[data-testid="notice"]');
  const [unseen, setUnseen] = useState(false);
  useEffect(() => {
    const el = region.current;
    if (!unseen || !el) return;
    const observer = new IntersectionObserver(([entry]) => {
      if (entry?.isIntersecting) setUnseen(false);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [unseen, region]);

  const arrive = (notice: GameNotice) => {
    (known.current ?? arrivedEarly.current).add(notice.id);
    if (keepPlace()) setUnseen(true);
    setShown((prev) => [notice, ...prev.filter((n) => n.id !== notice.id)].slice(0, SHOWN_MAX));
    noticeRef.current?.(notice);
  };

  useHubSocket(`/hub/game/${gameId}`, {
    onMessage: (message) => {
      if (message.type === "notice") arrive(message.data);
      if (message.type === "noticeDeleted" && shownRef.current.some((n) => n.id === message.data.id)) {
        keepPlace();
        setShown((prev) => prev.filter((n) => n.id !== message.data.id));
      }
    },
    onResync: () => {
      // Only what is shown now can turn out deleted: a notice arriving while the read is on its way is newer
      // than the list (a QA run lost one so: the answer came after its frame and took it off the page).
      const askedAbout = new Set(shownRef.current.map((n) => n.id));
      read().then(
        (list) => {
          const before = known.current;
          if (!before) {
            known.current = knowAlso(list.map((n) => n.id));
            return;
          }
          const { missed, gone } = noticesMissed(before, list, shownRef.current, askedAbout);
          if (gone.length > 0) {
            keepPlace();
            setShown((prev) => prev.filter((n) => !gone.includes(n.id)));
          }
          missed.forEach(arrive);
        },
        () => undefined,
      );
    },
  });

  return (
    <>
      <ArrivedNotices
        ref={region}
        notices={shown}
        narrowMax={NARROW_MAX}
        className="scroll-mt-24"
        actions={(n) => (
          <button
            type="button"
            onClick={() => setShown((prev) => prev.filter((p) => p.id !== n.id))}
            aria-label={t("notices.dismiss")}
            title={t("notices.dismiss")}
            className="touch-target rounded px-1.5 text-lg leading-6 text-zinc-600 hover:bg-sky-100 dark:text-zinc-300 dark:hover:bg-sky-900"
          >
            ×
          </button>
        )}
      />
      {unseen && shown.length > 0 && !quiet ? (
        <button
          type="button"
          data-testid="notices-unseen"
          onClick={() => {
            setUnseen(false);
            region.current?.scrollIntoView({ block: "start" });
          }}
          className="touch-target fixed inset-x-0 bottom-4 z-20 mx-auto w-fit rounded-full border border-sky-300 bg-sky-50 px-4 py-2 text-sm font-medium text-sky-900 shadow-lg dark:border-sky-700 dark:bg-sky-950 dark:text-sky-100"
        >
          <span aria-hidden="true">↑</span> {t("notices.newAbove")}
        </button>
      ) : null}
    </>
  );
}
