import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatCountdown, formatDateTime, MAX_TIMER_MS, useNow, useWhileVisible } from "~/components/games/time";
import { Markdown } from "~/components/markdown";
import { uploadWithProgress } from "~/lib/upload";
import { Alert } from "~/components/ui/alert";
import { buttonClass } from "~/components/ui/button";
import { HiddenFileInput } from "~/components/ui/hidden-file-input";
import { api, errorMessage } from "~/lib/api";
import { serverNow } from "~/lib/server-clock";
import { formatFileSize, precheckWriteup, writeupWindow } from "./format";

/** GET /api/game/{id}/writeup (app/.server/services/writeups.ts WriteupStatus). */
export interface WriteupStatus {
  submitted: boolean;
  name: string;
  fileSize: number;
  note: string;
  deadline: number;
  uploadTime: number | null;
  url: string | null;
}

/** How often an open box reads its state again, as often as the game page reads the game: an admin may move the deadline or change the instruction. */
const WRITEUP_REFRESH_MS = 30_000;

/**
 * The writeup box of an accepted team on the game page: the instruction, the deadline with a countdown,
 * the current state and an upload with progress (a new upload replaces the old file). It follows what the
 * server enforces: read again every 30 s while the tab is shown, when the tab is shown again, after a
 * refused upload, and before saying the deadline it read has passed.
 */
export function WriteupPanel({ gameId }: { gameId: number }) {
  const { t } = useTranslation();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const now = useNow();
  const [status, setStatus] = useState<WriteupStatus | null>(null);
  // When the shown status was read, on the server's clock.
  const [readAt, setReadAt] = useState(0);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  // Bumped to read the state again.
  const [version, setVersion] = useState(0);
  const reread = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    api<WriteupStatus>(`/api/game/${gameId}/writeup`, { signal: controller.signal }).then(
      (next) => {
        setStatus(next);
        setReadAt(serverNow());
        setLoadError(null);
      },
      (err: unknown) => {
        if (!controller.signal.aborted) setLoadError(errorMessage(err));
      },
    );
    return () => controller.abort();
  }, [gameId, version]);

  useWhileVisible(reread, WRITEUP_REFRESH_MS);

  // Once the deadline read has passed, read it again (it may have been moved) before closing the box.
  const deadline = status?.deadline ?? null;
  useEffect(() => {
    if (deadline === null || readAt > deadline) return;
    const timer = setTimeout(reread, Math.min(Math.max(deadline + 1 - serverNow(), 0), MAX_TIMER_MS));
    return () => clearTimeout(timer);
  }, [deadline, readAt, reread]);

  const standing = status === null || now === null ? null : writeupWindow(status.deadline, now, readAt);

  async function upload(file: File) {
    setError(null);
    setMessage(null);
    if (precheckWriteup(file) !== "ok") {
      setError(t("writeups.invalidFile"));
      if (input.current) input.current.value = "";
      return;
    }
    setProgress(0);
    try {
      const result = await uploadWithProgress<{ title: string }>(`/api/game/${gameId}/writeup`, file, setProgress, "POST");
      setMessage(result.title);
      reread();
    } catch (err) {
      setError(errorMessage(err));
      // Refused perhaps because the deadline moved: the box shows what is enforced now.
      reread();
    } finally {
      setProgress(null);
      if (input.current) input.current.value = "";
    }
  }

  const open = status !== null && standing !== "closed";

  return (
    <section aria-labelledby={`${inputId}-title`} className="space-y-4" data-testid="writeup-panel">
      <h2 id={`${inputId}-title`} className="text-lg font-semibold">
        {t("writeups.title")}
      </h2>
      {loadError ? <Alert tone="error">{loadError}</Alert> : null}
      {status === null && !loadError ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("common.loading")}</p> : null}
      {status ? (
        <>
          {status.note ? <Markdown source={status.note} /> : null}
          <dl className="grid gap-3 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-zinc-500 dark:text-zinc-400">{t("writeups.deadline")}</dt>
              <dd className="tabular-nums">{formatDateTime(status.deadline)}</dd>
            </div>
            <div>
              <dt className="text-zinc-500 dark:text-zinc-400">{t("writeups.timeLeft")}</dt>
              <dd className="font-semibold tabular-nums" data-testid="writeup-countdown">
                {now === null ? "—" : standing === "closed" ? t("writeups.closed") : formatCountdown(status.deadline - now, t)}
              </dd>
            </div>
            <div className="sm:col-span-2">
              <dt className="text-zinc-500 dark:text-zinc-400">{t("writeups.state")}</dt>
              <dd data-testid="writeup-state">
                {status.submitted ? (
                  <span>
                    <span className="font-medium text-emerald-700 dark:text-emerald-400">{t("writeups.submitted")}</span>
                    {" · "}
                    {status.url ? (
                      <a className="break-all text-primary-700 underline dark:text-primary-300" href={status.url} target="_blank" rel="noreferrer">
                        {status.name}
                      </a>
                    ) : (
                      <span className="break-all">{status.name}</span>
                    )}
                    {" · "}
                    {formatFileSize(status.fileSize)}
                    {status.uploadTime !== null ? ` · ${formatDateTime(status.uploadTime)}` : ""}
                  </span>
                ) : (
                  <span className="font-medium text-amber-700 dark:text-amber-400">{t("writeups.notSubmitted")}</span>
                )}
              </dd>
            </div>
          </dl>
          {open ? (
            <div className="space-y-2">
              <label htmlFor={inputId} className={buttonClass(status.submitted ? "secondary" : "primary", progress !== null ? "pointer-events-none opacity-60" : "cursor-pointer")}>
                {status.submitted ? t("writeups.replace") : t("writeups.upload")}
              </label>
              <HiddenFileInput id={inputId} ref={input} accept="application/pdf,.pdf" busy={progress !== null} onFile={(file) => void upload(file)} />
              <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("writeups.hint")}</p>
            </div>
          ) : (
            <Alert>{t("writeups.deadlinePassed")}</Alert>
          )}
          {progress !== null ? (
            <div className="space-y-1">
              <progress className="h-2 w-full accent-primary-600" max={100} value={Math.round(progress * 100)} aria-label={t("teams.uploading")} />
              <p className="text-xs text-zinc-600 dark:text-zinc-400" aria-live="polite">
                {t("teams.uploadProgress", { percent: Math.round(progress * 100) })}
              </p>
            </div>
          ) : null}
          {message ? <Alert tone="success">{message}</Alert> : null}
          {error ? <Alert tone="error">{error}</Alert> : null}
        </>
      ) : null}
    </section>
  );
}
