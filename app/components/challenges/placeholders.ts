/** How many playful flag-box placeholders each language has (`challenge.placeholders.0` … `.20`). */
export const FLAG_PLACEHOLDER_COUNT = 21;

/**
 * Which line the flag box shows: the one `random` (0 ≤ random < 1) picks when it fits the box's `room`,
 * else one of those that fit, picked by the same number, else the narrowest (a phone's box holds only the
 * short ones: the long ones were cut mid-sentence). `width` measures a line in the placeholder's font.
 */
export function pickPlaceholder(lines: readonly string[], random: number, room: number, width: (line: string) => number): number {
  const widths = lines.map(width);
  const picked = Math.floor(random * lines.length);
  if (widths[picked]! <= room) return picked;
  const fitting = widths.flatMap((w, i) => (w <= room ? [i] : []));
  if (fitting.length > 0) return fitting[Math.floor(random * fitting.length)]!;
  return widths.indexOf(Math.min(...widths));
}
