import type { ComponentProps, MouseEvent } from "react";

// Disabled looks come from `aria-disabled` (see Button): the `disabled:` variants stay for raw buttons.
const variants = {
  primary:
    "bg-primary-600 text-on-primary-600 hover:bg-primary-700 disabled:bg-primary-600/50 aria-disabled:bg-primary-600/50 dark:bg-primary-500 dark:text-on-primary-500 dark:hover:bg-primary-400 dark:disabled:bg-primary-500/50 dark:aria-disabled:bg-primary-500/50",
  secondary:
    "border border-zinc-300 bg-white text-zinc-900 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800 disabled:opacity-50 aria-disabled:opacity-50 disabled:hover:bg-white aria-disabled:hover:bg-white dark:disabled:hover:bg-zinc-900 dark:aria-disabled:hover:bg-zinc-900",
  ghost:
    "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800 disabled:opacity-50 aria-disabled:opacity-50 disabled:hover:bg-transparent aria-disabled:hover:bg-transparent",
  danger:
    "bg-red-600 text-white hover:bg-red-700 dark:bg-red-500 dark:text-zinc-950 dark:hover:bg-red-400 disabled:opacity-50 aria-disabled:opacity-50 disabled:hover:bg-red-600 aria-disabled:hover:bg-red-600 dark:disabled:hover:bg-red-500 dark:aria-disabled:hover:bg-red-500",
} as const;

export type ButtonVariant = keyof typeof variants;

// A label breaks only between words: `break-keep` keeps a Japanese or Chinese label whole (コピー broke into
// コピ / ー when its row squeezed the button to one character), so the button is never narrower than it;
// `max-w-full` and `wrap-break-word` still break a label wider than the whole row instead of overflowing.
export const LABEL_WHOLE = "break-keep wrap-break-word max-w-full";

export function buttonClass(variant: ButtonVariant = "primary", extra = "") {
  return `touch-target inline-flex items-center justify-center gap-2 ${LABEL_WHOLE} rounded-md px-4 py-2 text-sm font-medium transition-colors disabled:cursor-not-allowed aria-disabled:cursor-not-allowed ${variants[variant]} ${extra}`;
}

/**
 * A button. `disabled` is rendered as `aria-disabled` and the button ignores clicks (and the form submit a
 * click would start) meanwhile, instead of the `disabled` attribute: a button that turns disabled while its
 * action runs keeps the keyboard focus, where a disabled element drops it to the page's body (a keyboard
 * or screen-reader user then had to find their place again after every save). It stays announced as
 * unavailable.
 */
export function Button({ variant = "primary", className = "", type = "button", disabled = false, onClick, ...props }: ComponentProps<"button"> & { variant?: ButtonVariant }) {
  const click = (event: MouseEvent<HTMLButtonElement>) => {
    if (disabled) {
      event.preventDefault();
      return;
    }
    onClick?.(event);
  };
  return <button type={type} aria-disabled={disabled || undefined} className={buttonClass(variant, className)} onClick={click} {...props} />;
}
