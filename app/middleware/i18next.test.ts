import { describe, expect, it } from "vitest";
import { detectLanguage } from "./i18next";

const request = (path: string, headers: Record<string, string> = {}) => new Request(`http://flagstaff.test${path}`, { headers });

describe("the page's language", () => {
  it("takes the first language the browser lists that we have, by q-value", () => {
    expect(detectLanguage(request("/", { "accept-language": "fr-FR,fr;q=0.9,ja;q=0.8" }))).toBe("ja-JP");
    expect(detectLanguage(request("/", { "accept-language": "de-DE,de;q=0.9,zh-CN;q=0.8,en;q=0.7" }))).toBe("zh-CN");
    expect(detectLanguage(request("/", { "accept-language": "ko-KR,ko;q=0.9" }))).toBe("en-US");
    expect(detectLanguage(request("/", { "accept-language": "ja;q=0, zh;q=0.5" }))).toBe("zh-CN");
    expect(detectLanguage(request("/", { "accept-language": "ja;q=0" }))).toBe("en-US");
    expect(detectLanguage(request("/"))).toBe("en-US");
  });

  it("reads lng and the cookie in the spec's spelling too, before the header", () => {
    expect(detectLanguage(request("/?lng=zh_CN", { "accept-language": "ja" }))).toBe("zh-CN");
    expect(detectLanguage(request("/?lng=ja_JP"))).toBe("ja-JP");
    expect(detectLanguage(request("/", { cookie: "i18next=zh_CN", "accept-language": "ja" }))).toBe("zh-CN");
    expect(detectLanguage(request("/?lng=ja-JP", { cookie: "i18next=zh-CN" }))).toBe("ja-JP");
    // Something we do not have is passed over.
    expect(detectLanguage(request("/?lng=fr", { cookie: "i18next=de", "accept-language": "ja" }))).toBe("ja-JP");
  });
});
