import { describe, expect, it } from "vitest";
import { markdownExcerpt, renderMarkdown } from "./markdown";

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
    // The page around it has the h1: the author's highest heading becomes an h2.
    expect(html).toContain("<h2>Title</h2>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain('<a rel="nofollow noopener noreferrer" href="https://example.com">link</a>');
    expect(html).toContain("<table>");
    expect(html).toContain("<td>2</td>");
  });

  // Whatever level the author starts at, the highest heading is an h2 right under the page's h1, and the
  // others keep their distance from it (h6 is the floor).
  it.each([
    ["# A\n\n## B\n\n### C", ["h2", "h3", "h4"]],
    ["## Rules\n\n### Scoring", ["h2", "h3"]],
    ["Intro\n\n## Rules\n\ntext\n\n## Prizes", ["h2", "h2"]],
    ["### Deep\n\n#### Deeper\n\n### Deep again", ["h2", "h3", "h2"]],
    ["###### Six", ["h2"]],
    ["# One\n\n##### Five\n\n###### Six", ["h2", "h6", "h6"]],
    ["Setext\n======\n\n> ## Quoted", ["h2", "h3"]],
    ["no heading at all", []],
  ])("shifts the headings of %j to %j", (source, tags) => {
    const html = renderMarkdown(source);
    expect([...html.matchAll(/<(h[1-6])>/g)].map((m) => m[1])).toEqual(tags);
    expect([...html.matchAll(/<\/(h[1-6])>/g)].map((m) => m[1])).toEqual(tags);
  });

  it("counts a heading-like text in code as no heading", () => {
    expect(renderMarkdown("`<h1>` and\n\n```\n<h3>x</h3>\n```\n\n### Real")).toMatch(/<h2>Real<\/h2>/);
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

describe("markdownExcerpt", () => {
  it.each([
    ["Short notice.", "Short notice."],
    ["**Maintenance** at noon: the scoreboard pauses for a few minutes while we upgrade it.", "Maintenance at noon: the scoreboard…"],
    ["# Heading\n\n- [link](https://example.com) & `code`", "Heading link & code"],
    // Raw HTML shows as typed; a character reference as its character.
    ["Use <b>tags</b> &amp; entities", "Use <b>tags</b> & entities"],
    ["x".repeat(64), `${"x".repeat(40)}…`],
    ["サーバーのメンテナンスのため、正午から十分ほどスコアボードの更新を停止します。ご了承ください。", "サーバーのメンテナンスのため、正午から十分ほどスコアボードの更新を停止します。ご…"],
    ["", ""],
  ])("%j → %j", (source, excerpt) => {
    expect(markdownExcerpt(source)).toBe(excerpt);
  });

  it("never splits a character made of two code units", () => {
    expect(markdownExcerpt("🚩".repeat(50), 10)).toBe(`${"🚩".repeat(10)}…`);
  });
});
