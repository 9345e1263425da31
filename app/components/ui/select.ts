/** The look of a compact native <select> (the header's language and theme switches). */
export const selectClass =
  "touch-target rounded-md border border-zinc-300 bg-white py-1.5 ps-2 pe-7 text-sm text-zinc-900 hover:border-zinc-400 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:border-zinc-500";
