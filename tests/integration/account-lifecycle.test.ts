import { eq } from "drizzle-orm";
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { logs, users } from "~/.server/db/schema";
import { smtpConfigFromEnv } from "~/.server/mail/config";
import { sendAccountMail } from "~/.server/mail/send";
import { Client, db, newUser, PASSWORD, unique } from "./helpers";

type Body = { title: string; status: number; data?: unknown };

/** Messages received by the loopback SMTP server for an address (tests/integration/mail-server.ts). */
async function mailsTo(address: string): Promise<string[]> {
  const res = await fetch(`http://127.0.0.1:${inject("mailboxPort")}/?to=${encodeURIComponent(address)}`);
  return ((await res.json()) as { raw: string }[]).map((m) => m.raw);
}

/** The decoded text/plain (or text/html) part of a raw message. */
function textPart(raw: string, type: "plain" | "html" = "plain"): string {
  const m = new RegExp(`Content-Type: text/${type}; charset="UTF-8"\r\nContent-Transfer-Encoding: base64\r\n\r\n([A-Za-z0-9+/=\r\n]+)`).exec(raw);
  if (!m) throw new Error(`no ${type} part in ${raw.slice(0, 400)}`);
  const bin = atob(m[1]!.replace(/\s+/g, ""));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

/** Waits (up to 10 s) until at least `count` messages reached the address: recovery mails go after the answer. */
async function waitForMails(address: string, count = 1): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = await mailsTo(address);
    if (mails.length >= count || Date.now() > deadline) return mails;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits (up to 10 s) for a log record of the user that `match` picks: some are written after the answer. */
async function waitForLog(userName: string, match: (l: { level: string; status: string | null; message: string }) => boolean) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = (await db().select().from(logs).where(eq(logs.userName, userName)).all()).find(match);
    if (found || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function lastLink(address: string, path: string, count = 1): Promise<{ token: string; email: string; text: string; raw: string }> {
  const mails = await waitForMails(address, count);
  expect(mails.length).toBeGreaterThanOrEqual(count);
  const raw = mails[mails.length - 1]!;
  const text = textPart(raw);
  const m = new RegExp(`http://flagstaff\\.test${path}\\?token=([^&\\s]+)&email=([^\\s]+)`).exec(text);
  if (!m) throw new Error(`no ${path} link in: ${text}`);
  return { token: m[1]!, email: m[2]!, text, raw };
}

async function admin() {
  const { client, userName } = await newUser();
  await db().update(users).set({ role: "Admin" }).where(eq(users.userNameKey, userName.toLowerCase())).run();
  return client;
}

async function withPolicy<T>(policy: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
  const a = await admin();
  const before = (await a.json<{ accountPolicy: Record<string, unknown> }>("/api/admin/config")).body.accountPolicy;
  expect((await a.json("/api/admin/config", { method: "PUT", body: { accountPolicy: policy } })).status).toBe(200);
  try {
    return await fn();
  } finally {
    await a.json("/api/admin/config", { method: "PUT", body: { accountPolicy: before } });
  }
}

const register = (c: Client, userName: string, email = `${userName}@example.com`, extra: Record<string, unknown> = {}) =>
  c.json<Body>("/api/account/register", { method: "POST", body: { userName, password: PASSWORD, email, ...extra } });

describe("account mail in the platform's colour", () => {
  /** The style of the mail's button (its first link, drawn as a button). */
  const buttonStyle = (raw: string) => /<a href="[^"]*" style="([^"]*)"/.exec(textPart(raw, "html"))?.[1];

  it("draws the button of the verification, email change and recovery mails in the admin's colour", async () => {
    const a = await admin();
    const before = (await a.json<{ globalConfig: { customTheme: string } }>("/api/admin/config")).body.globalConfig.customTheme;
    const setColour = async (customTheme: string) => expect((await a.json("/api/admin/config", { method: "PUT", body: { globalConfig: { customTheme } } })).status).toBe(200);
    await setColour("#e11d48");
    try {
      await withPolicy({ emailConfirmationRequired: true }, async () => {
        const userName = unique();
        const email = `${userName}@example.com`;
        expect((await register(new Client(), userName, email)).body.data).toBe("EmailConfirmationRequired");
        const verify = await lastLink(email, "/account/verify");
        expect(buttonStyle(verify.raw)).toContain("background:#bf193d;color:#ffffff;");

        const v = new Client();
        expect((await v.json("/api/account/verify", { method: "POST", body: { token: verify.token, email: verify.email } })).status).toBe(200);
        const newMail = `${unique()}@example.com`;
        expect((await v.json("/api/account/changeemail", { method: "PUT", body: { newMail } })).status).toBe(200);
        expect(buttonStyle((await lastLink(newMail, "/account/confirm")).raw)).toContain("background:#bf193d;color:#ffffff;");

        // A light colour gets dark text.
        await setColour("#ffd400");
        expect((await new Client().json<Body>("/api/account/recovery", { method: "POST", body: { email } })).status).toBe(200);
        expect(buttonStyle((await lastLink(email, "/account/reset", 2)).raw)).toContain("background:#d9b400;color:#09090b;");
      });
    } finally {
      await setColour(before);
    }
  });
});

describe("email verification on register", () => {
  it("mails a localised link; verifying activates and signs in; the link is single-use", async () => {
    await withPolicy({ emailConfirmationRequired: true }, async () => {
      const c = new Client({ lang: "ja-JP" });
      const userName = unique();
      const email = `${userName}@example.com`;
      const r = await register(c, userName, email);
      expect(r.status).toBe(200);
      expect(r.body.data).toBe("EmailConfirmationRequired");
      expect(c.cookie).toBeNull();
      // Not active yet.
      expect((await new Client().json<Body>("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } })).status).toBe(401);

      const link = await lastLink(email, "/account/verify");
      expect(link.text).toContain(`${userName} さん`);
      expect(link.text).toContain("3 時間");
      expect(link.raw).toMatch(/Content-Type: text\/html; charset="UTF-8"/);
      expect(link.raw).toMatch(/^Subject: =\?UTF-8\?B\?/m);

      const bad = await new Client().json<Body>("/api/account/verify", { method: "POST", body: { token: `${link.token}x`, email: link.email } });
      expect(bad.status).toBe(401);
      expect(bad.body.title).toBe("Failed to verify the account");

      const v = new Client();
      expect((await v.json("/api/account/verify", { method: "POST", body: { token: link.token, email: link.email } })).status).toBe(200);
      expect((await v.json<{ userName: string }>("/api/account/profile")).body.userName).toBe(userName);
      // Reuse is refused.
      expect((await new Client().json("/api/account/verify", { method: "POST", body: { token: link.token, email: link.email } })).status).toBe(401);
    });
  });

  it("a registration whose mail was lost is sent again by registering with the same name, email and password; nobody else replaces it", async () => {
    await withPolicy({ emailConfirmationRequired: true }, async () => {
      const userName = unique();
      const email = `${userName}@example.com`;
      expect((await register(new Client(), userName, email)).body.data).toBe("EmailConfirmationRequired");
      const first = await lastLink(email, "/account/verify");
      // Someone else, without the password, is told the name is taken and replaces nothing.
      const other = await new Client().json<Body>("/api/account/register", { method: "POST", body: { userName, password: "Other1234", email } });
      expect(other.body).toMatchObject({ status: 400, title: "This user name is already taken" });
      expect(await mailsTo(email)).toHaveLength(1);

      const again = await register(new Client(), userName, email);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body.data).toBe("EmailConfirmationRequired");
      expect(await mailsTo(email)).toHaveLength(2);
      const second = await lastLink(email, "/account/verify");
      expect((await new Client().json("/api/account/verify", { method: "POST", body: { token: first.token, email: first.email } })).status).toBe(401);
      const v = new Client();
      expect((await v.json("/api/account/verify", { method: "POST", body: { token: second.token, email: second.email } })).status).toBe(200);
      expect((await v.json<{ userName: string }>("/api/account/profile")).body.userName).toBe(userName);
      // Confirmed: the name and address are held for good.
      expect((await register(new Client(), userName, email)).body).toMatchObject({ status: 400 });
    });
  });

  it("a registration never confirmed gives its name and email up once its link has expired", async () => {
    await withPolicy({ emailConfirmationRequired: true }, async () => {
      const squatter = unique("sq");
      const victim = unique("vi");
      const email = `${victim}@example.com`;
      expect((await register(new Client(), squatter, email)).body.data).toBe("EmailConfirmationRequired");
      expect((await register(new Client(), victim, email)).body).toMatchObject({ status: 400, title: "This email is already registered" });
      vi.useFakeTimers({ toFake: ["Date"] });
      try {
        vi.setSystemTime(Date.now() + 3 * 3600_000 + 1000);
        const r = await register(new Client(), victim, email);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.data).toBe("EmailConfirmationRequired");
      } finally {
        vi.useRealTimers();
      }
      expect(await db().select().from(users).where(eq(users.userNameKey, squatter.toLowerCase())).get()).toBeUndefined();
    });
  });

  it("withdraws a registration whose verification mail fails, tells the user, and logs it for the admins", async () => {
    await withPolicy({ emailConfirmationRequired: true }, async () => {
      const userName = unique();
      const r = await register(new Client({ lang: "zh-CN" }), userName, `${userName}@bounce.test`);
      expect(r.body).toEqual({ title: "邮件发送失败，请稍后再试", status: 502 });
      expect(await db().select().from(users).where(eq(users.userNameKey, userName.toLowerCase())).get()).toBeUndefined();
      const logged = await waitForLog(userName, (l) => l.level === "Error");
      expect(logged && [logged.status, logged.message]).toEqual([
        "Failed",
        `The verification mail to new user ${userName} could not be sent; the registration was withdrawn and the user was told`,
      ]);
    });
  });

  it("AdminConfirmationRequired: no sign-in until an admin activates", async () => {
    await withPolicy({ emailConfirmationRequired: false, activeOnRegister: false }, async () => {
      const userName = unique();
      const r = await register(new Client(), userName);
      expect(r.body.data).toBe("AdminConfirmationRequired");
      const login = await new Client().json<Body>("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } });
      expect(login.status).toBe(401);
      await db().update(users).set({ emailConfirmed: true }).where(eq(users.userNameKey, userName.toLowerCase())).run();
      expect((await new Client().json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } })).status).toBe(200);
    });
  });

  it("refuses an email domain outside the whitelist", async () => {
    await withPolicy({ emailDomainList: "ctf.example.org, example.net" }, async () => {
      const r = await register(new Client(), unique());
      expect(r.status).toBe(400);
      expect(r.body.title).toContain("ctf.example.org");
      const ok = await register(new Client(), unique("w"), `${unique("m")}@CTF.example.org`);
      expect(ok.status).toBe(200);
    });
  });
});

describe("password recovery", () => {
  it("mails a reset link; resetting revokes every session; the link is single-use", async () => {
    const { client, userName } = await newUser();
    const email = `${userName}@example.com`;
    const r = await new Client().json<Body>("/api/account/recovery", { method: "POST", body: { email: email.toUpperCase() } });
    expect(r.status).toBe(200);
    const link = await lastLink(email, "/account/reset");
    expect(link.text).toContain(`Hello ${userName},`);

    const weak = await new Client().json<Body>("/api/account/passwordreset", { method: "POST", body: { email: link.email, rToken: link.token, password: "short" } });
    expect(weak.status).toBe(400);
    const reset = await new Client().json<Body>("/api/account/passwordreset", { method: "POST", body: { email: link.email, rToken: link.token, password: "Rec0vered!" } });
    expect(reset.status).toBe(200);
    expect((await client.json("/api/account/profile")).status).toBe(401);
    expect((await new Client().json("/api/account/login", { method: "POST", body: { userName, password: "Rec0vered!" } })).status).toBe(200);
    const again = await new Client().json<Body>("/api/account/passwordreset", { method: "POST", body: { email: link.email, rToken: link.token, password: "Ag4inPass" } });
    expect(again.status).toBe(400);
  });

  it("writes the reset mail in the language of the request, not the one the account registered in", async () => {
    const { userName } = await newUser();
    const email = `${userName}@example.com`;
    expect((await new Client({ lang: "zh-CN" }).json<Body>("/api/account/recovery", { method: "POST", body: { email } })).status).toBe(200);
    expect((await lastLink(email, "/account/reset")).text).toContain(`${userName}，你好：`);
    expect((await new Client({ lang: "ja-JP" }).json<Body>("/api/account/recovery", { method: "POST", body: { email } })).status).toBe(200);
    expect((await lastLink(email, "/account/reset", 2)).text).toContain(`${userName} さん`);
  });

  it("links to the platform's configured address, never to the request's Host (reset poisoning)", async () => {
    const { userName } = await newUser();
    const email = `${userName}@example.com`;
    for (const [i, host] of ["evil.example", "attacker.example:8443"].entries()) {
      const res = await exports.default.fetch(`http://${host}/api/account/recovery`, {
        method: "POST",
        headers: { "content-type": "application/json", host },
        body: JSON.stringify({ email }),
      });
      expect(res.status).toBe(200);
      const link = await lastLink(email, "/account/reset", i + 1);
      expect(link.text).not.toContain(host);
    }
  });

  it("answers the same for an unknown email and sends nothing", async () => {
    const email = `${unique("nobody")}@example.com`;
    const known = await newUser();
    const a = await new Client().json<Body>("/api/account/recovery", { method: "POST", body: { email } });
    const b = await new Client().json<Body>("/api/account/recovery", { method: "POST", body: { email: `${known.userName}@example.com` } });
    expect(a).toMatchObject({ status: 200 });
    expect(a.body).toEqual(b.body);
    expect(await mailsTo(email)).toEqual([]);
  });

  it("answers the same when the mail to a known address fails, and tells the admins in the log", async () => {
    const { userName } = await newUser();
    const email = `${userName}@bounce.test`;
    await db().update(users).set({ email, emailKey: email.toLowerCase() }).where(eq(users.userNameKey, userName.toLowerCase())).run();
    const failed = await new Client().json<Body>("/api/account/recovery", { method: "POST", body: { email } });
    const unknown = await new Client().json<Body>("/api/account/recovery", { method: "POST", body: { email: `${unique("nobody")}@bounce.test` } });
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual(unknown.body);
    const logged = await waitForLog(userName, (l) => l.level === "Error");
    expect(logged && [logged.level, logged.status, logged.message]).toEqual(["Error", "Failed", `The password reset mail to ${userName} could not be sent (the requester was not told)`]);
  });

  it("answers before the account is looked up or mailed: the answer's time does not tell a registered address", async () => {
    const { userName } = await newUser();
    const email = `${userName}@hold.test`;
    await db().update(users).set({ email, emailKey: email.toLowerCase() }).where(eq(users.userNameKey, userName.toLowerCase())).run();
    // The mail server holds its reply to this message until released. The answer does not wait for it (it
    // came before the SMTP client gave up waiting, which it logs), and the mail goes once released.
    const r = await new Client().json<Body>("/api/account/recovery", { method: "POST", body: { email } });
    expect(r.status).toBe(200);
    const mailbox = `http://127.0.0.1:${inject("mailboxPort")}`;
    const held = async () => ((await (await fetch(`${mailbox}/held?to=${encodeURIComponent(email)}`)).json()) as { held: number }).held;
    const deadline = Date.now() + 10_000;
    while ((await held()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await mailsTo(email)).toEqual([]);
    await fetch(`${mailbox}/release?to=${encodeURIComponent(email)}`, { method: "POST" });
    expect((await lastLink(email, "/account/reset")).text).toContain(userName);
    const trouble = (await db().select().from(logs).where(eq(logs.userName, userName)).all()).filter((l) => l.level !== "Information");
    expect(trouble.map((l) => l.message)).toEqual([]);
  });

  it("refuses a token after the password changed (bound to the security stamp)", async () => {
    const { client, userName } = await newUser();
    const email = `${userName}@example.com`;
    await new Client().json("/api/account/recovery", { method: "POST", body: { email } });
    const link = await lastLink(email, "/account/reset");
    expect((await client.json("/api/account/changepassword", { method: "PUT", body: { old: PASSWORD, new: "Chang3dPw" } })).status).toBe(200);
    const r = await new Client().json<Body>("/api/account/passwordreset", { method: "POST", body: { email: link.email, rToken: link.token, password: "Rec0vered!" } });
    expect(r.status).toBe(400);
  });

  it("refuses an expired token", async () => {
    const { userName } = await newUser();
    const email = `${userName}@example.com`;
    await new Client().json("/api/account/recovery", { method: "POST", body: { email } });
    const link = await lastLink(email, "/account/reset");
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 3 * 3600_000 + 1000);
      const r = await new Client().json<Body>("/api/account/passwordreset", { method: "POST", body: { email: link.email, rToken: link.token, password: "Rec0vered!" } });
      expect(r.status).toBe(400);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("a mail server slow to confirm a message", () => {
  it("is a mail that may arrive (unconfirmed), not a failure, once the whole message went out", async () => {
    const smtp = { ...smtpConfigFromEnv(env)!, timeoutMs: 300 };
    const to = `${unique("slow")}@hold.test`;
    const outcome = await sendAccountMail(smtp, "verify", { to, language: "en-US", platform: "CTF", userName: "u", link: "https://x/account/verify?token=a&email=b" });
    expect(outcome).toBe("unconfirmed");
    await fetch(`http://127.0.0.1:${inject("mailboxPort")}/release?to=${encodeURIComponent(to)}`, { method: "POST" });
    expect(await waitForMails(to)).toHaveLength(1);
    // A refusal is still a failure.
    await expect(sendAccountMail(smtp, "verify", { to: `${unique()}@bounce.test`, language: "en-US", platform: "CTF", userName: "u", link: "https://x" })).rejects.toMatchObject({ code: "mail.send_failed" });
  });
});

describe("change email", () => {
  it("is refused with data false while email confirmation is off", async () => {
    const { client } = await newUser();
    const r = await client.json<Body>("/api/account/changeemail", { method: "PUT", body: { newMail: `${unique()}@example.com` } });
    expect(r.status).toBe(400);
    expect(r.body.data).toBe(false);
  });

  it("mails the new address; confirming changes the email; a bad token fails", async () => {
    const { client } = await newUser();
    await withPolicy({ emailConfirmationRequired: true }, async () => {
      const newMail = `${unique("new")}@example.org`;
      const r = await client.json<Body>("/api/account/changeemail", { method: "PUT", body: { newMail } });
      expect(r.status).toBe(200);
      expect(r.body.data).toBe(true);
      const link = await lastLink(newMail, "/account/confirm");
      const bad = await client.json<Body>("/api/account/mailchangeconfirm", { method: "POST", body: { token: link.token.slice(1), email: link.email } });
      expect(bad.status).toBe(400);
      expect(bad.body.title).toBe("Failed to verify email");
      expect((await client.json("/api/account/mailchangeconfirm", { method: "POST", body: link })).status).toBe(200);
      expect((await client.json<{ email: string }>("/api/account/profile")).body.email).toBe(newMail);
      expect((await client.json("/api/account/mailchangeconfirm", { method: "POST", body: { token: link.token, email: link.email } })).status).toBe(400);
    });
  });

  it("tells the user and logs it for the admins when the confirmation mail fails; the email is unchanged", async () => {
    const { client, userName } = await newUser();
    await withPolicy({ emailConfirmationRequired: true }, async () => {
      const r = await client.json<Body>("/api/account/changeemail", { method: "PUT", body: { newMail: `${unique("new")}@bounce.test` } });
      expect(r.status).toBe(502);
      expect((await client.json<{ email: string }>("/api/account/profile")).body.email).toBe(`${userName}@example.com`);
      const logged = await waitForLog(userName, (l) => l.level === "Error");
      expect(logged?.message).toBe(`The email change confirmation to ${userName} could not be sent; the user was told`);
    });
  });

  it("lets a user change the case of their own address; another user's address stays taken", async () => {
    const { client, userName } = await newUser();
    const other = await newUser();
    await withPolicy({ emailConfirmationRequired: true }, async () => {
      const upper = `${userName.toUpperCase()}@Example.com`;
      const r = await client.json<Body>("/api/account/changeemail", { method: "PUT", body: { newMail: upper } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const link = await lastLink(upper, "/account/confirm");
      expect((await client.json("/api/account/mailchangeconfirm", { method: "POST", body: link })).status).toBe(200);
      expect((await client.json<{ email: string }>("/api/account/profile")).body.email).toBe(upper);
      const taken = await client.json<Body>("/api/account/changeemail", { method: "PUT", body: { newMail: `${other.userName}@EXAMPLE.com` } });
      expect(taken.body).toMatchObject({ status: 400, title: "This email is already registered" });
    });
  });

  it("names newMail in X-Error-Field for a refused address, and no field for a refusal of the request", async () => {
    const { client } = await newUser();
    const other = await newUser();
    const field = (r: { res: Response }) => r.res.headers.get("x-error-field");
    const change = (newMail: string) => client.json<Body>("/api/account/changeemail", { method: "PUT", body: { newMail } });
    // Only an admin changes addresses: about the request, not the address.
    const byAdmin = await change(`${unique()}@example.com`);
    expect([byAdmin.body.data, field(byAdmin)]).toEqual([false, null]);
    await withPolicy({ emailConfirmationRequired: true, emailDomainList: "example.com" }, async () => {
      const taken = await change(`${other.userName}@example.com`);
      expect([taken.body.title, field(taken)]).toEqual(["This email is already registered", "newMail"]);
      const invalid = await change("not an email");
      expect([invalid.status, field(invalid)]).toEqual([400, "newMail"]);
      const outside = await change(`${unique()}@b.com`);
      expect([outside.status, field(outside)]).toEqual([400, "newMail"]);
      expect(field(await change(`${"x".repeat(250)}@example.com`))).toBe("newMail");
      expect(field(await change(""))).toBe("newMail");
    });
  });

  it("names the whitelist without speaking of registration, in the request's language", async () => {
    const { client } = await newUser();
    await withPolicy({ emailConfirmationRequired: true, emailDomainList: "uni.edu" }, async () => {
      const en = await client.json<Body>("/api/account/changeemail", { method: "PUT", body: { newMail: `${unique()}@b.com` } });
      expect(en.body).toMatchObject({ status: 400, title: "Only email addresses of these domains can be used: uni.edu" });
      const zh = await client.json<Body>("/api/account/changeemail", { method: "PUT", body: { newMail: `${unique()}@b.com` }, headers: { "accept-language": "zh-CN" } });
      expect(zh.body.title).toBe("只能使用以下域名的邮箱：uni.edu");
    });
  });
});

describe("captcha", () => {
  afterEach(() => vi.restoreAllMocks());

  const TURNSTILE = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

  /** Replaces only the provider's verify endpoint; every other request goes through. */
  function mockTurnstile(answer: (token: string) => boolean) {
    const real = globalThis.fetch;
    const seen: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url !== TURNSTILE) return real(input, init);
      const form = new URLSearchParams(String(init?.body));
      seen.push(form.get("response") ?? "");
      expect(form.get("secret")).toBe("test-turnstile-secret");
      return Response.json({ success: answer(form.get("response") ?? "") });
    });
    return seen;
  }

  it("GET /api/captcha says None while useCaptcha is off, the provider and site key when on", async () => {
    const off = await new Client().json<{ type: string; siteKey: string }>("/api/captcha");
    expect(off.body).toEqual({ type: "None", siteKey: "" });
    await withPolicy({ useCaptcha: true }, async () => {
      const on = await new Client().json<{ type: string; siteKey: string }>("/api/captcha");
      expect(on.body).toEqual({ type: "CloudflareTurnstile", siteKey: "test-turnstile-site-key" });
    });
  });

  it("login, register and recovery verify the token with the provider", async () => {
    const { userName } = await newUser();
    await withPolicy({ useCaptcha: true }, async () => {
      const seen = mockTurnstile((t) => t === "good-token");
      const login = (challenge?: string) =>
        new Client({ lang: "zh-CN" }).json<Body>("/api/account/login", { method: "POST", body: { userName, password: PASSWORD, challenge } });
      const missing = await login();
      expect(missing.status).toBe(400);
      expect(missing.body.title).toBe("人机验证失败，请重试");
      expect((await login("bad-token")).status).toBe(400);
      expect((await login("good-token")).status).toBe(200);
      expect((await register(new Client(), unique(), undefined, { challenge: "bad-token" })).status).toBe(400);
      expect((await register(new Client(), unique(), undefined, { challenge: "good-token" })).status).toBe(200);
      const rec = (challenge: string) =>
        new Client().json<Body>("/api/account/recovery", { method: "POST", body: { email: `${userName}@example.com`, challenge } });
      expect((await rec("bad-token")).status).toBe(400);
      expect((await rec("good-token")).status).toBe(200);
      expect(seen).toEqual(["bad-token", "good-token", "bad-token", "good-token", "bad-token", "good-token"]);
    });
  });
});
