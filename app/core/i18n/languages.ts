/** Supported languages; en-US is the default and the fallback for anything else. */
export const LANGUAGES = ["en-US", "ja-JP", "zh-CN"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en-US";

const byPrefix: Record<string, Language> = { en: "en-US", ja: "ja-JP", zh: "zh-CN" };

/** Maps one language tag (en, ja_JP, zh-Hans-CN, EN-us …) to a supported language, or null. */
export function matchLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const norm = tag.trim().replace(/_/g, "-").toLowerCase();
  const exact = LANGUAGES.find((l) => l.toLowerCase() === norm);
  if (exact) return exact;
  const primary = norm.split("-")[0] ?? "";
  return byPrefix[primary] ?? null;
}

/** Picks the best supported language from an Accept-Language header (q-values honoured). */
export function languageFromAcceptLanguage(header: string | null | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const ranked = header
    .split(",")
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag, weight: Number.isFinite(weight) ? weight : 0, i };
    })
    .filter((x) => x.tag && x.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.i - b.i);
  for (const { tag } of ranked) {
    const lang = matchLanguage(tag);
    if (lang) return lang;
  }
  return DEFAULT_LANGUAGE;
}
