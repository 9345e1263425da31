import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown";

/** Every opening tag in the output, lower-cased, e.g. ["p", "a", "img"]. */
function tags(html: string): string[] {
  return [...html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1]!.toLowerCase());
}

/** Every attribute name inside real tags. */
function attributes(html: string): string[] {
  const names: string[] = [];
  // micromark always double-quotes attribute values and escapes quotes inside them, so a tag is
  // `<name (attr="value" | attr)* /?>`; anything else would be a parse failure the test reports.
  for (const tag of html.matchAll(/<[a-zA-Z][a-zA-Z0-9-]*((?:\s+[a-zA-Z-:]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    for (const attr of tag[1]!.matchAll(/\s+([a-zA-Z-:]+)(?:="[^"]*")?/g)) names.push(attr[1]!.toLowerCase());
  }
  return names;
}

const ALLOWED_TAGS = new Set([
  "p", "a", "img", "em", "strong", "del", "code", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li",
  "blockquote", "hr", "br", "table", "thead", "tbody", "tr", "th", "td", "input", "section", "sup",
]);
const ALLOWED_ATTRIBUTES = new Set([
  "href", "src", "alt", "title", "rel", "class", "id", "align", "type", "checked", "disabled", "start",
  "data-footnotes", "data-footnote-ref", "data-footnote-backref", "aria-describedby", "aria-label",
]);

const VECTORS = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "<svg onload=alert(1)>",
  "<iframe src=\"javascript:alert(1)\"></iframe>",
  "<a href=\"javascript:alert(1)\">x</a>",
  "[x](javascript:alert(1))",
  "[x](JaVaScRiPt:alert(1))",
  "[x](  javascript:alert(1))",
  "[x](java&#115;cript:alert(1))",
  "[x](&#106;avascript:alert(1))",
  "[x](vbscript:msgbox(1))",
  "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
  "![x](javascript:alert(1))",
  "<javascript:alert(1)>",
  "[x]: javascript:alert(1)\n\n[x]",
  "[x](\"onmouseover=\"alert(1))",
  "![x\" onerror=\"alert(1)](https://example.com/a.png)",
  "[x](https://example.com/\"onmouseover=\"alert(1))",
  "<style>body{display:none}</style>",
  "<div style=\"background:url(javascript:alert(1))\">x</div>",
  "<object data=\"data:text/html,<script>alert(1)</script>\"></object>",
  "<form action=javascript:alert(1)><button>x</button></form>",
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
  "`<script>alert(1)</script>`",
  "```html\n<script>alert(1)</script>\n```",
  "| a |\n| - |\n| <script>alert(1)</script> |",
  "- [ ] <img src=x onerror=alert(1)>",
  "<!-- --><script>alert(1)</script>",
  "<![CDATA[<script>alert(1)</script>]]>",
  "www.example.com/<script>alert(1)</script>",
];

describe("renderMarkdown", () => {
  it("renders ordinary Markdown", () => {
    const html = renderMarkdown("# Title\n\n**bold** and [link](https://example.com)\n\n| a | b |\n| - | - |\n| 1 | 2 |");
    // One level down: the page around it has the h1.
    expect(html).toContain("<h2>Title</h2>");
    expect(renderMarkdown("###### Six")).toContain("<h6>Six</h6>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain('<a rel="nofollow noopener noreferrer" href="https://example.com">link</a>');
    expect(html).toContain("<table>");
    expect(html).toContain("<td>2</td>");
  });

  it("keeps relative and mailto links and http images", () => {
    expect(renderMarkdown("[a](/posts/abc)")).toContain('href="/posts/abc"');
    expect(renderMarkdown("[a](mailto:x@example.com)")).toContain('href="mailto:x@example.com"');
    expect(renderMarkdown("![p](/assets/abc/p.png)")).toContain('src="/assets/abc/p.png"');
  });

  it("returns an empty string for empty input", () => {
    expect(renderMarkdown("")).toBe("");
    expect(renderMarkdown(null)).toBe("");
    expect(renderMarkdown(undefined)).toBe("");
  });

  it.each(VECTORS)("renders %j inert", (vector) => {
    const html = renderMarkdown(vector);
    for (const tag of tags(html)) expect(ALLOWED_TAGS, `tag <${tag}> in ${html}`).toContain(tag);
    for (const attr of attributes(html)) expect(ALLOWED_ATTRIBUTES, `attribute ${attr} in ${html}`).toContain(attr);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(href|src)="\s*(javascript|vbscript|data):/i);
    // Every "<" that starts a tag must form a well-formed tag (no unparsable markup slipped through).
    const opened = html.match(/<[a-zA-Z]/g)?.length ?? 0;
    const parsed = html.match(/<[a-zA-Z][a-zA-Z0-9-]*(?:\s+[a-zA-Z-:]+(?:="[^"]*")?)*\s*\/?>/g)?.length ?? 0;
    expect(parsed).toBe(opened);
  });

  it("escapes raw HTML as text", () => {
    expect(renderMarkdown("<script>alert(1)</script>")).toContain("&lt;script&gt;");
  });
});
