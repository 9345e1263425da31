import type { ReactNode } from "react";

/** Stands for the element in the translated sentence; a character no translation or value contains. */
const SLOT = "\u0000";

/**
 * A translated sentence with an element in it ("Instance: <code>…</code>"): the sentence, colon and
 * brackets included, stays one key in each language, and the element is drawn where its variable stands.
 * `text` gets the value to pass for that variable.
 */
export function Slotted({ text, children }: { text: (slot: string) => string; children: ReactNode }) {
  const [before, after = ""] = text(SLOT).split(SLOT);
  return (
    <>
      {before}
      {children}
      {after}
    </>
  );
}
