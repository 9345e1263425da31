import i18next from "i18next";
import { ApiError } from "~/lib/api";

/**
 * POSTs files to /api/assets as multipart `files` with XMLHttpRequest (the browser API that reports upload
 * progress). Resolves with the stored `{hash, name}` list in upload order.
 */
export function uploadAssets(files: File[], onProgress: (fraction: number) => void): Promise<{ hash: string; name: string }[]> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/assets");
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
      if (xhr.status >= 200 && xhr.status < 300 && Array.isArray(body)) {
        onProgress(1);
        resolve(body as { hash: string; name: string }[]);
        return;
      }
      const title = typeof (body as { title?: unknown } | null)?.title === "string" ? (body as { title: string }).title : i18next.t("common:error.unknown");
      reject(new ApiError(title, xhr.status));
    };
    const form = new FormData();
    for (const file of files) form.append("files", file);
    xhr.send(form);
  });
}
