import { readFileSync } from "node:fs";
import type { Page, Request } from "@playwright/test";
import { expect, hydrated, registerUser, test } from "./fixtures";

// The e2e server has no captcha provider, so GET /api/captcha answers None there. The provider widgets
// are checked by answering GET /api/captcha in the browser (page.route) and by blocking, or standing in
// for, the provider's script: outside hosts are never reached.
type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;

// The server adds a provider's hosts to its Content-Security-Policy only when that provider is configured
// (workers/security-headers.ts, checked by security.spec.ts). These pages pretend a provider is configured
// from the browser side only, so they bypass the page CSP to reach the stand-in scripts.
test.use({ bypassCSP: true });

const TURNSTILE_SCRIPT = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";
const RECAPTCHA_HOST = "https://www.google.com/recaptcha/";
const SITE_KEY = "e2e-site-key";

const FORMS = [
  { path: "/account/login", submit: en.login.submit },
  { path: "/account/register", submit: en.register.submit },
  { path: "/account/recovery", submit: en.recovery.submit },
] as const;

/** Makes GET /api/captcha answer this widget in the page. */
async function answerCaptcha(page: Page, type: string) {
  await page.route("**/api/captcha", (route) => route.fulfill({ json: { type, siteKey: SITE_KEY } }));
}

/** Every request the page makes to a host other than the server under test. */
function outsideRequests(page: Page, baseURL: string | undefined): string[] {
  const origin = new URL(baseURL ?? "").origin;
  const outside: string[] = [];
  page.on("request", (request: Request) => {
    const url = request.url();
    if (/^https?:/.test(url) && new URL(url).origin !== origin) outside.push(url);
  });
  return outside;
}

test("with captcha off the forms are ready at once and nothing is fetched from outside", async ({ page, baseURL }) => {
  const outside = outsideRequests(page, baseURL);
  for (const form of FORMS) {
    const answered = page.waitForResponse((r) => r.url().endsWith("/api/captcha") && r.request().method() === "GET");
    await page.goto(form.path);
    expect(await (await answered).json()).toEqual({ type: "None", siteKey: "" });
    await expect(page.getByRole("button", { name: form.submit, exact: true })).toBeEnabled();
    await expect(page.getByText(en.captcha.wait)).toHaveCount(0);
    await expect(page.locator("input[name=challenge]")).toHaveCount(0);
  }
  await page.waitForLoadState("networkidle");
  expect(outside).toEqual([]);
  await expect(page.locator("script[src*='turnstile'], script[src*='recaptcha']")).toHaveCount(0);
});

test("a login sent before GET /api/captcha answers goes out (the page's loader already said which widget)", async ({ page }) => {
  const user = await registerUser(page);
  await page.context().clearCookies();
  // The call hangs until the login was sent: the form must not wait for it.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/captcha", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/account/login");
  await hydrated(page);
  await page.getByLabel(en.login.userName).fill(user.userName);
  await page.getByLabel(en.login.password, { exact: true }).fill(user.password);
  const login = page.waitForRequest((r) => r.url().endsWith("/api/account/login") && r.method() === "POST");
  await page.getByLabel(en.login.password, { exact: true }).press("Enter");
  await login;
  release();
  await expect(page).not.toHaveURL(/\/account\/login/);
});

for (const provider of [
  { type: "CloudflareTurnstile", script: TURNSTILE_SCRIPT, pattern: "https://challenges.cloudflare.com/**" },
  { type: "GoogleRecaptcha", script: `${RECAPTCHA_HOST}api.js?render=${SITE_KEY}`, pattern: `${RECAPTCHA_HOST}**` },
] as const) {
  test(`${provider.type}: while the widget has no token the submit buttons wait`, async ({ page }) => {
    await answerCaptcha(page, provider.type);
    const asked: string[] = [];
    await page.route(provider.pattern, (route) => {
      asked.push(route.request().url());
      return route.abort("blockedbyclient");
    });
    for (const form of FORMS) {
      await page.goto(form.path);
      const button = page.getByRole("button", { name: en.captcha.wait, exact: true });
      await expect(button).toBeVisible();
      await expect(button).toBeDisabled();
      await expect(page.getByRole("button", { name: form.submit, exact: true })).toHaveCount(0);
      // The blocked script leaves the form waiting, with a hint to reload.
      await expect(page.getByRole("alert")).toHaveText(en.captcha.loadFailed);
    }
    expect(asked).toContain(provider.script);
  });
}

/** Stands in for Turnstile's script: the test hands out tokens through window.__turnstile. */
const TURNSTILE_STUB = `
  window.__turnstile = { renders: [], resets: 0 };
  window.turnstile = {
    render(element, options) { window.__turnstile.renders.push(options); return "widget-1"; },
    reset() { window.__turnstile.resets += 1; },
    remove() {},
  };
`;

type TurnstileProbe = { renders: { sitekey: string; action: string; callback: (token: string) => void }[]; resets: number };

