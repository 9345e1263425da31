import { useCallback, useState } from "react";
import { type ApiError, endsPage, SESSION_ENDED } from "./api";

/** The session-ended set and the test of an error against a set, defined in app/lib/api.ts (see there why). */
export { endsPage, SESSION_ENDED };

/**
 * Refusals that end a page whose loader checked a role or a record (the monitor and admin pages): the
 * session ended (401), the role is gone (403: a Monitor made a User, an Admin demoted), or the record
 * is (404: the game was deleted). The page then shows what a reload would, not the rows it read before.
 */
export const ACCESS_ENDED: readonly number[] = [401, 403, 404];

/** The session ended, or the page's record is gone (404: the game was deleted), on a page anyone may read. */
export const RECORD_GONE: readonly number[] = [401, 404];

/** ACCESS_ENDED without the 404, for a read about a part of the page's record (a challenge of the game). */
export const ROLE_ENDED: readonly number[] = [401, 403];

/**
 * For pages that read the API themselves (not through a loader or `useCachedList`): an answer saying the
 * page can no longer be shown (`statuses`; by default the session ended) goes to the route's error boundary
 * (app/root.tsx), which sends a signed-out page to the login page and shows the forbidden or not-found
 * state otherwise, instead of keeping the rows read before under an error line. The returned function takes
 * a caught error and says whether it was one of those.
 */
export function useSessionEnd(statuses: readonly number[] = SESSION_ENDED): (error: unknown) => boolean {
  const [ended, setEnded] = useState<ApiError | null>(null);
  const take = useCallback(
    (error: unknown) => {
      if (!endsPage(error, statuses)) return false;
      setEnded(error);
      return true;
    },
    [statuses],
  );
  if (ended) throw ended;
  return take;
}
