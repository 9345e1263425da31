import ts from "typescript";

/** Attributes whose text people read (or hear): they must come from t(...). */
export const TEXT_ATTRIBUTES = new Set(["title", "placeholder", "aria-label", "alt", "label", "description", "summary", "aria-description", "aria-roledescription", "aria-valuetext"]);

/** Words that are the same in every language: product and protocol names. */
const BRANDS = ["Flagstaff", "GitHub", "Docker", "Markdown", "CTF", "URL", "ID", "API", "PDF", "ZIP", "CSV", "XLSX", "JSON", "SMTP", "TLS", "WebSocket"];

export interface Finding {
  line: number;
  text: string;
  kind: "text" | "attribute" | "expression" | "punctuation" | "file-input";
}

/**
 * Calls whose result is text in the reader's language: t(...), and errorMessage(...) (the server's message,
 * localised by Accept-Language).
 */
const TRANSLATED_CALLS = new Set(["t", "errorMessage"]);

/** Whether an expression yields translated text: it calls one of TRANSLATED_CALLS somewhere inside. */
function hasTranslatedCall(node: ts.Node): boolean {
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && TRANSLATED_CALLS.has(node.expression.text)) return true;
  return ts.forEachChild(node, hasTranslatedCall) ?? false;
}

/**
 * Punctuation written beside translated text belongs to the English sentence: Japanese and Chinese write
 * "順位：1", "（得点なし）", "。". A colon or opening bracket just before it, or a colon, full stop, comma or
 * closing bracket just after it, goes into the key instead.
 */
const GLUED_AFTER = /^[ \t]*[:.,;)]/;
const GLUED_BEFORE = /[:(][ \t]*$/;

/** The file input that may stay an <input type="file">: it is hidden behind a translated button. */
const HIDDEN_FILE_INPUT = "hidden-file-input.tsx";

/**
 * Whether `text` needs translating: it has letters, and is not a brand name, a placeholder-like code
 * sample (flag{...}, an address, a path, a unit) or a single symbol-ish token.
 */
export function needsTranslation(raw: string): boolean {
  const text = raw.replace(/\s+/g, " ").trim();
  if (!/\p{L}/u.test(text)) return false;
  let rest = text;
  for (const brand of BRANDS) rest = rest.replaceAll(brand, "");
  if (!/\p{L}/u.test(rest)) return false;
  // Code-like: no spaces and some punctuation typical of identifiers, addresses, paths or flag formats.
  if (!/\s/.test(text) && /[{}_:/@.#=<>()[\]$-]/.test(text)) return false;
  // A unit or a single short symbol (d, px, ms, KB, MB).
  if (/^(?:[a-z]{1,2}|[KMGT]i?B)$/.test(text)) return false;
  return true;
}

function attributeName(node: ts.JsxAttribute): string {
  return node.name.getText();
}

/** The text of a JSX child that is literal text (JSX text or a string in braces), else null. */
function literalChild(node: ts.Node): string | null {
  if (ts.isJsxText(node)) return node.text;
  if (ts.isJsxExpression(node) && node.expression && (ts.isStringLiteral(node.expression) || ts.isNoSubstitutionTemplateLiteral(node.expression))) return node.expression.text;
  return null;
}

/** A translated JSX child: an expression in braces that calls t(...) or errorMessage(...). */
const translatedChild = (node: ts.Node) => ts.isJsxExpression(node) && node.expression !== undefined && literalChild(node) === null && hasTranslatedCall(node.expression);

/**
 * The hard-coded user-visible strings of one .tsx source, the punctuation glued to translated text, and the
 * browser's own file inputs (their button and "No file chosen" are in the browser's language, not the page's).
 */
export function findHardcodedStrings(fileName: string, source: string): Finding[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const findings: Finding[] = [];
  const report = (node: ts.Node, text: string, kind: Finding["kind"]) => {
    findings.push({ line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: text.trim(), kind });
  };
  const gluedAround = (node: ts.Node, before: string | null, translated: boolean, after: string | null) => {
    if (!translated) return;
    if (before !== null && GLUED_BEFORE.test(before)) report(node, `${before.trimStart()}…`, "punctuation");
    if (after !== null && GLUED_AFTER.test(after)) report(node, `…${after.trimEnd()}`, "punctuation");
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxElement(node) || ts.isJsxFragment(node)) {
      const children = [...node.children];
      children.forEach((child, i) => {
        if (!translatedChild(child)) return;
        const before = i > 0 ? literalChild(children[i - 1]!) : null;
        const after = i < children.length - 1 ? literalChild(children[i + 1]!) : null;
        gluedAround(child, before, true, after);
      });
    }
    if (ts.isTemplateExpression(node)) {
      node.templateSpans.forEach((span, i) => {
        const before = i === 0 ? node.head.text : node.templateSpans[i - 1]!.literal.text;
        gluedAround(span, before, hasTranslatedCall(span.expression), span.literal.text);
      });
    }
    if ((ts.isJsxSelfClosingElement(node) || ts.isJsxOpeningElement(node)) && node.tagName.getText(sf) === "input" && !fileName.endsWith(HIDDEN_FILE_INPUT)) {
      const type = node.attributes.properties.find((a) => ts.isJsxAttribute(a) && attributeName(a) === "type");
      if (type && ts.isJsxAttribute(type) && type.initializer && ts.isStringLiteral(type.initializer) && type.initializer.text === "file") report(node, "<input type=\"file\">", "file-input");
    }
    if (ts.isJsxText(node)) {
      if (needsTranslation(node.text)) report(node, node.text, "text");
    } else if (ts.isJsxAttribute(node) && TEXT_ATTRIBUTES.has(attributeName(node)) && node.initializer) {
      const init = node.initializer;
      if (ts.isStringLiteral(init) && needsTranslation(init.text)) report(node, init.text, "attribute");
      else if (ts.isJsxExpression(init) && init.expression && (ts.isStringLiteral(init.expression) || ts.isNoSubstitutionTemplateLiteral(init.expression)) && needsTranslation(init.expression.text))
        report(node, init.expression.text, "attribute");
    } else if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      const e = node.expression;
      if ((ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) && needsTranslation(e.text)) report(node, e.text, "expression");
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}
