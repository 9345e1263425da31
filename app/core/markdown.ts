import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";

/**
 * Markdown → HTML that is safe to insert with dangerouslySetInnerHTML, on the server and in the
 * browser alike (no DOM needed). micromark escapes all raw HTML (allowDangerousHtml stays off) and
 * keeps only safe URL protocols (links: http, https, mailto, irc, ircs, xmpp, relative; images: http,
 * https, relative), so `<script>`, event handlers, `javascript:` and `data:` URLs come out inert.
 * Links get rel="nofollow noopener noreferrer" so user content cannot reach window.opener.
 */
export function renderMarkdown(source: string | null | undefined): string {
  if (!source) return "";
  const html = micromark(source, {
    allowDangerousHtml: false,
    allowDangerousProtocol: false,
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
  });
  // Raw "<" in the input is escaped to "&lt;", so "<a href=" and "<h1>" here can only be what micromark
  // made. Every page that shows Markdown has its own h1 already: the author's highest heading becomes
  // an h2 and the others keep their distance from it ("# Welcome" made a second h1; "## Rules" under a
  // game's h1 became an h3 and skipped a level).
  const shift = headingShift([...html.matchAll(/<h([1-6])>/g)].map((m) => Number(m[1])));
  return html
    .replaceAll("<a href=", '<a rel="nofollow noopener noreferrer" href=')
    .replace(/<(\/?)h([1-6])>/g, (_, slash: string, level: string) => `<${slash}h${Math.min(6, Number(level) + shift)}>`);
}

/** How many levels every heading moves so that the highest of `levels` is an h2 (0 without headings). */
function headingShift(levels: number[]): number {
  return levels.length === 0 ? 0 : 2 - Math.min(...levels);
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };

/**
 * The first words of some Markdown as plain text, at most `max` characters (an ellipsis marks a cut, at a
 * space where the text has one): what names a notice in its buttons ("Delete notice “Maintenance at…”").
 */
export function markdownExcerpt(source: string | null | undefined, max = 40): string {
  const text = renderMarkdown(source)
    .replace(/<[^>]*>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name] ?? "")
    .replace(/\s+/g, " ")
    .trim();
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
