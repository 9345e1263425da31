import { type ComponentProps, useRef, useState } from "react";
import { computeSelectChange, computeSelectCommit, computeSelectKey, type HeldChoice } from "~/core/ui/select-commit";

/**
 * A native select that saves its choice at once (`onCommit`, resolving false when the save failed): a choice
 * from its list, by pointer or from the list opened with the keyboard, is saved when made; the values the
 * keys step through in the closed select are held and saved once, on Enter or when the focus leaves it
 * (app/core/ui/select-commit.ts). It shows the value it saves until `value` (the saved one) follows, and
 * stays focusable while `saving` (aria-disabled: a disabled control drops the keyboard focus to the page),
 * ignoring changes then.
 */
export function CommitSelect({
  value: saved,
  saving = false,
  onCommit,
  children,
  ...props
}: Omit<ComponentProps<"select">, "value" | "defaultValue" | "onChange" | "onKeyDown" | "onBlur" | "onPointerDown"> & {
  value: string;
  saving?: boolean;
  onCommit: (value: string) => Promise<boolean>;
}) {
  const [held, setHeld] = useState<HeldChoice<string> | null>(null);
  const [sent, setSent] = useState<HeldChoice<string> | null>(null);
  // Whether the next `change` comes from a key stepping through the closed select.
  const stepping = useRef(false);
  const shown = held && held.from === saved ? held.value : sent && sent.from === saved ? sent.value : saved;

  function save(value: string) {
    setHeld(null);
    setSent({ value, from: saved });
    void onCommit(value).then((ok) => {
      if (!ok) setSent(null);
    });
  }

  /** Saves what the keys stepped to, if anything; says whether it did. */
  function commit(): boolean {
    const value = computeSelectCommit(held, saved);
    setHeld(null);
    if (value !== null) save(value);
    return value !== null;
  }

  return (
    <select
      {...props}
      value={shown}
      aria-disabled={saving || undefined}
      onPointerDown={() => {
        stepping.current = false;
      }}
      onKeyDown={(event) => {
        const key = computeSelectKey(event);
        if (key === "step") stepping.current = true;
        else if (key !== "none") stepping.current = false;
        // Enter saves what is held and nothing more (Chromium would open the list on it too).
        if (key === "commit" && commit()) event.preventDefault();
      }}
      onChange={(event) => {
        // A key's step is the change that follows its press, no later one (a screen reader may set the value).
        const stepped = stepping.current;
        stepping.current = false;
        if (saving) return;
        const outcome = computeSelectChange(stepped, event.target.value, saved);
        if (outcome === null) setHeld(null);
        else if ("hold" in outcome) setHeld(outcome.hold);
        else save(outcome.save);
      }}
      onBlur={() => {
        stepping.current = false;
        commit();
      }}
    >
      {children}
    </select>
  );
}
