import { describe, expect, it } from "vitest";
import { buildMessage, dataPayload, encodeHeader, formatAddress, formatDate, isSafeAddress } from "./mime";
import { brandButtonColours, DARK_TEXT, DEFAULT_BRAND, parseHex, readableTextOn } from "~/core/colour";
import { renderAccountMail } from "./templates";

describe("mime", () => {
  it("encodes non-ASCII headers and strips line breaks", () => {
    expect(encodeHeader("Hello")).toBe("Hello");
    expect(encodeHeader("a\r\nBcc: x@y")).toBe("a Bcc: x@y");
    expect(encodeHeader("確認")).toBe(`=?UTF-8?B?${btoa(String.fromCharCode(...new TextEncoder().encode("確認")))}?=`);
  });

  /** Decodes the encoded words of a header value (RFC 2047 §6.2: the space between two words is not text). */
  const decodeWords = (value: string) =>
    value
      .replace(/\?=\r\n =\?/g, "?==?")
      .replace(/=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=/g, (_m, b64: string) => new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))));

  it("splits a long non-ASCII header into encoded words of at most 75 characters, of whole characters, folded", () => {
    const title = "旗杆夺旗赛——第一届全国大学生网络安全技能大赛（决赛）😀 Final ⚑".repeat(3);
    const encoded = encodeHeader(title);
    const words = encoded.split("\r\n ");
    expect(words.length).toBeGreaterThan(3);
    for (const word of words) {
      expect(word).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
      expect(word.length).toBeLessThanOrEqual(75);
      // Each word decodes on its own to whole characters (no replacement character from a split one).
      expect(decodeWords(word)).not.toContain("\uFFFD");
    }
    expect(decodeWords(encoded)).toBe(title);
    expect(`Subject: ${words[0]}`.length).toBeLessThanOrEqual(78);
  });

  it("quotes an ASCII sender name with escapes and encodes a non-ASCII one without quotes", () => {
    expect(formatAddress('The "Best" CTF \\ 2026', "n@x.org")).toBe('"The \\"Best\\" CTF \\\\ 2026" <n@x.org>');
    const cjk = formatAddress("旗杆「競技」", "n@x.org");
    expect(cjk).not.toContain('"');
    expect(decodeWords(cjk.replace(/\r\n <n@x\.org>$/, ""))).toBe("旗杆「競技」");
    expect(cjk.endsWith("\r\n <n@x.org>")).toBe(true);
  });

  it("writes the date with a numeric zone, not the obsolete GMT", () => {
    expect(formatDate(new Date(Date.UTC(2026, 10, 27, 22, 38, 36)))).toBe("Fri, 27 Nov 2026 22:38:36 +0000");
  });

  it("dot-stuffs lines and terminates DATA", () => {
    expect(dataPayload(".a\r\nb\r\n.c")).toBe("..a\r\nb\r\n..c\r\n.\r\n");
  });

  it("refuses addresses that could inject SMTP commands", () => {
    expect(isSafeAddress("a@example.com")).toBe(true);
    expect(isSafeAddress("a@example.com>\r\nRCPT TO:<b@x")).toBe(false);
    expect(isSafeAddress("no-at")).toBe(false);
  });

  it("builds text and HTML parts", () => {
    const msg = buildMessage(
      { from: { name: "CTF", email: "n@x.org" }, to: "u@x.org", subject: "S", text: "plain", html: "<b>h</b>" },
      { date: new Date(0), messageId: "id@x.org", boundary: "B" },
    );
    expect(msg).toContain('Content-Type: multipart/alternative; boundary="B"');
    expect(msg).toContain(`\r\n\r\n${btoa("plain")}\r\n`);
    expect(msg).toContain(btoa("<b>h</b>"));
    expect(msg.endsWith("--B--\r\n")).toBe(true);
  });
});

describe("renderAccountMail", () => {
  it.each([
    ["en-US", "Verify your CTF account"],
    ["ja-JP", "CTF アカウントの確認"],
    ["zh-CN", "验证你的 CTF 账号"],
    ["fr-FR", "Verify your CTF account"],
  ])("localises by language (%s)", (language, subject) => {
    const m = renderAccountMail("verify", { language, platform: "CTF", userName: "<alice>", link: "https://x/account/verify?token=a&email=b" });
    expect(m.subject).toBe(subject);
    expect(m.text).toContain("https://x/account/verify?token=a&email=b");
    expect(m.html).toContain("&lt;alice&gt;");
    expect(m.html).toContain("token=a&amp;email=b");
  });
});

describe("renderAccountMail's button", () => {
  /** The style of the mail's button (its one link drawn as a button). */
  const buttonStyle = (html: string) => /<a href="[^"]*" style="([^"]*)"/.exec(html)![1]!;
  const input = { language: "en-US", platform: "CTF", userName: "alice", link: "https://x/account/verify?token=a&email=b" };

  it.each(["verify", "reset", "changeEmail"] as const)("is drawn in the platform's colour, its text readable on it (%s)", (kind) => {
    // The light theme's button shade (primary-600: 85 % of the colour + black), its text readable on it.
    const red = brandButtonColours("#e11d48");
    expect(red.background).toBe("#bf193d");
    expect(buttonStyle(renderAccountMail(kind, { ...input, customTheme: "#e11d48" }).html)).toContain(`background:#bf193d;color:${readableTextOn(parseHex("#bf193d")!)};`);
    // A light colour gets dark text.
    expect(buttonStyle(renderAccountMail(kind, { ...input, customTheme: "#ffd400" }).html)).toContain(`background:#d9b400;color:${DARK_TEXT};`);
  });

  it.each([undefined, "", "brand"])("without a colour of the admin's (%j), is drawn in the default one", (customTheme) => {
    const { background, text } = brandButtonColours("");
    expect(background).toBe(brandButtonColours(DEFAULT_BRAND).background);
    expect(buttonStyle(renderAccountMail("verify", { ...input, customTheme }).html)).toContain(`background:${background};color:${text};`);
  });
});
