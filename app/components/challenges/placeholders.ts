/** How many playful flag-box placeholders each language has (`challenge.placeholders.0` … `.20`). */
export const FLAG_PLACEHOLDER_COUNT = 21;
