import type { Ref } from "react";

type Choice =
  /** `onFile` gets the chosen file and the input (to clear it afterwards). */
  | { onFile: (file: File, input: HTMLInputElement) => void; onFiles?: undefined }
  /** `onFiles` gets the chosen files, none when the choice was cleared, and the input. */
  | { onFiles: (files: File[], input: HTMLInputElement) => void; onFile?: undefined };

/**
 * A file input hidden behind the label it is chosen with (styled as a button; app.css draws the input's
 * focus on that label). The browser's own chooser would show its button and "No file chosen" in the
 * browser's language, whatever the page's (FileChooser shows the choice in the page's). While `busy` (an upload runs) it opens
 * no picker, but it is not disabled: a disabled input drops the keyboard focus to the page.
 */
export function HiddenFileInput({
  id,
  ref,
  accept,
  busy,
  labelledBy,
  describedBy,
  multiple,
  ...choice
}: { id?: string; ref?: Ref<HTMLInputElement>; accept?: string; busy: boolean; labelledBy?: string; describedBy?: string; multiple?: boolean } & Choice) {
  return (
    <input
      id={id}
      ref={ref}
      type="file"
      accept={accept}
      multiple={multiple}
      className="sr-only"
      aria-disabled={busy || undefined}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onClick={(event) => {
        if (busy) event.preventDefault();
      }}
      onChange={(event) => {
        const input = event.currentTarget;
        const files = [...(input.files ?? [])];
        if (choice.onFiles) choice.onFiles(files, input);
        else if (files[0]) choice.onFile(files[0], input);
      }}
    />
  );
}
