import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "~/components/ui/alert";
import { buttonClass } from "~/components/ui/button";
import { errorMessage } from "~/lib/api";
import { uploadWithProgress } from "./upload";

const MAX_BYTES = 3 * 1024 * 1024;

/** Chooses and uploads a team avatar, showing the upload's progress. */
export function AvatarUpload({ teamId, onUploaded }: { teamId: number; onUploaded: () => void }) {
  const { t } = useTranslation();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function upload(file: File) {
    setError(null);
    if (file.size > MAX_BYTES) {
      setError(t("teams.avatarTooLarge"));
      return;
    }
    setProgress(0);
    try {
      await uploadWithProgress<string>(`/api/team/${teamId}/avatar`, file, setProgress);
      onUploaded();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setProgress(null);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <div className="space-y-2">
      <label htmlFor={inputId} className={buttonClass("secondary", "cursor-pointer")}>
        {t("teams.uploadAvatar")}
      </label>
      <input
        id={inputId}
        ref={input}
        type="file"
        accept="image/png,image/jpeg,image/gif,image/webp"
        className="sr-only"
        disabled={progress !== null}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          if (file) void upload(file);
        }}
      />
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("teams.avatarHint")}</p>
      {progress !== null ? (
        <div className="space-y-1">
          <progress className="h-2 w-full accent-primary-600" max={100} value={Math.round(progress * 100)} aria-label={t("teams.uploading")} />
          <p className="text-xs text-zinc-600 dark:text-zinc-400" aria-live="polite">
            {t("teams.uploadProgress", { percent: Math.round(progress * 100) })}
          </p>
        </div>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </div>
  );
}
