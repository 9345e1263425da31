import { type ComponentProps, useEffect, useId, useRef } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";

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

/**
 * A search the server runs: a GET form sending `hint`, with its hint shown under the box (it stays in sight
 * while typing and describes the box to screen readers) and a submit button named like the box.
 */
export function HintSearchForm({ label, hint, defaultValue, widthClass = "w-64" }: { label: string; hint: string; defaultValue: string; widthClass?: string }) {
  const hintId = useId();
  // The box says what the rows below were searched for: Back and Forward change the address, not the box.
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (box.current && box.current.value !== defaultValue) box.current.value = defaultValue;
  }, [defaultValue]);
  return (
    <Form method="get" role="search" className="flex items-start gap-2">
      <div className="flex flex-col gap-1">
        <input
          ref={box}
          type="search"
          name="hint"
          defaultValue={defaultValue}
          maxLength={64}
          aria-label={label}
          aria-describedby={hintId}
          className={`touch-target block ${widthClass} max-w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900`}
        />
        <span id={hintId} className="text-xs text-zinc-600 dark:text-zinc-400">
          {hint}
        </span>
      </div>
      <Button type="submit" variant="secondary">
        {label}
      </Button>
    </Form>
  );
}
