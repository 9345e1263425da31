import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { GameTabs } from "~/components/games/game-tabs";
import { WideOnly } from "~/components/layout/wide-only";
import { LiveState } from "~/components/ui/live-state";
import { useHubSocket } from "~/lib/realtime";
import { type SheetTiming, SheetDownloads } from "./download-button";
import { withoutBidiControls } from "~/core/bidi";
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

/** An event's sentence in the viewer's language (rules.md §11 values). */
export function useEventText() {
  const { t } = useTranslation();
  return (e: GameEvent): string => {
    // Values go into a sentence: a direction control in a team name or an answer must not turn it around.
    const v = e.values.map(withoutBidiControls);
    // A team's or user's event outlives them (its reference is emptied): the sentence says who is gone.
    const team = e.team === null ? t("monitor.deletedTeam") : withoutBidiControls(e.team);
    switch (e.type) {
      case "FlagSubmit":
        return t("monitor.event.FlagSubmit", { team, user: e.user || t("monitor.deletedUser"), answer: v[1] ?? "", challenge: v[2] ?? "", result: t(`monitor.status.${v[0] ?? "FlagSubmitted"}`) });
      case "CheatDetected":
        return t("monitor.event.CheatDetected", { challenge: v[0] ?? "", submitTeam: v[1] ?? "", ownedTeam: v[2] ?? "" });
      case "ContainerStart":
        return t("monitor.event.ContainerStart", { team, challenge: v[1] ?? "" });
      case "ContainerDestroy":
        // With its user, a player destroyed it; without, the platform removed it (expiry, an admin, the team's limit).
        return e.user ? t("monitor.event.ContainerDestroy", { team, user: e.user, challenge: v[1] ?? "" }) : t("monitor.event.ContainerRemoved", { team, challenge: v[1] ?? "" });
      default:
        return t("monitor.event.Normal", { text: v[0] ?? "" });
    }
  };
}
