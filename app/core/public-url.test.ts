import { describe, expect, it } from "vitest";
import { parsePublicUrl, publicOrigin } from "./public-url";

describe("the platform's public address", () => {
  it("takes the origin of an http(s) URL", () => {
    expect(parsePublicUrl("https://ctf.example.org/")).toBe("https://ctf.example.org");
    expect(parsePublicUrl(" http://127.0.0.1:8787 ")).toBe("http://127.0.0.1:8787");
    expect(parsePublicUrl("https://CTF.Example.org:443/path?x=1")).toBe("https://ctf.example.org");
  });

  it("refuses what is not one", () => {
    for (const value of [undefined, "", "   ", "ctf.example.org", "ftp://ctf.example.org", "javascript:alert(1)", "http://"]) {
      expect(parsePublicUrl(value), String(value)).toBeNull();
    }
  });

  it("puts the configured address before the request's host", () => {
    expect(publicOrigin("https://ctf.example.org", "http://evil.example/api/account/recovery")).toBe("https://ctf.example.org");
    expect(publicOrigin(undefined, "https://ctf.example.org/api/account/recovery")).toBe("https://ctf.example.org");
    expect(publicOrigin("not a url", "https://ctf.example.org/api/x")).toBe("https://ctf.example.org");
  });
});
