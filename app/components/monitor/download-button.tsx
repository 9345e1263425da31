import i18next from "i18next";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useTimeReached } from "~/components/games/time";
import { Button } from "~/components/ui/button";

/** The file name from a Content-Disposition header (RFC 6266 `filename*` first). */
export function dispositionFileName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // fall through to the plain name
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback;
}

async function readWithProgress(response: Response, onProgress: (fraction: number | null) => void): Promise<Blob> {
  const total = Number(response.headers.get("Content-Length") ?? "0");
  if (!response.body) return response.blob();
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress(total > 0 ? Math.min(1, received / total) : null);
  }
  return new Blob(chunks, { type: response.headers.get("Content-Type") ?? "application/octet-stream" });
}

/**
 * Downloads a generated file (the monitor's Excel exports) with a spinner and, when the size is known,
 * the progress; a refusal shows the server's localised message.
 */
export function DownloadButton({
  href,
  label,
  fallbackName,
  unavailable = false,
  describedBy,
}: {
  href: string;
  label: string;
  fallbackName: string;
  /** Not available yet (the reason is shown by the caller, in the element `describedBy` names). */
  unavailable?: boolean;
  describedBy?: string;
}) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<number | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const busy = progress !== undefined;

  async function download() {
    setError(null);
    setProgress(null);
    try {
      const language = i18next.resolvedLanguage ?? i18next.language;
      const response = await fetch(href, { credentials: "same-origin", headers: language ? { "Accept-Language": language } : {} });
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { title?: string } | null;
        throw new Error(body?.title ?? t("common:error.unknown"));
      }
      const blob = await readWithProgress(response, setProgress);
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = dispositionFileName(response.headers.get("Content-Disposition"), fallbackName);
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      setError(t("exports.failed", { message: err instanceof Error ? err.message : t("common:error.unknown") }));
    } finally {
      setProgress(undefined);
    }
  }

  return (
    <span className="inline-flex flex-col items-end gap-1">
      <span className="inline-flex items-center gap-2">
        <Button variant="secondary" className="px-3 py-1.5" onClick={() => void download()} disabled={busy || unavailable} aria-busy={busy} aria-describedby={describedBy}>
          {busy ? <span aria-hidden className="size-3.5 animate-spin rounded-full border-2 border-current border-t-transparent" /> : null}
          {label}
        </Button>
        <span role="status" className="text-xs tabular-nums text-zinc-600 dark:text-zinc-400">
          {busy ? (typeof progress === "number" ? `${Math.round(progress * 100)}%` : t("exports.downloading")) : ""}
        </span>
      </span>
      {error ? (
        <span role="alert" className="text-xs text-red-700 dark:text-red-300">
          {error}
        </span>
      ) : null}
    </span>
  );
}

/** When a game's sheets open: its start, and the server's time when the page's data was read. */
export interface SheetTiming {
  start: number;
  serverTime: number;
}

/**
 * The two Excel exports of a game (Monitor), as download buttons. Before the game's `start` (when given)
 * there is no scoreboard to export (the API refuses it with 10001) nor a submission: both are disabled,
 * with the reason, until the start comes on the server's clock (useTimeReached).
 */
export function SheetDownloads({ gameId, start, serverTime }: { gameId: number; start?: number; serverTime?: number }) {
  const { t } = useTranslation();
  const reasonId = useId();
  const started = useTimeReached(start ?? null, serverTime);
  const unavailable = start !== undefined && !started;
  const describedBy = unavailable ? reasonId : undefined;
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap items-start gap-2">
        <DownloadButton href={`/api/game/${gameId}/scoreboardsheet`} label={t("monitor.downloadScoreboard")} fallbackName="Scoreboard.xlsx" unavailable={unavailable} describedBy={describedBy} />
        <DownloadButton href={`/api/game/${gameId}/submissionsheet`} label={t("monitor.downloadSubmissions")} fallbackName="Submissions.xlsx" unavailable={unavailable} describedBy={describedBy} />
      </div>
      {unavailable ? (
        <p id={reasonId} className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="sheets-not-started">
          {t("monitor.sheetsAfterStart")}
        </p>
      ) : null}
    </div>
  );
}
