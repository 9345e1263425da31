import { describe, expect, it } from "vitest";
import resources from "~/locales";
import { flattenKeys } from "../ui/locale-keys";
import { languageFromAcceptLanguage, matchLanguage } from "./languages";
import { getTranslator } from "./translator";

describe("language detection", () => {
  it.each([
    [null, "en-US"],
    ["", "en-US"],
    ["ja", "ja-JP"],
    ["zh-Hans-CN,zh;q=0.9", "zh-CN"],
    ["fr-FR,fr;q=0.9", "en-US"],
    ["fr;q=1, ja;q=0.5", "ja-JP"],
    ["en;q=0.1, zh-CN;q=0.8", "zh-CN"],
    ["ja;q=0, zh;q=0.2", "zh-CN"],
  ])("Accept-Language %j → %s", (header, expected) => {
    expect(languageFromAcceptLanguage(header)).toBe(expected);
  });

  it("matches tags loosely", () => {
    expect(matchLanguage("ja_JP")).toBe("ja-JP");
    expect(matchLanguage("EN-gb")).toBe("en-US");
    expect(matchLanguage("de")).toBeNull();
  });
});

describe("server messages", () => {
  const english = flattenKeys(resources["en-US"].errors).sort();

  it.each(["ja-JP", "zh-CN"] as const)("errors.json of %s has exactly the keys of en-US", (language) => {
    expect(flattenKeys(resources[language].errors).sort()).toEqual(english);
  });

  it("interpolates without escaping", () => {
    expect(getTranslator("en-US")("validation.failed", { message: "<b>&</b>" })).toBe("<b>&</b>");
    expect(getTranslator("ja-JP")("account.wrong_credentials")).toBe("ユーザー名またはパスワードが違います");
  });
});
