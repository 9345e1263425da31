import { useCallback, useRef } from "react";

/**
 * Runs a component's tasks one after another, each once the one before has settled (a failure does not
 * stop the next). For a list read in pages: a read again from the top and a "Load more" never cross, so
 * neither lands over what the other brought, and the next page starts where the last read ended.
 */
export function useOneAtATime(): (task: () => Promise<void>) => Promise<void> {
  const queue = useRef<Promise<void>>(Promise.resolve());
  return useCallback((task: () => Promise<void>) => {
    const next = queue.current.then(task);
    queue.current = next.catch(() => undefined);
    return next;
  }, []);
}
