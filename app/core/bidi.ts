/**
 * Unicode's explicit text-direction controls: embeddings and overrides (U+202A–U+202E) and isolates
 * (U+2066–U+2069). One of them in a name turns the text around it: "‮niw su" shows as "us win", and inside
 * a sentence the platform writes ("Congratulations to … for the first blood") it reverses the platform's
 * own words after it. Implicit marks (U+200E/U+200F) only nudge neutral characters and are left alone.
 */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

export function hasBidiControl(text: string): boolean {
  return BIDI_CONTROL.test(text);
}

/** The text without direction controls: a value put into a sentence cannot turn the sentence around. */
export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, "");
}
