import { type Ref, useCallback } from "react";
import { utf16MaxLength } from "~/core/text-length";

type TextControl = HTMLInputElement | HTMLTextAreaElement;

/** The text an insertion puts in (typed, pasted, dropped or picked from the spelling menu); "" when the event does not say. */
function insertedText(event: InputEvent): string {
  return event.data ?? event.dataTransfer?.getData("text/plain") ?? "";
}

/**
 * A text control's `maxLength` given in characters (code points, as api.md and the server count them) while
 * browsers count UTF-16 units, two for an emoji. The attribute rendered is the limit plus the surrogate pairs
 * of the value (`value`, or `defaultValue` for an uncontrolled control); before each insertion it is set again
 * for the text kept and the text going in, so a pasted run of emoji stops at the limit and not at half of it,
 * and after each input for the value then held.
 */
export function useCharacterLimit<E extends TextControl>(
  limit: number | undefined,
  value: unknown,
  ref?: Ref<E>,
): { maxLength: number | undefined; ref: Ref<E> | undefined } {
  const attach = useCallback(
    (control: E | null) => {
      const cleanup = assignRef(ref, control);
      if (!control || limit === undefined) return cleanup;
      const beforeInput = (event: Event) => {
        const input = event as InputEvent;
        if (!input.inputType.startsWith("insert")) return;
        const { value: text, selectionStart: start, selectionEnd: end } = control;
        // Types without a selection (email) keep the whole value: the count can only come out short, never long.
        const kept = start === null || end === null ? text : text.slice(0, start) + text.slice(end);
        control.maxLength = utf16MaxLength(limit, kept, insertedText(input));
      };
      const afterInput = () => {
        control.maxLength = utf16MaxLength(limit, control.value);
      };
      control.addEventListener("beforeinput", beforeInput);
      control.addEventListener("input", afterInput);
      return () => {
        control.removeEventListener("beforeinput", beforeInput);
        control.removeEventListener("input", afterInput);
        cleanup?.();
      };
    },
    [limit, ref],
  );
  if (limit === undefined) return { maxLength: undefined, ref };
  return { maxLength: utf16MaxLength(limit, typeof value === "string" ? value : ""), ref: attach };
}

/** Hands the control to the caller's ref too, returning its cleanup (React 19 callback refs may have one). */
function assignRef<E>(ref: Ref<E> | undefined, control: E | null): (() => void) | undefined {
  if (typeof ref === "function") {
    const cleanup = ref(control);
    return typeof cleanup === "function" ? cleanup : () => ref(null);
  }
  if (ref) {
    ref.current = control;
    return () => {
      ref.current = null;
    };
  }
  return undefined;
}
