import { useId, useRef, useState } from "react";
import { Alert } from "~/components/ui/alert";
import { buttonClass } from "~/components/ui/button";
import { HiddenFileInput } from "~/components/ui/hidden-file-input";
import { IMAGE_TYPES, imageFileProblem } from "~/core/ui/image-file";
import { errorMessage, isApiError } from "~/lib/api";
import { uploadWithProgress } from "~/lib/upload";

export interface ImageUploadLabels {
  button: string;
  hint: string;
  tooLarge: string;
  wrongType: string;
  empty: string;
  uploading: string;
  progress: (percent: number) => string;
}

/** Chooses an image and PUTs it as multipart `file` to `url`, showing the upload's progress. */
export function ImageUpload({
  url,
  labels,
  onUploaded,
  buttonClassName = "cursor-pointer",
}: {
  url: string;
  labels: ImageUploadLabels;
  onUploaded: () => void | Promise<void>;
  buttonClassName?: string;
}) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function upload(file: File) {
    setError(null);
    const problem = imageFileProblem(file);
    if (problem) {
      setError(labels[problem]);
      if (input.current) input.current.value = "";
      return;
    }
    setProgress(0);
    try {
      await uploadWithProgress<string>(url, file, setProgress);
      await onUploaded();
    } catch (err) {
      // The size and the browser's type were checked above: a 400 means the bytes are not an image.
      setError(isApiError(err) && err.status === 400 ? labels.wrongType : errorMessage(err));
    } finally {
      setProgress(null);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <div className="space-y-2">
      <label htmlFor={inputId} className={buttonClass("secondary", buttonClassName)}>
        {labels.button}
      </label>
      <HiddenFileInput id={inputId} ref={input} accept={IMAGE_TYPES.join(",")} busy={progress !== null} onFile={(file) => void upload(file)} />
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{labels.hint}</p>
      {progress !== null ? (
        <div className="space-y-1">
          <progress className="h-2 w-full accent-primary-600" max={100} value={Math.round(progress * 100)} aria-label={labels.uploading} />
          <p className="text-xs text-zinc-600 dark:text-zinc-400" aria-live="polite">
            {labels.progress(Math.round(progress * 100))}
          </p>
        </div>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </div>
  );
}

/** The labels of an area's avatar upload (`teams.*`, `profile.*`): same keys in both. */
export function avatarLabels(t: (key: string, params?: Record<string, unknown>) => string, area: "teams" | "profile"): ImageUploadLabels {
  return {
    button: t(`${area}.uploadAvatar`),
    hint: t(`${area}.avatarHint`),
    tooLarge: t(`${area}.avatarTooLarge`),
    wrongType: t("upload.imageWrongType"),
    empty: t("upload.fileEmpty"),
    uploading: t(`${area}.uploading`),
    progress: (percent) => t(`${area}.uploadProgress`, { percent }),
  };
}
