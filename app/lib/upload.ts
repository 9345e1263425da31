import i18next from "i18next";
import { FILE_LIMITS, formatByteSize } from "~/core/http/body-limit";
import { planUploadBatches } from "~/core/http/upload-batches";
import { ApiError, api } from "~/lib/api";

/**
 * Sends a multipart form with XMLHttpRequest, the only browser API that reports upload progress, with the
 * UI language in Accept-Language. Resolves with the JSON answer; rejects with an ApiError carrying the
 * server's localised title.
 */
export function sendFormWithProgress<T>(
  method: "PUT" | "POST",
  url: string,
  form: FormData,
  onProgress: (fraction: number) => void,
  accept: (body: unknown) => boolean = () => true,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    const language = i18next.resolvedLanguage ?? i18next.language;
    if (language) xhr.setRequestHeader("Accept-Language", language);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(i18next.t("common:error.network"), 0));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && accept(body)) {
        onProgress(1);
        resolve(body as T);
        return;
      }
      const title =
        typeof (body as { title?: unknown } | null)?.title === "string" ? (body as { title: string }).title : i18next.t("common:error.unknown");
      reject(new ApiError(title, xhr.status));
    };
    xhr.send(form);
  });
}

/** Sends one file as multipart `file` (PUT unless told). */
export function uploadWithProgress<T>(url: string, file: File, onProgress: (fraction: number) => void, method: "PUT" | "POST" = "PUT"): Promise<T> {
  const form = new FormData();
  form.append("file", file);
  return sendFormWithProgress<T>(method, url, form, onProgress);
}

/** POSTs a ready-made multipart form. */
export function postFormWithProgress<T>(url: string, form: FormData, onProgress: (fraction: number) => void): Promise<T> {
  return sendFormWithProgress<T>("POST", url, form, onProgress);
}

/** POSTs files to /api/assets as multipart `files`; resolves with the stored `{hash, name}` list in upload order. */
function uploadAssets(files: File[], onProgress: (fraction: number) => void): Promise<{ hash: string; name: string }[]> {
  const form = new FormData();
  for (const file of files) form.append("files", file);
  return sendFormWithProgress("POST", "/api/assets", form, onProgress, Array.isArray);
}

/**
 * Uploads files for an attachment: POSTs them to /api/assets (in as many requests as the body cap needs,
 * progress counted over all of them), hands the stored list to `attach` (whose attachment rows add their
 * own references), then drops the upload's own reference to every stored file, whether `attach` or a
 * later request succeeded or not. A file uploaded this way then lives as long as what refers to it
 * (api.md §8: a blob is removed when nothing refers to it); the same bytes kept in Admin → Settings →
 * Files keep theirs. An empty or too large file is refused by name before anything is sent.
 */
export async function uploadForAttachment<T>(
  files: File[],
  onProgress: (fraction: number) => void,
  attach: (stored: { hash: string; name: string }[]) => Promise<T>,
): Promise<T> {
  const plan = planUploadBatches(files);
  if (!plan.ok) {
    const name = files[plan.index]!.name;
    const message =
      plan.reason === "empty"
        ? i18next.t("common:upload.fileEmptyNamed", { name })
        : i18next.t("common:upload.fileTooLarge", { name, limit: formatByteSize(FILE_LIMITS.attachment) });
    throw new ApiError(message, 400);
  }
  const total = files.reduce((sum, file) => sum + file.size, 0);
  const stored: { hash: string; name: string }[] = [];
  try {
    let sent = 0;
    for (const batch of plan.batches) {
      const part = batch.map((i) => files[i]!);
      const size = part.reduce((sum, file) => sum + file.size, 0);
      stored.push(...(await uploadAssets(part, (fraction) => onProgress((sent + fraction * size) / total))));
      sent += size;
    }
    return await attach(stored);
  } finally {
    await Promise.allSettled(stored.map((file) => api(`/api/assets/${file.hash}`, { method: "DELETE" })));
  }
}
