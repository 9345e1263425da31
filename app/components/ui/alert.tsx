import type { ReactNode } from "react";

// Fixed palettes, never the brand's primary-*: an organiser's red (or green) brand colour made information
// look like an error (or a success). Sky is kept apart from red and emerald in both themes.
const tones = {
  info: "border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-100",
  success:
    "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100",
  error: "border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100",
} as const;

/**
 * Each tone's shape (20 × 20, drawn in the text's colour), so that the tone does not rest on colour alone
 * (WCAG 1.4.1): an "i" in a circle, a tick in a circle, an exclamation mark in a triangle.
 */
const ICON_PATHS: Record<keyof typeof tones, string[]> = {
  info: ["M10 2.75a7.25 7.25 0 1 0 0 14.5a7.25 7.25 0 1 0 0-14.5z", "M10 9v5", "M10 6.25v.5"],
  success: ["M10 2.75a7.25 7.25 0 1 0 0 14.5a7.25 7.25 0 1 0 0-14.5z", "M6.75 10.25l2.25 2.25l4.25-4.5"],
  error: ["M10 2.75l7.5 13.5h-15z", "M10 8v4", "M10 14.25v.5"],
};

/** A message box; errors interrupt screen readers, other tones are announced politely. */
export function Alert({ tone = "info", title, children, id }: { tone?: keyof typeof tones; title?: string; children?: ReactNode; id?: string }) {
  return (
    <div id={id} role={tone === "error" ? "alert" : "status"} className={`flex gap-2.5 rounded-md border px-4 py-3 text-sm ${tones[tone]}`}>
      <svg aria-hidden="true" data-alert-icon={tone} viewBox="0 0 20 20" className="mt-0.5 size-4 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round">
        {ICON_PATHS[tone].map((d) => (
          <path key={d} d={d} />
        ))}
      </svg>
      <div className="min-w-0 flex-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div className={title ? "mt-1" : undefined}>{children}</div> : null}
      </div>
    </div>
  );
}
