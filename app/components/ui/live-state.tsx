import { useTranslation } from "react-i18next";
import type { SocketState } from "~/lib/realtime";

/** Whether a page's live feed is connected: "● Live", or "Reconnecting…" while its socket is down. */
export function LiveState({ state, testId }: { state: SocketState; testId?: string }) {
  const { t } = useTranslation();
  const open = state === "open";
  return (
    <span
      role="status"
      data-testid={testId}
      data-state={state}
      className={`text-sm whitespace-nowrap ${open ? "text-emerald-700 dark:text-emerald-400" : "text-amber-700 dark:text-amber-300"}`}
    >
      {open ? `● ${t("scoreboard.live")}` : t("scoreboard.reconnecting")}
    </span>
  );
}
