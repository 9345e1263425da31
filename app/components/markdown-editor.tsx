import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Markdown } from "~/components/markdown";
import { useCharacterLimit } from "~/components/ui/character-limit";

/**
 * A Markdown textarea with Write / Preview tabs; the preview uses the same safe renderer as the pages. `maxLength`
 * is in characters, as the server counts them. Controlled (`value`, `onChange`) or, in a form read as FormData,
 * from `defaultValue` (the textarea keeps its `name` and value while the preview shows). `error` is the form's
 * refusal of the field, shown under it as the other fields show theirs.
 */
export function MarkdownEditor({
  label,
  name,
  value: controlled,
  defaultValue = "",
  onChange,
  rows = 12,
  description,
  maxLength,
  error,
}: {
  label: string;
  name: string;
  value?: string;
  defaultValue?: string;
  onChange?: (value: string) => void;
  rows?: number;
  description?: string;
  maxLength?: number;
  error?: string | null;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [preview, setPreview] = useState(false);
  const [own, setOwn] = useState(defaultValue);
  const value = controlled ?? own;
  const limit = useCharacterLimit<HTMLTextAreaElement>(maxLength, value);
  const describedBy = [description ? `${id}-description` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  const tab = (active: boolean) =>
    `touch-target rounded-t-md px-3 py-1.5 text-sm font-medium ${
      active
        ? "border border-b-0 border-zinc-300 bg-white text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        : "text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
    }`;
  return (
    <div className="space-y-1.5">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {label}
        </label>
        <div className="flex gap-1">
          <button type="button" className={tab(!preview)} aria-pressed={!preview} onClick={() => setPreview(false)}>
            {t("posts.write")}
          </button>
          <button type="button" className={tab(preview)} aria-pressed={preview} onClick={() => setPreview(true)}>
            {t("posts.preview")}
          </button>
        </div>
      </div>
      <textarea
        id={id}
        name={name}
        rows={rows}
        value={value}
        {...limit}
        hidden={preview}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        onChange={(event) => {
          if (controlled === undefined) setOwn(event.target.value);
          onChange?.(event.target.value);
        }}
        className={`block w-full rounded-md border ${error ? "border-red-500 dark:border-red-400" : "border-zinc-300 dark:border-zinc-700"} bg-white px-3 py-2 font-mono text-sm text-zinc-900 shadow-xs focus:border-primary-500 focus:outline-2 focus:outline-offset-0 focus:outline-primary-500/40 dark:bg-zinc-900 dark:text-zinc-100`}
      />
      {preview ? (
        <div className="min-h-24 rounded-md border border-zinc-300 bg-white px-4 py-3 dark:border-zinc-700 dark:bg-zinc-900" data-testid={`${name}-preview`}>
          {value.trim() ? <Markdown source={value} /> : <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("posts.previewEmpty")}</p>}
        </div>
      ) : null}
      {description ? (
        <p id={`${id}-description`} className="text-xs text-zinc-600 dark:text-zinc-400">
          {description}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
