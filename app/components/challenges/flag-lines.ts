/** Static flags typed one per line: trimmed, blank lines skipped, duplicates kept once. */
export function parseStaticFlags(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== ""))];
}

export type RemotePairs = { ok: true; pairs: { flag: string; remoteUrl: string }[] } | { ok: false; line: number };

/**
 * Remote dynamic attachments, one "flag URL" pair per line (rules.md §5). The URL is the last
 * space-separated word, so a flag may itself contain spaces. Reports the first malformed line (1-based).
 */
export function parseRemotePairs(text: string): RemotePairs {
  const pairs: { flag: string; remoteUrl: string }[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    const cut = line.search(/\s+\S+$/);
    if (cut <= 0) return { ok: false, line: i + 1 };
    const flag = line.slice(0, cut).trim();
    const remoteUrl = line.slice(cut).trim();
    if (!/^https?:\/\/\S+$/i.test(remoteUrl)) return { ok: false, line: i + 1 };
    pairs.push({ flag, remoteUrl });
  }
  return { ok: true, pairs };
}
