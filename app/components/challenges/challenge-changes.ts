import { useEffect, useRef, useState } from "react";
import { changedChallengeOf } from "~/core/protocol";
import { useHubSocket } from "~/lib/realtime";

/**
 * Counts the pushes saying the open challenge may have changed for the team: an organiser's edit
 * (`challengeChanged`: a new submission limit, deadline, text or attachment), the team's container started,
 * extended or destroyed by a teammate, an admin or its expiry (`containerChanged`), and each reconnection of
 * the feed (one of those may have been sent while it was down). The challenge's panel reads it again on
 * each, instead of at its 120-s read (rules.md §15). Listens on the page's one game socket
 * (app/lib/realtime.ts). Not on every resync: a page greeted just after any message for all (a notice)
 * resyncs its lists, and its panel, read when opened, is newer than that.
 */
export function useChallengeChanges(gameId: number, challengeId: number | null): number {
  const [changes, setChanges] = useState(0);
  const state = useHubSocket(`/hub/game/${gameId}`, {
    onMessage: (message) => {
      if (challengeId !== null && changedChallengeOf(message) === challengeId) setChanges((n) => n + 1);
    },
  });
  const wasOpen = useRef(false);
  useEffect(() => {
    if (state !== "open") return;
    if (wasOpen.current) setChanges((n) => n + 1);
    wasOpen.current = true;
  }, [state]);
  return changes;
}
