/**
 * A field's error from a refusal of its form (the form's own checks on submit, or the server naming the field)
 * speaks of the value that was sent. Once the user changes the field it no longer does: the field drops its
 * error (message, `aria-invalid`, the description pointing at it) until the form is refused again. Other
 * fields keep theirs.
 *
 * `refusal` is the form's current refusal: a new truthy value per refusal (the action's answer, an error
 * object, a counter), falsy while there is none. `edited` is what the field keeps of the user's last change.
 */
export interface FieldEdit {
  /** The refusal current when the user changed the field while it showed an error. */
  readonly refusal: unknown;
}

/** The error the field shows: none after the user changed it under the refusal still current. */
export function computeShownFieldError(error: string | null | undefined, refusal: unknown, edited: FieldEdit | null): string | null {
  if (!error) return null;
  return refusal && edited !== null && edited.refusal === refusal ? null : error;
}

/**
 * What a change of the field leaves behind: the current refusal when the field showed an error under one;
 * otherwise what was kept before (an error worked out while there is no refusal is not the refusal's).
 */
export function computeFieldEdit(shownError: string | null, refusal: unknown, edited: FieldEdit | null): FieldEdit | null {
  return shownError && refusal ? { refusal } : edited;
}
