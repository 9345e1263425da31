import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import type { NoticeType } from "~/core/enums";
import type { GameNoticeInfo } from "~/core/schemas/game";
import { arrayOf, recordWith } from "~/core/ui/list-shape";
import { PushesDuringRead } from "~/core/ui/pushes-during-read";
import { api, errorMessage } from "~/lib/api";
import { useKeepPlace } from "~/lib/keep-place";
import { readCache, unexpectedAnswer, writeCache } from "~/lib/list-cache";
import { useHubSocket } from "~/lib/realtime";
import { useOneAtATime } from "~/lib/one-at-a-time";
import { RECORD_GONE, useSessionEnd } from "~/lib/session-end";
import { ArrivedNotices, NoticeItem } from "./notice-item";

/** The API's largest page and furthest offset of notices (api.md §10). */
const PAGE = 100;
const MAX_SKIP = 300;
/** What the panel reads of a list: anything else is neither cached nor shown. */
const NOTICES_SHAPE = arrayOf(recordWith<GameNoticeInfo>({ id: "number", type: "string", values: "array", time: "number" }));

/** The notice filter of the game page (api.md §2). */
const FILTERS = {
  all: null,
  game: ["Normal"],
  challenge: ["NewChallenge", "NewHint"],
  events: ["FirstBlood", "SecondBlood", "ThirdBlood"],
} as const satisfies Record<string, readonly NoticeType[] | null>;
type Filter = keyof typeof FILTERS;

/** Normal first, each group newest first — the order of GET game/{id}/notices. */
export function sortNotices(list: GameNoticeInfo[]): GameNoticeInfo[] {
  return [...list].sort((a, b) => Number(a.type !== "Normal") - Number(b.type !== "Normal") || b.time - a.time || b.id - a.id);
}

/** Adds or replaces a notice by id (an edited notice arrives again with the same id). */
export function mergeNotice(list: GameNoticeInfo[], notice: GameNoticeInfo): GameNoticeInfo[] {
  return sortNotices([notice, ...list.filter((n) => n.id !== notice.id)]);
}

/**
 * The notices of a game, kept live over the game's WebSocket (/hub/game/{id}); refetched after a reconnect.
 * `enabled` is false before the start (the API answers "not started").
 */
