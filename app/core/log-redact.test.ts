import { describe, expect, it } from "vitest";
import { REDACTED, redactField, redactParams, redactSecrets } from "./log-redact";

describe("redactSecrets", () => {
  it("keeps ordinary log text untouched", () => {
    const text = "User alice signed in from 10.0.0.1; team 12 locked by admin";
    expect(redactSecrets(text)).toBe(text);
  });

  it("keeps user ids (UUIDs) and API paths", () => {
    const text = "Deleted user 3f2a9c1e-7b4d-4c2a-9e1f-0a1b2c3d4e5f via /api/admin/users/3f2a9c1e-7b4d-4c2a-9e1f-0a1b2c3d4e5f";
    expect(redactSecrets(text)).toBe(text);
  });

  it("masks password and token fields written as name=value or name: value", () => {
    const out = redactSecrets("login password=Hunter2! token: abc123 rToken=xyz sessionId=s3ss1on&x=1");
    expect(out).not.toContain("Hunter2!");
    expect(out).not.toContain("abc123");
    expect(out).not.toContain("xyz");
    expect(out).not.toContain("s3ss1on");
    expect(out).toContain(`password=${REDACTED}`);
    expect(out).toContain("x=1");
  });

  it("masks quoted values and JSON fields", () => {
    const json = JSON.stringify({ userName: "bob", password: "S3cret!pass", new: "x", teamToken: "1:abc==" });
    const out = redactSecrets(json);
    expect(out).not.toContain("S3cret!pass");
    expect(out).not.toContain("1:abc==");
    expect(out).toContain('"userName":"bob"');
    expect(redactSecrets(`password: "two words"`)).toBe(`password: ${REDACTED}`);
    expect(redactSecrets(`"Password" : "a\\"b"`)).toBe(`"Password" : "${REDACTED}"`);
  });

  it("masks flag-like values", () => {
    const out = redactSecrets("team 3 solved with flag{th1s_is_s3cret} and CTF{x-y-z}");
    expect(out).not.toContain("th1s_is_s3cret");
    expect(out).not.toContain("x-y-z");
    expect(out).toContain("team 3 solved with");
  });

  it("masks bearer credentials, JWT-like and long opaque tokens", () => {
    expect(redactSecrets("Authorization header Bearer abcdefghijklmnop")).not.toContain("abcdefghijklmnop");
    expect(redactSecrets("sig eyJhbGciOiJI.eyJzdWIiOiIxMjM0.SflKxwRJSMeKKF2Q")).not.toContain("eyJzdWIiOiIxMjM0");
    const session = "q8Zr1m-T0k3n_5ess10nIdAbCdEfGhIjKlMnOpQrStU";
    expect(redactSecrets(`session cookie ${session} seen`)).toBe(`session cookie ${REDACTED} seen`);
    const hex = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    expect(redactSecrets(`mail token ${hex}`)).toBe(`mail token ${REDACTED}`);
    const b64 = "MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=";
    expect(redactSecrets(b64)).toBe(REDACTED);
  });

  it("masks team invite codes' tokens", () => {
    const code = "My Team:12:0123456789abcdef0123456789abcdef";
    expect(redactSecrets(`invite ${code}`)).not.toContain("0123456789abcdef0123456789abcdef");
  });

  it("is idempotent", () => {
    const once = redactSecrets("password=abc flag{x} token=y");
    expect(redactSecrets(once)).toBe(once);
  });
});

describe("redactField", () => {
  it("passes null through and caps the length", () => {
    expect(redactField(null)).toBeNull();
    expect(redactField(undefined)).toBeNull();
    expect(redactField("a".repeat(50), 10)).toBe(`${"a".repeat(10)}…`);
    expect(redactField("password=x")).toBe(`password=${REDACTED}`);
  });
});

describe("redactParams", () => {
  it("masks every string of a message's parameters, however deep, and keeps the rest", () => {
    const params = {
      team: "flag{stolen_one}",
      id: 3,
      fields: ["role", "password=Hunter2!"],
      failure: { kind: "answered", status: 500, message: "token: abc123secret" },
      none: null,
    };
    const out = redactParams(params);
    expect(JSON.stringify(out)).not.toMatch(/stolen_one|Hunter2!|abc123secret/);
    expect(out).toEqual({
      team: REDACTED,
      id: 3,
      fields: ["role", `password=${REDACTED}`],
      failure: { kind: "answered", status: 500, message: `token: ${REDACTED}` },
      none: null,
    });
    expect(redactParams({ title: "x".repeat(2000) }).title).toHaveLength(1001);
  });
});
