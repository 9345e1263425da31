import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/teams/dialog";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FileChooser } from "~/components/ui/file-chooser";
import { api, errorMessage } from "~/lib/api";
import { postFormWithProgress } from "~/lib/upload";

interface LocalFile {
  hash: string;
  name: string;
}

const PAGE = 50;

/** Uploads (several files, with progress), the stored files newest first, and releasing one. */
export function FilesSection() {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<File[]>([]);
  const [files, setFiles] = useState<LocalFile[] | null>(null);
  const [total, setTotal] = useState(0);
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [target, setTarget] = useState<LocalFile | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const load = useCallback(async (count: number) => {
    try {
      const page = await api<{ data: LocalFile[]; total: number }>(`/api/admin/files?count=${count}&skip=0`);
      setFiles(page.data);
      setTotal(page.total);
    } catch (error) {
      setMessage({ tone: "error", text: errorMessage(error) });
      setFiles([]);
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    api<{ data: LocalFile[]; total: number }>(`/api/admin/files?count=${PAGE}&skip=0`, { signal: controller.signal })
      .then((page) => {
        setFiles(page.data);
        setTotal(page.total);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setMessage({ tone: "error", text: errorMessage(error) });
        setFiles([]);
      });
    return () => controller.abort();
  }, []);

  async function upload(event: FormEvent) {
    event.preventDefault();
    const form = new FormData();
    for (const file of chosen) form.append("files", file);
    setMessage(null);
    setProgress(0);
    try {
      const stored = await postFormWithProgress<LocalFile[]>("/api/assets", form, setProgress);
      setMessage({ tone: "success", text: t("settings.files.uploaded", { count: stored.length }) });
      setChosen([]);
      await load(Math.max(PAGE, files?.length ?? 0));
    } catch (error) {
      setMessage({ tone: "error", text: errorMessage(error) });
    } finally {
      setProgress(null);
    }
  }

  async function remove() {
    if (!target) return;
    setBusy(true);
    setDeleteError(null);
    try {
      // The title says whether the file went or stays because something else still uses it.
      const result = await api<{ title: string }>(`/api/assets/${target.hash}`, { method: "DELETE" });
      setTarget(null);
      setMessage({ tone: "success", text: result.title });
      await load(Math.max(PAGE, files?.length ?? 0));
    } catch (error) {
      setDeleteError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card aria-labelledby="settings-files-heading">
      <h2 id="settings-files-heading" className="mb-4 text-lg font-semibold">
        {t("settings.files.heading")}
      </h2>
      <form className="flex flex-wrap items-end gap-3" onSubmit={(event) => void upload(event)}>
        <FileChooser id="settings-files" label={t("settings.files.choose")} multiple files={chosen} busy={progress !== null} onChange={setChosen} />
        <Button type="submit" disabled={progress !== null}>
          {progress !== null ? t("settings.files.uploading", { percent: Math.round(progress * 100) }) : t("settings.files.upload")}
        </Button>
        {progress !== null ? <progress max={1} value={progress} className="w-48" aria-label={t("settings.files.upload")} /> : null}
      </form>
      {message ? (
        <div className="mt-4">
          <Alert tone={message.tone}>{message.text}</Alert>
        </div>
      ) : null}
      <div className="mt-4 overflow-x-auto">
        {files === null ? (
          <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
            {t("common.loading")}
          </p>
        ) : files.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("settings.files.empty")}</p>
        ) : (
          <table className="w-full text-sm">
            <thead className="text-start text-xs uppercase text-zinc-600 dark:text-zinc-400">
              <tr>
                <th className="px-2 py-2 text-start">{t("settings.files.name")}</th>
                <th className="px-2 py-2 text-start">{t("settings.files.hash")}</th>
                <th className="px-2 py-2 text-end">{t("settings.files.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {files.map((file) => (
                <tr key={file.hash} className="border-t border-zinc-200 dark:border-zinc-800">
                  <td className="px-2 py-2">
                    <a href={`/assets/${file.hash}/${encodeURIComponent(file.name)}`} className="text-primary-700 hover:underline dark:text-primary-300">
                      {file.name}
                    </a>
                  </td>
                  <td className="px-2 py-2 font-mono text-xs text-zinc-600 dark:text-zinc-400" title={file.hash}>
                    {file.hash.slice(0, 16)}…
                  </td>
                  <td className="px-2 py-2 text-end">
                    <Button variant="ghost" className="px-2 py-1" aria-label={`${t("settings.files.delete")} ${file.name}`} onClick={() => setTarget(file)}>
                      {t("settings.files.delete")}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {files && files.length < total ? (
          <div className="mt-3 flex justify-center">
            <Button variant="secondary" onClick={() => void load(Math.min(500, files.length + PAGE))}>
              {t("settings.files.more")}
            </Button>
          </div>
        ) : null}
      </div>
      <ConfirmDialog
        open={target !== null}
        title={t("settings.files.deleteTitle")}
        message={t("settings.files.deleteConfirm", { name: target?.name ?? "" })}
        confirmLabel={t("settings.files.delete")}
        busy={busy}
        error={deleteError}
        onConfirm={() => void remove()}
        onCancel={() => {
          setTarget(null);
          setDeleteError(null);
        }}
      />
    </Card>
  );
}
