import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { WideOnly } from "~/components/layout/wide-only";
import type { GameEvent } from "~/core/protocol";

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-1.5 text-sm font-medium ${
    isActive ? "bg-primary-600 text-on-primary-600 dark:bg-primary-500 dark:text-on-primary-500" : "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
  }`;

/** The monitor pages' frame: sub-navigation, downloads, and the "Not wide enough" notice on narrow screens. */
export function MonitorShell({ gameId, children }: { gameId: number; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <WideOnly minWidth="md">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2 border-b border-zinc-200 pb-3 dark:border-zinc-800">
        <nav aria-label={t("monitor.title")} className="flex gap-1">
          <NavLink to={`/games/${gameId}/monitor/events`} className={tabClass}>
            {t("monitor.events")}
          </NavLink>
          <NavLink to={`/games/${gameId}/monitor/submissions`} className={tabClass}>
            {t("monitor.submissions")}
          </NavLink>
          <NavLink to={`/games/${gameId}/monitor/cheatinfo`} className={tabClass}>
            {t("monitor.cheatInfo")}
          </NavLink>
        </nav>
        <div className="flex gap-3 text-sm">
          <a href={`/api/game/${gameId}/scoreboardsheet`} className="text-primary-700 hover:underline dark:text-primary-300" download>
            {t("monitor.downloadScoreboard")}
          </a>
          <a href={`/api/game/${gameId}/submissionsheet`} className="text-primary-700 hover:underline dark:text-primary-300" download>
            {t("monitor.downloadSubmissions")}
          </a>
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
    const v = e.values;
    switch (e.type) {
      case "FlagSubmit":
        return t("monitor.event.FlagSubmit", { team: e.team ?? "", user: e.user ?? "", answer: v[1] ?? "", challenge: v[2] ?? "", result: t(`monitor.status.${v[0] ?? "FlagSubmitted"}`) });
      case "CheatDetected":
        return t("monitor.event.CheatDetected", { challenge: v[0] ?? "", submitTeam: v[1] ?? "", ownedTeam: v[2] ?? "" });
      case "ContainerStart":
      case "ContainerDestroy":
        return t(`monitor.event.${e.type}`, { team: e.team ?? "", challenge: v[1] ?? "" });
      default:
        return t("monitor.event.Normal", { text: v[0] ?? "" });
    }
  };
}
