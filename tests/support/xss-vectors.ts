/**
 * Cross-site scripting vectors for the markup tests (tests/e2e/security-xss.spec.ts). Every vector, if
 * it ever ran, would set `window.__xss` (or open a dialog), so a test only has to check that the marker
 * stays undefined and no dialog fired. Sources: the OWASP XSS filter evasion cheat sheet, PortSwigger's
 * XSS cheat sheet and well-known mutation-XSS (mXSS) and Markdown-specific tricks.
 */

const P = "window.__xss=1";
const A = "alert(1)";

/** Script tags and parser tricks around them. */
const scripts = [
  `<script>${P}</script>`,
  `<SCRIPT>${P}</SCRIPT>`,
  `<script src=data:,${P}></script>`,
  `<script/xss>${P}</script>`,
  `<<script>${P};//<</script>`,
  `<script>${A}</script>`,
  `</title><script>${P}</script>`,
  `</textarea><script>${P}</script>`,
  `</style><script>${P}</script>`,
  `<scr<script>ipt>${P}</scr</script>ipt>`,
  `<script\x20type="text/javascript">${P}</script>`,
  `<script>/*</script><script>*/${P}</script>`,
  `"><script>${P}</script>`,
  `'><script>${P}</script>`,
  `<noscript><p title="</noscript><img src=x onerror=${P}>">`,
];

/** Event handlers on all kinds of elements. */
const handlers = [
  `<img src=x onerror=${P}>`,
  `<img src=x onerror="${P}">`,
  `<IMG SRC=x ONERROR=${P}>`,
  `<img src=x:alert(alt) onerror=eval(src) alt=0>`,
  `<img/src=x/onerror=${P}>`,
  `<img src=x onerror=&#119;&#105;&#110;&#100;&#111;&#119;.__xss=1>`,
  `<svg onload=${P}>`,
  `<svg/onload=${P}>`,
  `<body onload=${P}>`,
  `<body onpageshow=${P}>`,
  `<input autofocus onfocus=${P}>`,
  `<select autofocus onfocus=${P}>`,
  `<textarea autofocus onfocus=${P}>`,
  `<keygen autofocus onfocus=${P}>`,
  `<video><source onerror=${P}>`,
  `<audio src=x onerror=${P}>`,
  `<details open ontoggle=${P}>`,
  `<marquee onstart=${P}>`,
  `<div onmouseover=${P}>hover</div>`,
  `<a onclick=${P} href=#>click</a>`,
  `<button onclick=${P}>b</button>`,
  `<form><button formaction=javascript:${P}>x</button></form>`,
  `<isindex type=image src=1 onerror=${P}>`,
  `<object data=x onerror=${P}>`,
  `<style onload=${P}></style>`,
  `<link rel=stylesheet href=x onerror=${P}>`,
  `<iframe onload=${P}></iframe>`,
  `<x contenteditable onfocus=${P} autofocus>`,
  `<xss id=x tabindex=1 onfocusin=${P}></xss>`,
  `<image src=x onerror=${P}>`,
];

/** Dangerous URL schemes, with encodings. */
const urls = [
  `<a href="javascript:${P}">js</a>`,
  `<a href="JaVaScRiPt:${P}">js</a>`,
  `<a href=" javascript:${P}">js</a>`,
  `<a href="java\tscript:${P}">js</a>`,
  `<a href="java&#x09;script:${P}">js</a>`,
  `<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;${P}">js</a>`,
  `<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;${P}">js</a>`,
  `<a href="javascript&colon;${P}">js</a>`,
  `<a href="data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==">data</a>`,
  `<a href="data:text/html,<script>${P}</script>">data</a>`,
  `<a href="vbscript:msgbox(1)">vb</a>`,
  `<iframe src="javascript:${P}"></iframe>`,
  `<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>`,
  `<embed src="javascript:${P}">`,
  `<object data="javascript:${P}"></object>`,
  `<object data="data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3M9MTwvc2NyaXB0Pg=="></object>`,
  `<embed src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9cGFyZW50Ll9feHNzPTE+">`,
  `<meta http-equiv="refresh" content="0;url=javascript:${P}">`,
  `<base href="javascript:${P}//">`,
  `<form action="javascript:${P}"><input type=submit></form>`,
  `<math href="javascript:${P}">CLICKME</math>`,
  `<svg><a xlink:href="javascript:${P}"><text x=20 y=20>x</text></a></svg>`,
  `<svg><use href="data:image/svg+xml,<svg id='x' xmlns='http://www.w3.org/2000/svg'><image href='1' onerror='${P}'/></svg>#x"/></svg>`,
  `<img src="javascript:${P}">`,
  `<table background="javascript:${P}">`,
];

