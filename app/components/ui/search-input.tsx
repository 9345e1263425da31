import type { ComponentProps } from "react";

/** The search box above a table filtered in the browser (its label is `aria-label`, the hint a placeholder). */
export function SearchInput(props: Omit<ComponentProps<"input">, "type" | "className">) {
  return (
    <input
      type="search"
      maxLength={64}
      className="touch-target block w-64 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      {...props}
    />
  );
}
