import { useCallback, useState } from "react";
import { type ApiError, isApiError } from "./api";

/**
 * For pages that read the API themselves (not through a loader or `useCachedList`): an answer saying the
 * session ended (401: signed out in another tab, or expired) goes to the route's error boundary, which sends
 * the page to the login page (app/root.tsx) instead of keeping the old session's rows under an error line.
 * The returned function takes a caught error and says whether it was that one.
 */
export function useSessionEnd(): (error: unknown) => boolean {
  const [ended, setEnded] = useState<ApiError | null>(null);
  const take = useCallback((error: unknown) => {
    if (!isApiError(error) || error.status !== 401) return false;
    setEnded(error);
    return true;
  }, []);
  if (ended) throw ended;
  return take;
}
