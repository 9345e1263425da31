/**
 * A native select whose choice is saved at once: a choice from its list (pointer, or the list opened with the
 * keyboard) is saved when made, but the keys that step through a closed select (arrows, Home/End, Page
 * Up/Down, typing a name's first letters) change its value, and fire `change`, at each press. Those values
 * are held until the user commits: Enter, or leaving the select.
 */

/** What a key pressed on the select means: commit what is held, open the list, step the value, or nothing. */
export type SelectKey = "commit" | "list" | "step" | "none";

export function computeSelectKey(event: { key: string; altKey: boolean; ctrlKey: boolean; metaKey: boolean }): SelectKey {
  const { key } = event;
  if (key === "Enter") return "commit";
  // Space, F4 and Alt+arrow open the list (Chromium, Firefox): a choice there is a choice made.
  if (key === " " || key === "F4" || (event.altKey && (key === "ArrowDown" || key === "ArrowUp"))) return "list";
  if (event.ctrlKey || event.metaKey || event.altKey) return "none";
  if (key === "ArrowDown" || key === "ArrowUp" || key === "ArrowLeft" || key === "ArrowRight") return "step";
  if (key === "Home" || key === "End" || key === "PageUp" || key === "PageDown") return "step";
  // A printable character selects the option it starts (type-ahead).
  return [...key].length === 1 ? "step" : "none";
}

/** A value the user moved to with the keys and has not committed, and the saved value it was moved from. */
export interface HeldChoice<V> {
  readonly value: V;
  readonly from: V;
}

/**
 * The select's `change`: `save` (a choice made) or `hold` (a step with the keys, kept until committed).
 * Nothing is saved when the value is the saved one.
 */
export function computeSelectChange<V>(stepping: boolean, value: V, saved: V): { save: V } | { hold: HeldChoice<V> } | null {
  if (stepping) return { hold: { value, from: saved } };
  return value === saved ? null : { save: value };
}

/** What a commit (Enter, leaving the select) saves of what is held: nothing when it is the saved value, or stale. */
export function computeSelectCommit<V>(held: HeldChoice<V> | null, saved: V): V | null {
  if (held === null || held.from !== saved || held.value === saved) return null;
  return held.value;
}
