import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { GameTabs } from "~/components/games/game-tabs";
import { WideOnly } from "~/components/layout/wide-only";
import { LiveState } from "~/components/ui/live-state";
import { useHubSocket } from "~/lib/realtime";
import { type SheetTiming, SheetDownloads } from "./download-button";
import { eventText } from "./event-list";
import type { GameEvent } from "~/core/protocol";

/**
 * The monitor pages' frame: sub-navigation, downloads, and the "Not wide enough" notice on narrow screens.
 * `live` pages (events, submissions, cheat info) say whether their feed is connected: they share the
 * page's /hub/game/{id}/monitor connection. `sheets` says when the downloads open (the game's start).
 */
export function MonitorShell({ gameId, sheets, live = false, children }: { gameId: number; sheets: SheetTiming; live?: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  const socket = useHubSocket(live ? `/hub/game/${gameId}/monitor` : null, { onMessage: () => undefined });
  const { pathname } = useLocation();
  const page = /\/monitor\/(events|submissions|cheatinfo|traffic)/i.exec(pathname)?.[1]?.toLowerCase();
  const pageName = page === "cheatinfo" ? t("monitor.cheatInfo") : page === "traffic" ? t("gameTabs.traffic") : page ? t(`monitor.${page}`) : null;
  return (
    <WideOnly minWidth="md">
      <h1 className="mb-4 text-2xl font-semibold tracking-tight">
        {pageName ? t("monitor.pageHeading", { page: pageName }) : t("monitor.title")}
      </h1>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-2">
        <GameTabs gameId={gameId} />
        <div className="flex flex-wrap items-center gap-3">
          {live ? <LiveState state={socket} testId="monitor-socket" /> : null}
          <SheetDownloads gameId={gameId} {...sheets} />
        </div>
      </div>
      {children}
    </WideOnly>
  );
}

/** An event's sentence in the viewer's language (rules.md §11 values; the words in event-list.ts `eventText`). */
export function useEventText() {
  const { t } = useTranslation();
  return (e: GameEvent): string => eventText(e, (key, values) => t(key, values));
}
