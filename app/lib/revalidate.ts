import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * A form action's answer when it changed nothing on the server: its own checks refused the input, the
 * server refused it, or the server could not be reached. After an action React Router reads every loader
 * of the page again; there is nothing new to read then, and without a connection that read would replace
 * the page — and what the user typed — with the error screen.
 */
export function unchanged<T extends object>(result: T): T & { unchanged: true } {
  return { ...result, unchanged: true };
}

export function changedNothing(actionResult: unknown): boolean {
  return typeof actionResult === "object" && actionResult !== null && (actionResult as { unchanged?: unknown }).unchanged === true;
}

/** `shouldRevalidate` of a route whose action may answer `unchanged(…)`. */
export function keepAfterUnchanged({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  return changedNothing(actionResult) ? false : defaultShouldRevalidate;
}
