import { useState } from "react";

/**
 * A form's error that holds only while `contextKey` (what the form acted on, such as the user's teams or
 * a challenge's flags) is unchanged: a change made elsewhere on the page clears it.
 */
export function useErrorFor(contextKey: string): [string | null, (message: string | null) => void] {
  const [failure, setFailure] = useState<{ message: string; contextKey: string } | null>(null);
  const error = failure && failure.contextKey === contextKey ? failure.message : null;
  return [error, (message) => setFailure(message === null ? null : { message, contextKey })];
}
