import i18next from "i18next";
import { ApiError } from "~/lib/api";

/**
 * Sends a file as multipart `file` (PUT unless told) with XMLHttpRequest, the only browser API that reports upload progress.
 * Resolves with the JSON answer; rejects with an ApiError carrying the server's localised title.
 */
export function uploadWithProgress<T>(url: string, file: File, onProgress: (fraction: number) => void, method: "PUT" | "POST" = "PUT"): Promise<T> {
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
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body as T);
        return;
      }
      const title = typeof (body as { title?: unknown } | null)?.title === "string" ? (body as { title: string }).title : i18next.t("common:error.unknown");
      reject(new ApiError(title, xhr.status));
    };
    const form = new FormData();
    form.append("file", file);
    xhr.send(form);
  });
}
