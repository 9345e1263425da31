import { readFileSync } from "node:fs";
import type { APIRequestContext, Page, PlaywrightWorkerArgs } from "@playwright/test";
import { e2eMailboxUrl } from "../support/e2e-mail";
import { waitForMailLink } from "../support/mail-reader";
import { adminCredentials, DEFAULT_PASSWORD, expect, expectRefusedAt, hydrated, registerUser, test, uniqueUserName } from "./fixtures";

// Real mail: the server sends through the loopback SMTP server started by playwright.config.ts
// (tests/support/e2e-mail.ts); each test reads the link out of the received message and opens it.
type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;
const ja = JSON.parse(readFileSync(new URL("../../app/locales/ja-JP/common.json", import.meta.url), "utf8")) as Strings;
type Errors = typeof import("../../app/locales/en-US/errors.json");
const errors = JSON.parse(readFileSync(new URL("../../app/locales/en-US/errors.json", import.meta.url), "utf8")) as Errors;
const jaErrors = JSON.parse(readFileSync(new URL("../../app/locales/ja-JP/errors.json", import.meta.url), "utf8")) as Errors;
const FIRST_LOAD = { timeout: 15_000 };

type AccountPolicy = Record<string, unknown>;

/**
 * Runs `fn` with the account policy changed through PUT /api/admin/config (signed in as the first
 * admin in a request context of its own), and puts the previous policy back afterwards.
 */
async function withAccountPolicy(
  playwright: PlaywrightWorkerArgs["playwright"],
  baseURL: string | undefined,
  policy: AccountPolicy,
  fn: () => Promise<void>,
): Promise<void> {
  const admin: APIRequestContext = await playwright.request.newContext({ baseURL });
  try {
    expect((await admin.post("/api/account/login", { data: adminCredentials })).status()).toBe(200);
    const before = ((await (await admin.get("/api/admin/config")).json()) as { accountPolicy: AccountPolicy }).accountPolicy;
    expect((await admin.put("/api/admin/config", { data: { accountPolicy: policy } })).status()).toBe(200);
    try {
      await fn();
    } finally {
      expect((await admin.put("/api/admin/config", { data: { accountPolicy: before } })).status()).toBe(200);
    }
  } finally {
    await admin.dispose();
  }
}

/** Opens a mailed link in the browser; it must point at the server under test. */
async function openLink(page: Page, link: URL, baseURL: string | undefined) {
  expect(link.origin).toBe(new URL(baseURL ?? "").origin);
  await page.goto(link.href);
}

