/** A byte count for people: B, KB, MB (1024-based, at most one decimal). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

/** Largest writeup the server accepts (rules.md §13), checked early in the browser to save the upload. */
export const WRITEUP_MAX_BYTES = 20 * 1024 * 1024;

/** The browser-side precheck of a chosen file: a `.pdf` name, 1 B – 20 MB (the server also checks the bytes). */
export function precheckWriteup(file: { name: string; size: number }): "ok" | "invalid" {
  return /\.pdf$/i.test(file.name) && file.size >= 1 && file.size <= WRITEUP_MAX_BYTES ? "ok" : "invalid";
}

/**
 * Where the writeup box stands (rules.md §13: uploads are taken until the deadline, which an admin may
 * move): open before the deadline it last read; "checking" once that deadline has passed on the clock but
 * was read before it passed — the box reads it again before saying so; closed once a read made after the
 * deadline confirms it.
 */
export function writeupWindow(deadline: number, now: number, readAt: number): "open" | "checking" | "closed" {
  if (now <= deadline) return "open";
  return readAt <= deadline ? "checking" : "closed";
}
