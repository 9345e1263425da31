import { type RefObject, useEffect } from "react";

/**
 * Each time a form is refused (`failure`, a new value per refusal), the focus moves to its first field
 * marked invalid, where the message stands; a refusal of the form as a whole leaves the focus alone.
 */
export function useFocusInvalid(form: RefObject<HTMLFormElement | null>, failure: unknown): void {
  useEffect(() => {
    if (failure) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [form, failure]);
}
