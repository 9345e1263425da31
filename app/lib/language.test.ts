import { afterEach, describe, expect, it, vi } from "vitest";
import { languageOnlyInStorage, LANGUAGE_STORAGE_KEY } from "./language";

function browser(cookie: string, stored: string | null, search = "") {
  vi.stubGlobal("document", { cookie });
  vi.stubGlobal("window", {
    location: { search },
    localStorage: { getItem: (key: string) => (key === LANGUAGE_STORAGE_KEY ? stored : null) },
  });
}

describe("languageOnlyInStorage", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("is the stored language when neither the query nor the cookie chose one", () => {
    browser("", "ja-JP");
    expect(languageOnlyInStorage()).toBe("ja-JP");
  });

  it("is null when the cookie or the query chose the language", () => {
    browser("i18next=zh-CN", "ja-JP");
    expect(languageOnlyInStorage()).toBeNull();
    browser("", "ja-JP", "?lng=zh-CN");
    expect(languageOnlyInStorage()).toBeNull();
  });

  it.each(["i18next=%E0%A4%A", "i18next=%", "theme=dark; i18next=%zz"])("ignores the undecodable cookie %j instead of throwing", (cookie) => {
    browser(cookie, "ja-JP");
    expect(languageOnlyInStorage()).toBe("ja-JP");
    browser(cookie, null);
    expect(languageOnlyInStorage()).toBeNull();
  });
});
