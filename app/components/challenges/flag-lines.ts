import { FLAG_MAX_LENGTH } from "~/core/game-room/schemas";
import { codePointLength } from "~/core/text-length";

export type StaticFlags = { ok: true; flags: string[] } | { ok: false; line: number; reason: "tooLong" };

/**
 * Static flags typed one per line: trimmed, blank lines skipped, duplicates kept once. A flag longer than
 * the server takes (in characters) is reported by its line (1-based), so a long batch says which one to shorten.
 */
export function parseStaticFlags(text: string): StaticFlags {
  const flags = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const flag = lines[i]!.trim();
    if (!flag) continue;
    if (codePointLength(flag) > FLAG_MAX_LENGTH) return { ok: false, line: i + 1, reason: "tooLong" };
    flags.add(flag);
  }
  return { ok: true, flags: [...flags] };
}

export type RemotePairs =
  | { ok: true; pairs: { flag: string; remoteUrl: string }[] }
  | { ok: false; line: number; reason: "format" | "tooLong" }
  | { ok: false; line: number; reason: "duplicate"; firstLine: number };

/**
 * Remote dynamic attachments, one "flag URL" pair per line (rules.md §5). The URL is the last
 * space-separated word, so a flag may itself contain spaces. Reports the first bad line (1-based): not a
 * flag and a link, a flag too long, or a flag an earlier line already pairs with a link.
 */
export function parseRemotePairs(text: string): RemotePairs {
  const pairs: { flag: string; remoteUrl: string }[] = [];
  const seen = new Map<string, number>(); // flag → its line
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    const cut = line.search(/\s+\S+$/);
    if (cut <= 0) return { ok: false, line: i + 1, reason: "format" };
    const flag = line.slice(0, cut).trim();
    const remoteUrl = line.slice(cut).trim();
    if (!/^https?:\/\/\S+$/i.test(remoteUrl)) return { ok: false, line: i + 1, reason: "format" };
    if (codePointLength(flag) > FLAG_MAX_LENGTH) return { ok: false, line: i + 1, reason: "tooLong" };
    const firstLine = seen.get(flag);
    if (firstLine !== undefined) return { ok: false, line: i + 1, reason: "duplicate", firstLine };
    seen.set(flag, i + 1);
    pairs.push({ flag, remoteUrl });
  }
  return { ok: true, pairs };
}
