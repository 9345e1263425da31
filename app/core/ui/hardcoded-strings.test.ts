import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { findHardcodedStrings, needsTranslation } from "./hardcoded-strings";

const ROOT = join(__dirname, "..", "..", "..");

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsxFiles(path);
    return entry.name.endsWith(".tsx") ? [path] : [];
  });
}

describe("needsTranslation", () => {
  it.each(["Sign in", "Save", "チーム", "团队", "Hello Flagstaff"])("%j needs translating", (text) => {
    expect(needsTranslation(text)).toBe(true);
  });
  it.each(["", "  ", "—", "·", "→", "123", "Flagstaff", "flag{example}", "user@example.com", "/api/game", "px", "KB", "(", "#1"])(
    "%j does not",
    (text) => {
      expect(needsTranslation(text)).toBe(false);
    },
  );
});

describe("findHardcodedStrings", () => {
  it("finds JSX text, text attributes and string children, not t(...) calls or class names", () => {
    const source = `
      export function A({ t }) {
        return (
          <div className="flex gap-2" data-testid="box">
            Hello there
            <img alt="A picture" src="/x.png" />
            <input placeholder={t("form.name")} aria-label="Your name" />
            {"Loose words"}
            {t("ok")} — {count}
          </div>
        );
      }`;
    expect(findHardcodedStrings("a.tsx", source).map((f) => [f.kind, f.text])).toEqual([
      ["text", "Hello there"],
      ["attribute", "A picture"],
      ["attribute", "Your name"],
      ["expression", "Loose words"],
    ]);
  });
});

describe("punctuation glued to translated text", () => {
  const found = (source: string) => findHardcodedStrings("a.tsx", source).map((f) => [f.kind, f.text]);

  it.each([
    ["a colon after t(...) in JSX", `const a = <p>{t("rank")}: {rank}</p>;`, [["punctuation", "…:"]]],
    ["a colon and a space in braces", `const a = <p>{t("current")}:{" "}<a href={url}>{url}</a></p>;`, [["punctuation", "…:"]]],
    ["brackets around t(...) in JSX", `const a = <span>({t("you")})</span>;`, [["punctuation", "(…"], ["punctuation", "…)"]]],
    ["a colon after t(...) in a template", "const a = `${t(\"rank\")}: ${rank}`;", [["punctuation", "…:"]]],
    ["brackets and a full stop in a template", "const a = `${name} (${t(\"notScored\")}). `;", [["punctuation", "(…"], ["punctuation", "…)."]]],
    ["a colon before a server message", "const a = `${team}: ${errorMessage(err)}`;", [["punctuation", ": …"]]],
  ])("finds %s", (_name, source, expected) => {
    expect(found(source)).toEqual(expected);
  });

  it.each([
    ["a dash or a dot between translated texts", "const a = <p>{t(\"a\")} — {t(\"b\")} · {count}</p>;"],
    ["the whole pattern in the key", "const a = <p>{t(\"ranks\", { rank, score })}</p>;"],
    ["punctuation beside untranslated values", "const a = `${x}: ${y} (${z})`;"],
  ])("leaves %s", (_name, source) => {
    expect(found(source)).toEqual([]);
  });
});

describe("file inputs", () => {
  it("finds the browser's own file chooser, whose button and \"No file chosen\" are in the browser's language", () => {
    expect(findHardcodedStrings("a.tsx", `const a = <input type="file" onChange={pick} />;`).map((f) => f.kind)).toEqual(["file-input"]);
  });

  it("leaves the one hidden behind a translated button, and other inputs", () => {
    expect(findHardcodedStrings("app/components/ui/hidden-file-input.tsx", `const a = <input type="file" className="sr-only" />;`)).toEqual([]);
    expect(findHardcodedStrings("a.tsx", `const a = <input type="text" />;`)).toEqual([]);
  });
});

describe("the UI has no hard-coded user-visible strings", () => {
  const files = [...tsxFiles(join(ROOT, "app", "routes")), ...tsxFiles(join(ROOT, "app", "components")), join(ROOT, "app", "root.tsx")];

  it("finds the UI sources", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files.map((f) => [relative(ROOT, f), f]))("%s", (_name, file) => {
    const findings = findHardcodedStrings(file, readFileSync(file, "utf8")).map((f) => `${f.line}: ${f.text}`);
    expect(findings).toEqual([]);
  });
});
