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
  // made. Headings go one level down: every page that shows Markdown has its own h1 already, and an
  // author's "# Welcome" made a second one.
  return html
    .replaceAll("<a href=", '<a rel="nofollow noopener noreferrer" href=')
    .replace(/<(\/?)h([1-5])>/g, (_, slash: string, level: string) => `<${slash}h${Number(level) + 1}>`);
}
