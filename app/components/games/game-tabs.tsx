import { useTranslation } from "react-i18next";
import { NavLink, useRouteLoaderData } from "react-router";
import { roleRank } from "~/core/enums";
import type { loader as rootLoader } from "~/root";

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `touch-target flex shrink-0 items-center rounded-md px-3 py-1.5 text-sm font-medium ${
    isActive ? "bg-primary-600 text-on-primary-600 dark:bg-primary-500 dark:text-on-primary-500" : "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
  }`;

/**
 * The tab bar shared by a game's pages: overview, challenges (signed-in users), scoreboard (a hidden
 * game's only for monitors and admins, rules.md §4), and for monitors and admins the monitor pages
 * (events, submissions, cheat info, traffic).
 */
export function GameTabs({ gameId, hidden = false }: { gameId: number; hidden?: boolean }) {
  const { t } = useTranslation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const user = root?.user ?? null;
  const monitor = user !== null && roleRank(user.role) >= roleRank("Monitor");
  const base = `/games/${gameId}`;
  return (
    <nav aria-label={t("gameTabs.label")} className="-mx-1 flex gap-1 overflow-x-auto border-b border-zinc-200 px-1 pb-2 dark:border-zinc-800">
      <NavLink to={base} end className={tabClass}>
        {t("gameTabs.overview")}
      </NavLink>
      {user !== null ? (
        <NavLink to={`${base}/challenges`} className={tabClass}>
          {t("gameTabs.challenges")}
        </NavLink>
      ) : null}
      {!hidden || monitor ? (
        <NavLink to={`${base}/scoreboard`} className={tabClass}>
          {t("gameTabs.scoreboard")}
        </NavLink>
      ) : null}
      {monitor ? (
        <>
          <NavLink to={`${base}/monitor/events`} className={tabClass}>
            {t("monitor.events")}
          </NavLink>
          <NavLink to={`${base}/monitor/submissions`} className={tabClass}>
            {t("monitor.submissions")}
          </NavLink>
          <NavLink to={`${base}/monitor/cheatinfo`} className={tabClass}>
            {t("monitor.cheatInfo")}
          </NavLink>
          <NavLink to={`${base}/monitor/traffic`} className={tabClass}>
            {t("gameTabs.traffic")}
          </NavLink>
        </>
      ) : null}
    </nav>
  );
}
