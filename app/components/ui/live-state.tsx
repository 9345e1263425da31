import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { SocketState } from "~/lib/realtime";

const tone: Record<SocketState, string> = {
  connecting: "text-zinc-600 dark:text-zinc-400",
  open: "text-emerald-700 dark:text-emerald-400",
  closed: "text-amber-700 dark:text-amber-300",
  ended: "text-red-700 dark:text-red-400",
  offline: "text-amber-700 dark:text-amber-300",
};

/** Whether a page's live feed is connected: "Connecting…" at first, "● Live", "Reconnecting…" while its socket is down, "Offline" while the browser has no network. */
export function LiveState({ state, testId }: { state: SocketState; testId?: string }) {
  const { t } = useTranslation();
  // Once connected, a new attempt is a reconnection, whatever the socket's own state says.
  const [wasOpen, setWasOpen] = useState(false);
  if (state === "open" && !wasOpen) setWasOpen(true);
  const shown: SocketState = state === "connecting" && wasOpen ? "closed" : state;
  return (
    <span role="status" data-testid={testId} data-state={state} className={`text-sm whitespace-nowrap ${tone[shown]}`}>
      {shown === "open" ? `● ${t("notices.socket.open")}` : t(`notices.socket.${shown}`)}
    </span>
  );
}