/** SVG, MathML and mutation-XSS classics. */
const foreign = [
  `<svg><script>${P}</script></svg>`,
  `<svg><animate onbegin=${P} attributeName=x dur=1s>`,
  `<svg><set onbegin=${P} attributeName=x to=1>`,
  `<svg><foreignObject><img src=x onerror=${P}></foreignObject></svg>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=${P}>`,
  `<math><mi xlink:href="data:x,<script>${P}</script>">`,
  `<svg></p><style><a id="</style><img src=1 onerror=${P}>">`,
  `<noscript><style></noscript><img src=x onerror=${P}>`,
  `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${P}>`,
  `<svg><style><img src=x onerror=${P}></style></svg>`,
  `<template><img src=x onerror=${P}></template>`,
  `<template shadowrootmode=open><img src=x onerror=${P}></template>`,
  `<listing>&lt;img src=x onerror=${P}&gt;</listing>`,
  `<xmp><img src=x onerror=${P}></xmp>`,
  `<!--<img src="--><img src=x onerror=${P}//">`,
  `<![CDATA[<img src=x onerror=${P}>]]>`,
];

/** CSS-borne script. */
const styles = [
  `<div style="width:expression(${P})">css</div>`,
  `<div style="background:url('javascript:${P}')">css</div>`,
  `<style>@import 'javascript:${P}';</style>`,
  `<style>*{background:url("javascript:${P}")}</style>`,
  `<div style="behavior:url(x.htc)">css</div>`,
  `<link rel=import href="data:text/html,<script>${P}</script>">`,
];

/** Attribute and context breakouts (for values placed in attributes or inline scripts). */
const breakouts = [
  `" onmouseover="${P}" x="`,
  `' onmouseover='${P}' x='`,
  `" autofocus onfocus="${P}" x="`,
  `javascript:${P}`,
  `"><img src=x onerror=${P}>`,
  `</script><script>${P}</script>`,
  `${"${"}${P}}`,
  `{{constructor.constructor('${P}')()}}`,
  `\u003cimg src=x onerror=${P}\u003e`,
  `%3Cscript%3E${P}%3C%2Fscript%3E`,
  `&lt;script&gt;${P}&lt;/script&gt;`,
  `\\"-${P}-\\"`,
];

/** Markdown-specific link and image tricks. */
const markdown = [
  `[click](javascript:${P})`,
  `[click](JAVASCRIPT:${P})`,
  `[click](javascript&#58;${P})`,
  `[click](  javascript:${P}  )`,
  `[click](<javascript:${P}>)`,
  `[click](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)`,
  `[click](vbscript:msgbox(1))`,
  `![img](javascript:${P})`,
  `![img](x" onerror="${P})`,
  `![img](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9d2luZG93Ll9feHNzPTE+)`,
  `[ref][xss]\n\n[xss]: javascript:${P}`,
  `<javascript:${P}>`,
  `[a](https://example.com" onclick="${P})`,
  `[a](#"onmouseover="${P})`,
  "```html\n<script>" + P + "</script>\n```",
  `\`<img src=x onerror=${P}>\``,
  `> <img src=x onerror=${P}>`,
  `| a | <img src=x onerror=${P}> |\n|---|---|\n| <svg onload=${P}> | b |`,
  `- [ ] <img src=x onerror=${P}>`,
  `**<img src=x onerror=${P}>**`,
  `<div>\n\n[x](javascript:${P})\n\n</div>`,
];

/** Every vector, each at most a few hundred characters. */
export const XSS_VECTORS: readonly string[] = [
  ...scripts,
  ...handlers,
  ...urls,
  ...foreign,
  ...styles,
  ...breakouts,
  ...markdown,
];

/** Vectors that fit a field of at most `max` characters (team names, titles, tags). */
export const vectorsFitting = (max: number) => XSS_VECTORS.filter((v) => v.length <= max);

/** Short vectors for tight fields (team names ≤ 20, post tags ≤ 32, titles ≤ 50). */
export const SHORT_VECTORS: readonly string[] = [
  "<svg onload=__xss=1>",
  "<img src=x onerror>",
  "<script>__xss=1</script>",
  "\"><svg/onload=__xss=1>",
  "javascript:__xss=1",
  "<x onclick=__xss=1>",
  "'><b onfocus=__xss=1>",
  "<iframe src=//x>",
];

/** Whether a vector fits a one-line field (those refuse line breaks and tabs). */
export const isOneLine = (vector: string) => !/[\t\n\r]/.test(vector);

/** The vectors a one-line field takes. */
export const ONE_LINE_VECTORS: readonly string[] = XSS_VECTORS.filter(isOneLine);

/**
 * Concatenates vectors into blocks of at most `max` characters, separated by blank lines (by spaces with
 * `oneLine`, for one-line fields; give those ONE_LINE_VECTORS).
 */
export function packVectors(vectors: readonly string[], max: number, { oneLine = false } = {}): string[] {
  const separator = oneLine ? " " : "\n\n";
  const blocks: string[] = [];
  let current = "";
  for (const v of vectors) {
    const next = current ? `${current}${separator}${v}` : v;
    if (next.length > max && current) {
      blocks.push(current);
      current = v;
    } else {
      current = next;
    }
  }
  if (current) blocks.push(current);
  return blocks;
}