test("register with email verification: the mailed link activates the account and signs in", async ({ page, playwright, baseURL }) => {
  await withAccountPolicy(playwright, baseURL, { emailConfirmationRequired: true, activeOnRegister: true }, async () => {
    const userName = uniqueUserName("mv");
    const email = `${userName.toLowerCase()}@example.com`;
    await page.goto("/account/register");
    await page.getByLabel(en.register.userName, { exact: true }).fill(userName);
    await page.getByLabel(en.register.email, { exact: true }).fill(email);
    await page.getByLabel(en.register.password, { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByLabel(en.password.retype, { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByRole("button", { name: en.register.submit, exact: true }).click(FIRST_LOAD);
    await expect(page.getByText(en.register.checkEmailTitle)).toBeVisible();
    await expect(page.getByText(en.register.checkEmail)).toBeVisible();

    // Not signed in, and the account cannot log in before it is verified.
    const nav = page.getByRole("banner");
    await expect(nav.getByRole("link", { name: en.nav.login, exact: true })).toBeVisible();
    expect((await page.request.post("/api/account/login", { data: { userName, password: DEFAULT_PASSWORD } })).status()).toBe(401);

    const link = await waitForMailLink(e2eMailboxUrl(), email, "/account/verify");
    await openLink(page, link, baseURL);
    await expect(page.getByText(en.verify.successTitle)).toBeVisible();
    await expect(nav.getByRole("link", { name: userName })).toBeVisible();
    expect((await page.request.get("/api/account/profile")).status()).toBe(200);

    // The link is single-use: opening it again fails. The user it signed in is offered the site, not a log-in.
    await page.goto(link.href);
    await expect(page.getByText(en.verify.failedTitle)).toBeVisible();
    await expect(page.getByText(en.verify.failed)).toBeVisible();
    await expect(page.getByText(en.verify.signedInAs.replace("{{user}}", userName))).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: en.verify.toLogin })).toHaveCount(0);
    await page.getByRole("main").getByRole("link", { name: en.verify.home }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test("password recovery: the mailed link sets a new password and signs out every session", async ({ page, browser }) => {
  // The user is signed in elsewhere.
  const elsewhere = await browser.newContext();
  const elsewherePage = await elsewhere.newPage();
  const user = await registerUser(elsewherePage, { userName: uniqueUserName("mr") });
  expect(user.status).toBe("LoggedIn");
  expect((await elsewherePage.request.get("/api/account/profile")).status()).toBe(200);

  await page.goto("/account/recovery");
  await page.getByLabel(en.recovery.email, { exact: true }).fill(user.email.toUpperCase());
  await page.getByRole("button", { name: en.recovery.submit, exact: true }).click(FIRST_LOAD);
  await expect(page.getByText(en.recovery.sentTitle)).toBeVisible();

  const link = await waitForMailLink(e2eMailboxUrl(), user.email, "/account/reset");
  await page.goto(link.href);
  const newPassword = "Rec0vered!e2e";
  await page.getByLabel(en.reset.password, { exact: true }).fill(newPassword);
  await page.getByLabel(en.password.retype, { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: en.reset.submit, exact: true }).click();
  await expect(page.getByText(en.reset.doneTitle)).toBeVisible();

  // The other session is gone: the API refuses it and its next page load asks to log in.
  expect((await elsewherePage.request.get("/api/account/profile")).status()).toBe(401);
  await elsewherePage.goto("/account/profile");
  await expect(elsewherePage).toHaveURL(/\/account\/login\?from=%2Faccount%2Fprofile/);
  await elsewhere.close();

  // The old password no longer works; the new one does.
  expect((await page.request.post("/api/account/login", { data: { userName: user.userName, password: user.password } })).status()).toBe(401);
  await page.getByRole("link", { name: en.reset.toLogin, exact: true }).click();
  await page.getByLabel(en.login.userName, { exact: true }).fill(user.userName);
  await page.getByLabel(en.login.password, { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: en.login.submit, exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("banner").getByRole("link", { name: user.userName })).toBeVisible();

  // The reset link was used up.
  await page.goto(link.href);
  await page.getByLabel(en.reset.password, { exact: true }).fill("An0ther!pass");
  await page.getByLabel(en.password.retype, { exact: true }).fill("An0ther!pass");
  await page.getByRole("button", { name: en.reset.submit, exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText(errors.account.reset_token_invalid);
  await expect(page.getByText(en.reset.doneTitle, { exact: true })).toHaveCount(0);
});

test("change email from the profile: the link mailed to the new address confirms it", async ({ page, playwright, baseURL }) => {
  const user = await registerUser(page, { userName: uniqueUserName("mc") });
  expect(user.status).toBe("LoggedIn");
  const newEmail = `${uniqueUserName("new").toLowerCase()}@example.org`;

  await withAccountPolicy(playwright, baseURL, { emailConfirmationRequired: true }, async () => {
    await page.goto("/account/profile");
    await expect(page.getByRole("heading", { name: en.profile.title, level: 1 })).toBeVisible(FIRST_LOAD);
    await expect(page.getByLabel(en.profile.email, { exact: true })).toHaveValue(user.email);
    await page.getByLabel(en.profile.newEmail, { exact: true }).fill(newEmail);
    await page.getByRole("button", { name: en.profile.changeEmail, exact: true }).click();
    await expect(page.getByText(en.profile.emailSent)).toBeVisible();
    // Nothing changes before the link is opened.
    await page.reload();
    await expect(page.getByLabel(en.profile.email, { exact: true })).toHaveValue(user.email);

    const link = await waitForMailLink(e2eMailboxUrl(), newEmail, "/account/confirm");
    await openLink(page, link, baseURL);
    await expect(page.getByText(en.confirmEmail.successTitle)).toBeVisible();
    await page.getByRole("link", { name: en.confirmEmail.toProfile, exact: true }).click();
    await expect(page.getByLabel(en.profile.email, { exact: true })).toHaveValue(newEmail);
    await page.reload();
    await expect(page.getByLabel(en.profile.email, { exact: true })).toHaveValue(newEmail);
  });
});

test("change email: an empty, invalid or taken new address is shown at the New email field, not above the form, until it changes (ja-JP)", async ({ page, browser, playwright, baseURL }) => {
  const other = await browser.newContext();
  const taken = await registerUser(other.request);
  await other.close();
  await registerUser(page, { userName: uniqueUserName("mf") });
  await page.context().addCookies([{ name: "i18next", value: "ja-JP", url: baseURL! }]);

  await withAccountPolicy(playwright, baseURL, { emailConfirmationRequired: true }, async () => {
    await page.goto("/account/profile");
    await expect(page.getByRole("heading", { name: ja.profile.title, level: 1 })).toBeVisible(FIRST_LOAD);
    await hydrated(page);
    const newMail = page.getByLabel(ja.profile.newEmail, { exact: true });
    const submit = page.getByRole("button", { name: ja.profile.changeEmail, exact: true });
    const form = page.locator("form").filter({ has: newMail });

    // The form's own check, then the API's refusals (X-Error-Field: newMail).
    await submit.click();
    await expectRefusedAt(newMail, ja.profile.newEmailRequired);
    await newMail.fill("not-an-address");
    await submit.click();
    await expectRefusedAt(newMail, jaErrors.validation.invalid_email);
    await newMail.fill(taken.email.toUpperCase());
    await submit.click();
    await expectRefusedAt(newMail, jaErrors.account.email_taken);
    await expect(form.getByRole("alert")).toHaveCount(0);
    // Changed, the field's message goes.
    await newMail.press("End");
    await newMail.press("Backspace");
    await expect(newMail).not.toHaveAttribute("aria-invalid", "true");
    await expect(form.getByText(jaErrors.account.email_taken, { exact: true })).toHaveCount(0);

    await newMail.fill(`${uniqueUserName("new").toLowerCase()}@example.org`);
    await submit.click();
    await expect(form.getByText(ja.profile.emailSent, { exact: true })).toBeVisible();
    await expect(newMail).not.toHaveAttribute("aria-invalid", "true");
  });
});
