import { useCallback, useEffect, useLayoutEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { type BlockerFunction, useBlocker } from "react-router";
import { ConfirmDialog } from "~/components/teams/dialog";

/** Navigation state of a deliberate move away from a form (after deleting or saving it, its Cancel link). */
export const LEAVE_WITHOUT_ASKING = { leaveGuard: "skip" } as const;

const skips = (state: unknown) => typeof state === "object" && state !== null && (state as { leaveGuard?: unknown }).leaveGuard === "skip";

/**
 * Asks before a form with unsaved changes is left: a link, Back or Forward within the site opens a dialog
 * (leave, or stay with the changes), and closing or reloading the tab gets the browser's own question.
 * A move within the same page (its address's query) keeps the form and is not asked about.
 */
export function LeaveGuard({ dirty }: { dirty: boolean }) {
  const { t } = useTranslation();
  // Read when a navigation starts, which can come right after the edit's event: the blocker registered
  // once reads the latest value (set as the edit's render commits), not the one of an earlier render.
  const dirtyNow = useRef(dirty);
  useLayoutEffect(() => {
    dirtyNow.current = dirty;
  }, [dirty]);
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => dirtyNow.current && currentLocation.pathname !== nextLocation.pathname && !skips(nextLocation.state),
    [],
  );
  const blocker = useBlocker(shouldBlock);
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [dirty]);
  // Saved (or reverted) while the dialog was open: nothing is lost any more.
  useEffect(() => {
    if (blocker.state === "blocked" && !dirty) blocker.proceed();
  }, [blocker, dirty]);
  return (
    <ConfirmDialog
      open={blocker.state === "blocked"}
      title={t("leaveGuard.title")}
      message={t("leaveGuard.message")}
      confirmLabel={t("leaveGuard.leave")}
      busy={false}
      error={null}
      onConfirm={() => {
        // Leaving was chosen: until this page is gone (its route renders after the move's data is read), a
        // Back must not be stopped by the changes just given up (it was, and nothing showed the question).
        dirtyNow.current = false;
        blocker.proceed?.();
      }}
      onCancel={() => blocker.reset?.()}
    />
  );
}