function giveToken(page: Page, token: string) {
  return page.evaluate((t) => {
    const probe = (window as unknown as { __turnstile: TurnstileProbe }).__turnstile;
    probe.renders.at(-1)!.callback(t);
  }, token);
}

function loginBody(page: Page) {
  return page.waitForRequest((r) => r.url().endsWith("/api/account/login") && r.method() === "POST");
}

test("Turnstile: the token is sent as challenge and a failed login asks for a new one", async ({ page, browser }) => {
  const other = await browser.newContext();
  const user = await registerUser(other.request);
  await other.close();

  await answerCaptcha(page, "CloudflareTurnstile");
  await page.route(TURNSTILE_SCRIPT, (route) => route.fulfill({ contentType: "text/javascript", body: TURNSTILE_STUB }));
  await page.goto("/account/login");
  const waiting = page.getByRole("button", { name: en.captcha.wait, exact: true });
  await expect(waiting).toBeDisabled();
  // The page loads the provider's script on its own schedule: until the stand-in ran there is no probe.
  await expect.poll(() => page.evaluate(() => (window as unknown as { __turnstile?: TurnstileProbe }).__turnstile?.renders.length ?? 0)).toBe(1);
  const options = await page.evaluate(() => {
    const [first] = (window as unknown as { __turnstile: TurnstileProbe }).__turnstile.renders;
    return { sitekey: first!.sitekey, action: first!.action };
  });
  expect(options).toEqual({ sitekey: SITE_KEY, action: "login" });

  await giveToken(page, "token-1");
  const submit = page.getByRole("button", { name: en.login.submit, exact: true });
  await expect(submit).toBeEnabled();
  await page.getByLabel(en.login.userName, { exact: true }).fill(user.userName);
  await page.getByLabel(en.login.password, { exact: true }).fill("Wrong-passw0rd");
  const first = loginBody(page);
  await submit.click();
  expect((await first).postDataJSON()).toMatchObject({ userName: user.userName, challenge: "token-1" });

  // The server refused: the used token is dropped and the widget reset.
  await expect(page.getByRole("alert")).toBeVisible();
  await expect(waiting).toBeDisabled();
  expect(await page.evaluate(() => (window as unknown as { __turnstile: TurnstileProbe }).__turnstile.resets)).toBe(1);

  await giveToken(page, "token-2");
  await page.getByLabel(en.login.password, { exact: true }).fill(user.password);
  const second = loginBody(page);
  await submit.click();
  expect((await second).postDataJSON()).toMatchObject({ userName: user.userName, challenge: "token-2" });
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("banner").getByRole("link", { name: user.userName })).toBeVisible();
});

/** Stands in for reCAPTCHA v3's script: each execute answers a new token. */
const RECAPTCHA_STUB = `
  window.__recaptcha = [];
  window.grecaptcha = {
    ready(callback) { callback(); },
    execute(siteKey, options) {
      window.__recaptcha.push({ siteKey, action: options.action });
      return Promise.resolve("rc-" + window.__recaptcha.length);
    },
  };
`;

test("reCAPTCHA v3: a token is fetched at once, sent as challenge, and renewed after a failed register", async ({ page, browser }) => {
  const other = await browser.newContext();
  const taken = await registerUser(other.request);
  await other.close();

  await answerCaptcha(page, "GoogleRecaptcha");
  await page.route(`${RECAPTCHA_HOST}**`, (route) => route.fulfill({ contentType: "text/javascript", body: RECAPTCHA_STUB }));
  await page.goto("/account/register");
  const submit = page.getByRole("button", { name: en.register.submit, exact: true });
  await expect(submit).toBeEnabled();

  // A taken user name: the server refuses, and the form asks reCAPTCHA for a fresh token.
  await page.getByLabel(en.register.userName, { exact: true }).fill(taken.userName);
  await page.getByLabel(en.register.email, { exact: true }).fill(`x${taken.email}`);
  await page.getByLabel(en.register.password, { exact: true }).fill(taken.password);
  await page.getByLabel(en.password.retype, { exact: true }).fill(taken.password);
  const sent = page.waitForRequest((r) => r.url().endsWith("/api/account/register") && r.method() === "POST");
  await submit.click();
  expect((await sent).postDataJSON()).toMatchObject({ userName: taken.userName, challenge: "rc-1" });
  // Shown at the user name field, not above the form: the token is renewed all the same.
  await expect(page.getByLabel(en.register.userName, { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect.poll(() => page.evaluate(() => (window as unknown as { __recaptcha: unknown[] }).__recaptcha)).toEqual([
    { siteKey: SITE_KEY, action: "register" },
    { siteKey: SITE_KEY, action: "register" },
  ]);
  await expect(submit).toBeEnabled();
  const again = page.waitForRequest((r) => r.url().endsWith("/api/account/register") && r.method() === "POST");
  await submit.click();
  expect((await again).postDataJSON()).toMatchObject({ challenge: "rc-2" });
});
