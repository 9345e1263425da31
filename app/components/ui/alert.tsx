import type { ReactNode } from "react";

// Fixed palettes, never the brand's primary-*: an organiser's red (or green) brand colour made information
// look like an error (or a success). Sky is kept apart from red and emerald in both themes.
const tones = {
  info: "border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-100",
  success:
    "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100",
  error: "border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100",
} as const;

/** A message box; errors interrupt screen readers, other tones are announced politely. */
export function Alert({ tone = "info", title, children, id }: { tone?: keyof typeof tones; title?: string; children?: ReactNode; id?: string }) {
  return (
    <div id={id} role={tone === "error" ? "alert" : "status"} className={`rounded-md border px-4 py-3 text-sm ${tones[tone]}`}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? "mt-1" : undefined}>{children}</div> : null}
    </div>
  );
}