export function NoticesPanel({ gameId, enabled }: { gameId: number; enabled: boolean }) {
  const { t } = useTranslation();
  const [notices, setNotices] = useState<GameNoticeInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState<Filter>("all");
  // The last notice pushed over the socket, said to screen readers as LiveNotices says it (the list shows it).
  const [arrived, setArrived] = useState<GameNoticeInfo[]>([]);
  // A notice pushed into the list above what the reader is at (further down the list, or the writeup
  // below) keeps them where they were (Safari has no scroll anchoring of its own).
  const { region: section, mark: keepPlace } = useKeepPlace<HTMLElement>('[data-testid="notice"]');
  // The game was deleted (its room ends the feed, whose resync reads the list): the page shows its
  // not-found state, as a reload would, not a running game above "the game does not exist".
  const pageEnded = useSessionEnd(RECORD_GONE);

  // Older pages (api.md §10: count ≤ 100, skip ≤ 300), read on demand; `fetched` is where the next starts.
  const fetched = useRef(0);
  const [more, setMore] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  // Notices pushed while the list is read are applied again to what it brings.
  const [reads] = useState(() => new PushesDuringRead<GameNoticeInfo[]>());
  // The list's reads run one after another: a read from the top (a reconnect's resync) never lands over an
  // older page "load more" brought meanwhile, and the next page starts where the last read ended.
  const oneAtATime = useOneAtATime();
  const load = useCallback(
    () =>
      oneAtATime(async () => {
        const round = reads.begin();
        try {
          // The pages shown so far are read again (deletions missed while the socket was down are among them).
          const list: GameNoticeInfo[] = [];
          let full = true;
          for (let skip = 0; full && (skip === 0 || (skip < fetched.current && skip <= MAX_SKIP)); skip += PAGE) {
            const page = await api(`/api/game/${gameId}/notices?count=${PAGE}${skip === 0 ? "" : `&skip=${skip}`}`);
            if (!NOTICES_SHAPE(page)) throw unexpectedAnswer();
            list.push(...page);
            full = page.length === PAGE;
          }
          const shown = reads.settle(round, sortNotices(list));
          if (shown === null) return;
          void writeCache(`notices:${gameId}`, list.slice(0, PAGE), NOTICES_SHAPE);
          fetched.current = list.length;
          setMore(full && list.length <= MAX_SKIP);
          keepPlace();
          setNotices(shown);
          setError(null);
        } catch (err) {
          if (reads.fail(round) && !pageEnded(err)) setError(errorMessage(err));
        }
      }),
    [gameId, keepPlace, reads, oneAtATime, pageEnded],
  );
  /** Reads the next older page; with `until`, page after page until one holds a notice it accepts. */
  const loadMore = (until?: (notice: GameNoticeInfo) => boolean) => {
    setLoadingMore(true);
    void oneAtATime(async () => {
      try {
        for (;;) {
          const page = await api<GameNoticeInfo[]>(`/api/game/${gameId}/notices?count=${PAGE}&skip=${fetched.current}`);
          fetched.current += page.length;
          const further = page.length === PAGE && fetched.current <= MAX_SKIP;
          setMore(further);
          setNotices((list) => page.reduce(mergeNotice, list ?? []));
          setError(null);
          if (!until || !further || page.some(until)) return;
        }
      } catch (err) {
        if (!pageEnded(err)) setError(errorMessage(err));
      }
    }).finally(() => setLoadingMore(false));
  };

  useEffect(() => {
    if (!enabled) return;
    // The last list paints from the browser cache at once (rules.md §15); the socket keeps it live after.
    let cancelled = false;
    const timer = setTimeout(() => {
      void readCache(`notices:${gameId}`, NOTICES_SHAPE).then((cached) => {
        if (cancelled) return;
        if (cached) setNotices((list) => list ?? sortNotices(cached.data));
        void load();
      });
    }, 0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [enabled, gameId, load]);

  const state = useHubSocket(enabled ? `/hub/game/${gameId}` : null, {
    onMessage: (message) => {
      if (message.type === "notice" || message.type === "noticeDeleted") keepPlace();
      if (message.type === "notice") {
        const notice = message.data;
        reads.push((list) => mergeNotice(list, notice));
        setNotices((list) => mergeNotice(list ?? [], notice));
        setArrived([notice]);
      }
      if (message.type === "noticeDeleted") {
        const { id } = message.data;
        reads.push((list) => list.filter((n) => n.id !== id));
        setNotices((list) => list?.filter((n) => n.id !== id) ?? list);
        setArrived((list) => list.filter((n) => n.id !== id));
      }
    },
    onResync: () => void load(),
  });

  const shown = useMemo(() => {
    const types = FILTERS[filter] as readonly NoticeType[] | null;
    return (notices ?? []).filter((n) => !types || types.includes(n.type));
  }, [notices, filter]);
  const filteredOut = filter !== "all" && notices !== null && notices.length > 0 && shown.length === 0;
  const choose = (next: Filter) => {
    setFilter(next);
    // Announcements come first in the API's order, so a kind's notices may all be on older pages: with none
    // of it among those read, the older pages are read until one has some (or the API's last is read).
    const types = FILTERS[next] as readonly NoticeType[] | null;
    if (types && more && !loadingMore && !(notices ?? []).some((n) => types.includes(n.type))) loadMore((n) => types.includes(n.type));
  };

  return (
    <>
      <section ref={section} aria-labelledby="notices-heading" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="notices-heading" className="text-lg font-semibold">
            {t("notices.title")}
          </h2>
          {enabled ? (
            <span className="text-xs text-zinc-500 dark:text-zinc-400" data-socket-state={state}>
              {t(`notices.socket.${state}`)}
            </span>
          ) : null}
        </div>
        {!enabled ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("notices.notStarted")}</p>
        ) : (
          <>
            <div role="group" aria-label={t("notices.filter")} className="flex flex-wrap gap-1">
              {(Object.keys(FILTERS) as Filter[]).map((f) => (
                <button
                  key={f}
                  type="button"
                  aria-pressed={filter === f}
                  onClick={() => choose(f)}
                  className={`touch-target rounded-md px-2.5 py-1 text-xs font-medium ${
                    filter === f
                      ? "bg-primary-600 text-on-primary-600 dark:bg-primary-500 dark:text-on-primary-500"
                      : "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
                  }`}
                >
                  {t(`notices.filters.${f}`)}
                </button>
              ))}
            </div>
            {error ? <Alert tone="error">{error}</Alert> : null}
            {notices === null && !error ? (
              <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
                {t("common.loading")}
              </p>
            ) : shown.length === 0 ? (
              filteredOut && loadingMore ? (
                <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
                  {t("common.loading")}
                </p>
              ) : (
                <p className="text-sm text-zinc-600 dark:text-zinc-400">{filteredOut ? t("notices.emptyFiltered") : t("notices.empty")}</p>
              )
            ) : (
              <ul aria-label={t("notices.title")} className="divide-y divide-zinc-200 dark:divide-zinc-800">
                {shown.map((n) => (
                  <NoticeItem key={n.id} notice={n} />
                ))}
              </ul>
            )}
            {more ? (
              <Button variant="secondary" disabled={loadingMore} onClick={() => loadMore()}>
                {loadingMore ? t("common.loading") : t("notices.loadMore")}
              </Button>
            ) : null}
          </>
        )}
      </section>
      {/* Outside the list's region: that region holds each notice once. */}
      <ArrivedNotices notices={arrived} visuallyHidden />
    </>
  );
}
