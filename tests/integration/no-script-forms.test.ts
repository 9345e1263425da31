import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import enCommon from "~/locales/en-US/common.json";
import jaErrors from "~/locales/ja-JP/errors.json";
import zhCommon from "~/locales/zh-CN/common.json";
import zhErrors from "~/locales/zh-CN/errors.json";
import { BASE, Client, newUser, PASSWORD, unique } from "./helpers";

/**
 * The account forms posted as a browser posts them before the page's JavaScript has run (or without it):
 * form-encoded to the page's own address. The route's server action calls the API in process.
 */
async function postForm(client: Client, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const sent: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    origin: BASE,
    "sec-fetch-site": "same-origin",
    ...(client.opts.lang ? { "accept-language": client.opts.lang } : {}),
    ...(client.cookie ? { cookie: client.cookie } : {}),
    ...headers,
  };
  // As a browser would, with the redirect kept as it is (the page it names is not this test's business).
  const res = await exports.default.fetch(`${BASE}${path}`, { method: "POST", headers: sent, body: new URLSearchParams(fields).toString(), redirect: "manual" });
  const setCookie = res.headers.get("set-cookie");
  if (setCookie) client.cookie = setCookie.split(";")[0] ?? null;
  return res;
}

describe("account forms without the page's JavaScript", () => {
  it("login: a wrong password is shown on the page in its language; the right one signs in and goes back", async () => {
    const { userName } = await newUser();
    const client = new Client({ lang: "ja-JP" });
    const wrong = await postForm(client, "/account/login", { userName, password: "Wrong-pass1", from: "/games" });
    expect(wrong.status).toBe(200);
    const page = await wrong.text();
    expect(page).toContain(jaErrors.account.wrong_credentials);
    expect(client.cookie).toBeNull();

    const right = await postForm(client, "/account/login", { userName, password: PASSWORD, from: "/games" });
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe("/games");
    expect(client.cookie).toMatch(/^flagstaff_session=/);
    const profile = await client.json<{ userName: string }>("/api/account/profile");
    expect(profile.status).toBe(200);
    expect(profile.body.userName).toBe(userName);
  });

  it("register: a taken name is refused at its field; a new account is signed in", async () => {
    const { userName: taken } = await newUser();
    const client = new Client({ lang: "zh-CN" });
    const refused = await postForm(client, "/account/register", { userName: taken, email: `${unique()}@example.com`, password: PASSWORD, passwordRetype: PASSWORD });
    expect(refused.status).toBe(200);
    expect(await refused.text()).toContain(zhErrors.account.username_taken);
    expect(client.cookie).toBeNull();

    const userName = unique();
    const done = await postForm(client, "/account/register", { userName, email: `${userName}@example.com`, password: PASSWORD, passwordRetype: PASSWORD });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/");
    const profile = await client.json<{ userName: string }>("/api/account/profile");
    expect(profile.body.userName).toBe(userName);
  });

  it("reset: a forged link is refused on the page in its language", async () => {
    const client = new Client({ lang: "zh-CN" });
    const res = await postForm(client, "/account/reset", { email: "nobody@example.com", token: "forged", password: "N3w-Passw0rd!", passwordRetype: "N3w-Passw0rd!" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(zhErrors.account.reset_token_invalid);
  });

  it("a cross-site post signs nobody in", async () => {
    const { userName } = await newUser();
    const client = new Client();
    const res = await postForm(client, "/account/login", { userName, password: PASSWORD }, { origin: "http://evil.example", "sec-fetch-site": "cross-site" });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(client.cookie).toBeNull();
  });

  it("a post to a page without a form action gets the localised error screen, not the router's English", async () => {
    const { client } = await newUser({ lang: "zh-CN" });
    const res = await postForm(client, "/account/profile", { intent: "update", userName: "x" });
    expect(res.status).toBe(405);
    const page = await res.text();
    // What the page shows (the router's own message still travels in its hydration data, unshown).
    const shown = page.slice(page.indexOf("<main"), page.indexOf("</main>"));
    expect(shown).toContain(`>${zhCommon.error.title}</h1>`);
    expect(shown).toContain(zhCommon.error.unexpected);
    expect(shown).not.toContain("405");
    expect(shown).not.toContain("action");
    expect(shown).not.toContain(enCommon.error.title);
  });
});
