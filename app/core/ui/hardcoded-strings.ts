import ts from "typescript";

/** Attributes whose text people read (or hear): they must come from t(...). */
export const TEXT_ATTRIBUTES = new Set(["title", "placeholder", "aria-label", "alt", "label", "description", "summary", "aria-description", "aria-roledescription", "aria-valuetext"]);

/** Words that are the same in every language: product and protocol names. */
const BRANDS = ["Flagstaff", "GitHub", "Docker", "Markdown", "CTF", "URL", "ID", "API", "PDF", "ZIP", "CSV", "XLSX", "JSON", "SMTP", "TLS", "WebSocket"];

export interface Finding {
  line: number;
  text: string;
  kind: "text" | "attribute" | "expression";
}

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

/** The hard-coded user-visible strings of one .tsx source. */
export function findHardcodedStrings(fileName: string, source: string): Finding[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const findings: Finding[] = [];
  const report = (node: ts.Node, text: string, kind: Finding["kind"]) => {
    findings.push({ line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: text.trim(), kind });
  };
  const visit = (node: ts.Node) => {
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
