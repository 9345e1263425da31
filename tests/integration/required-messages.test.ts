import { describe, expect, it } from "vitest";
import enCommon from "~/locales/en-US/common.json";
import jaCommon from "~/locales/ja-JP/common.json";
import zhCommon from "~/locales/zh-CN/common.json";
import { Client, newUser, PASSWORD } from "./helpers";

// An account form checks its required fields before sending (with or without the page's JavaScript: the
// server action runs the same check); the API checks them again. A field left empty must be asked for in the
// same words whichever refuses it: the form's message (`common`) is the API's for that field, in each language.

type Common = typeof enCommon;
type Case = { form: string; path: string; method: "POST" | "PUT"; body: Record<string, string>; signedIn?: boolean; message: (c: Common) => string };

const CASES: Case[] = [
  { form: "register: user name", path: "/api/account/register", method: "POST", body: { userName: "", password: PASSWORD, email: "a@example.com" }, message: (c) => c.register.userNameRequired },
  { form: "register: user name of spaces", path: "/api/account/register", method: "POST", body: { userName: "   ", password: PASSWORD, email: "a@example.com" }, message: (c) => c.register.userNameRequired },
  { form: "register: email", path: "/api/account/register", method: "POST", body: { userName: "ada_h1", password: PASSWORD, email: "" }, message: (c) => c.register.emailRequired },
  { form: "register: password", path: "/api/account/register", method: "POST", body: { userName: "ada_h1", password: "", email: "a@example.com" }, message: (c) => c.password.empty },
  { form: "login: user name", path: "/api/account/login", method: "POST", body: { userName: "", password: PASSWORD }, message: (c) => c.login.userNameRequired },
  { form: "login: password", path: "/api/account/login", method: "POST", body: { userName: "ada_h1", password: "" }, message: (c) => c.password.empty },
  { form: "recovery: email", path: "/api/account/recovery", method: "POST", body: { email: "" }, message: (c) => c.recovery.emailRequired },
  { form: "reset: new password", path: "/api/account/passwordreset", method: "POST", body: { email: "a@example.com", rToken: "t", password: "" }, message: (c) => c.password.empty },
  { form: "profile: user name", path: "/api/account/update", method: "PUT", body: { userName: "" }, signedIn: true, message: (c) => c.register.userNameRequired },
  { form: "profile: new email", path: "/api/account/changeemail", method: "PUT", body: { newMail: "" }, signedIn: true, message: (c) => c.profile.newEmailRequired },
  { form: "profile: current password", path: "/api/account/changepassword", method: "PUT", body: { old: "", new: PASSWORD }, signedIn: true, message: (c) => c.password.empty },
  { form: "profile: new password", path: "/api/account/changepassword", method: "PUT", body: { old: PASSWORD, new: "" }, signedIn: true, message: (c) => c.password.empty },
];

describe("an empty required field of the account forms: the form says what the API says", () => {
  it.each([
    ["en-US", enCommon],
    ["ja-JP", jaCommon],
    ["zh-CN", zhCommon],
  ] as const)("%s", async (lang, common) => {
    const signedIn = (await newUser({ lang })).client;
    const differing: string[] = [];
    for (const c of CASES) {
      const client = c.signedIn ? signedIn : new Client({ lang });
      const answer = await client.json<{ title: string; status: number }>(c.path, { method: c.method, body: c.body, headers: { "accept-language": lang } });
      expect(answer.status, c.form).toBe(400);
      if (answer.body.title !== c.message(common)) differing.push(`${c.form}: form says “${c.message(common)}”, API says “${answer.body.title}”`);
    }
    expect(differing).toEqual([]);
  });
});
