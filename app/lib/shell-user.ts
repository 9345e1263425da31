import { useEffect } from "react";
import type { ShellUser } from "~/components/site-header";

// The user the root loader last named in this tab (null: signed out). Written only by effects, so only in
// the browser: the server renders many users' pages and never reads another request's user from here.
let lastKnown: ShellUser | null = null;

/**
 * The user the header shows: the root loader's, or, when the page renders without it (the error screen of a
 * navigation whose data could not be read, offline or with the server down), the one the page last knew,
 * so the screen still says who is signed in and offers Log out.
 */
export function useShellUser(rootData: { user: ShellUser | null } | undefined): ShellUser | null {
  const known = rootData === undefined ? undefined : rootData.user;
  useEffect(() => {
    if (known !== undefined) lastKnown = known;
  }, [known]);
  return known === undefined ? lastKnown : known;
}

/** The session has ended (an answer said 401): no later screen may show its user. */
export function forgetShellUser(): void {
  lastKnown = null;
}
