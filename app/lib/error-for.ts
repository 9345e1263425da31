import { useState } from "react";

/**
 * A form's error that holds only while `contextKey` (what the form acted on, such as the user's teams or
 * a challenge's flags) is unchanged: a change made elsewhere on the page clears it.
 */
export function useErrorFor<E = string>(contextKey: string): [E | null, (message: E | null) => void] {
  const [failure, setFailure] = useState<{ message: E; contextKey: string } | null>(null);
  const error = failure && failure.contextKey === contextKey ? failure.message : null;
  return [error, (message) => setFailure(message === null ? null : { message, contextKey })];
}
