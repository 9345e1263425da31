import { describe, expect, it } from "vitest";
import { buildMessage, dataPayload, encodeHeader, isSafeAddress } from "./mime";
import { renderAccountMail } from "./templates";

describe("mime", () => {
  it("encodes non-ASCII headers and strips line breaks", () => {
    expect(encodeHeader("Hello")).toBe("Hello");
    expect(encodeHeader("a\r\nBcc: x@y")).toBe("a Bcc: x@y");
    expect(encodeHeader("確認")).toBe(`=?UTF-8?B?${btoa(String.fromCharCode(...new TextEncoder().encode("確認")))}?=`);
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
