import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "~/components/ui/button";
import { HiddenFileInput } from "~/components/ui/hidden-file-input";

/**
 * A file chooser in the page's language, for files sent later by a form's button: a translated "Choose
 * file" button over a hidden input, and the choice beside it (the file's name, how many files, or "No file
 * chosen"), which the input is described by. `files` is the parent's state: setting it empty clears the
 * input too, so the same file can be chosen again after an upload.
 */
export function FileChooser({
  id,
  label,
  accept,
  multiple = false,
  files,
  busy,
  onChange,
}: {
  id: string;
  /** The field's name above the button. */
  label: string;
  accept?: string;
  multiple?: boolean;
  files: readonly File[];
  busy: boolean;
  onChange: (files: File[]) => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (files.length === 0 && input.current) input.current.value = "";
  }, [files]);
  const chosen = files.length === 0 ? t("upload.noneChosen") : files.length === 1 ? files[0]!.name : t("upload.chosen", { count: files.length });
  return (
    <div className="space-y-1.5">
      <span id={`${id}-label`} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </span>
      <div className="flex flex-wrap items-center gap-3">
        <label id={`${id}-button`} htmlFor={id} className={buttonClass("secondary", busy ? "pointer-events-none opacity-60" : "cursor-pointer")}>
          {multiple ? t("upload.chooseMany") : t("upload.choose")}
        </label>
        <HiddenFileInput
          id={id}
          ref={input}
          accept={accept}
          multiple={multiple}
          busy={busy}
          labelledBy={`${id}-label ${id}-button`}
          describedBy={`${id}-chosen`}
          onFiles={(chosenFiles) => onChange(chosenFiles)}
        />
        <span id={`${id}-chosen`} className="min-w-0 text-sm break-all text-zinc-600 dark:text-zinc-400" data-testid={`${id}-chosen`}>
          {chosen}
        </span>
      </div>
    </div>
  );
}
