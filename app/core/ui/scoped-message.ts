/**
 * A form's success message about a list it changed (a challenge's flags), named by the list's key. The
 * form's own change gives the list a new key once it is read again: the message binds to that key then, and
 * any later change of the list (a flag deleted below) retires it — "Flags added" stayed on the page after
 * the admin deleted a flag, beside a list with fewer flags.
 */
export interface ScopedMessage {
  message: string;
  /** The list's key when the message was given, then the key it bound to. */
  key: string;
  /** Whether the list has been read again since (the key is the one the form's own change made). */
  bound: boolean;
}

export const scopedMessage = (message: string, key: string): ScopedMessage => ({ message, key, bound: false });

/** The message once the list's key is `key`: bound on the first new key, kept only while that key holds. */
export function bindScopedMessage(m: ScopedMessage | null, key: string): ScopedMessage | null {
  if (m === null || m.bound || m.key === key) return m;
  return { ...m, key, bound: true };
}

/** The message to show while the list's key is `key`. */
export function shownScopedMessage(m: ScopedMessage | null, key: string): string | null {
  if (m === null) return null;
  return !m.bound || m.key === key ? m.message : null;
}
