import type { Ref } from "react";

/**
 * A file input hidden behind the label it is chosen with (styled as a button; app.css draws the input's
 * focus on that label). `onFile` gets the chosen file and the input (to clear it afterwards). While `busy`
 * (an upload runs) it opens no picker, but it is not disabled: a disabled input drops the keyboard focus to
 * the page.
 */
export function HiddenFileInput({ id, ref, accept, busy, onFile }: { id?: string; ref?: Ref<HTMLInputElement>; accept: string; busy: boolean; onFile: (file: File, input: HTMLInputElement) => void }) {
  return (
    <input
      id={id}
      ref={ref}
      type="file"
      accept={accept}
      className="sr-only"
      aria-disabled={busy || undefined}
      onClick={(event) => {
        if (busy) event.preventDefault();
      }}
      onChange={(event) => {
        const file = event.currentTarget.files?.[0];
        if (file) onFile(file, event.currentTarget);
      }}
    />
  );
}
