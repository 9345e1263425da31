import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expect, hydrated, registerUser, test } from "./fixtures";
import { en } from "./ui-seed";

const ja = JSON.parse(readFileSync(new URL("../../app/locales/ja-JP/common.json", import.meta.url), "utf8")) as typeof en;

// Cookies whose escapes cannot be decoded (`%E0%A4%A`: a cut-off UTF-8 sequence) are ignored as if absent,
// on the server and in the browser, instead of failing the page.

/** The page's console errors and uncaught exceptions. */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(`${error.name}: ${error.message}`));
  return errors;
}

test("a broken session cookie is no session: the pages render signed out, and logging in and out works", async ({ page, context, baseURL, request }) => {
  const user = await registerUser(request);
  await context.addCookies([{ name: "flagstaff_session", value: "%E0%A4%A", url: baseURL! }]);
  const errors = errorsOf(page);
  const home = await page.goto("/");
  expect(home?.status()).toBe(200);
  await hydrated(page);
  const nav = page.getByRole("banner");
  await expect(nav.getByRole("link", { name: en.nav.login, exact: true })).toBeVisible();

  await nav.getByRole("link", { name: en.nav.login, exact: true }).click();
  await page.getByLabel(en.login.userName, { exact: true }).fill(user.userName);
  await page.getByLabel(en.login.password, { exact: true }).fill(user.password);
  await page.getByRole("button", { name: en.login.submit, exact: true }).click();
  await expect(nav.getByRole("link", { name: user.userName })).toBeVisible();
  const session = (await context.cookies()).find((c) => c.name === "flagstaff_session");
  expect(session?.value).toMatch(/^[A-Za-z0-9_-]{40,}$/);

  await nav.getByRole("button", { name: en.nav.logout, exact: true }).click();
  await expect(nav.getByRole("link", { name: en.nav.login, exact: true })).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === "flagstaff_session")).toBeUndefined();
  expect(errors).toEqual([]);
});

test("a broken language cookie is ignored: the page renders in the language it would have without it", async ({ page, context, baseURL, browser }) => {
  await context.addCookies([{ name: "i18next", value: "%E0%A4%A", url: baseURL! }]);
  const errors = errorsOf(page);
  await page.goto("/");
  await hydrated(page);
  await expect(page.getByRole("heading", { name: en.home.latestPosts, level: 2 })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  await expect(page.getByRole("heading", { name: en.error.title })).toHaveCount(0);
  // The page's language is written back over the broken value, as it is when there is no cookie.
  await expect.poll(async () => (await context.cookies()).find((c) => c.name === "i18next")?.value).toBe("en-US");
  expect(errors).toEqual([]);

  // A language kept in localStorage still wins over Accept-Language after hydration, as without a cookie.
  const other = await browser.newContext({ baseURL });
  await other.addCookies([{ name: "i18next", value: "%E0%A4%A", url: baseURL! }]);
  const stored = await other.newPage();
  const storedErrors = errorsOf(stored);
  await stored.addInitScript(() => localStorage.setItem("i18nextLng", "ja-JP"));
  await stored.goto("/");
  await hydrated(stored);
  await expect(stored.locator("html")).toHaveAttribute("lang", "ja-JP");
  await expect(stored.getByRole("heading", { name: ja.home.latestPosts, level: 2 })).toBeVisible();
  await expect(stored.getByRole("heading", { name: ja.error.title })).toHaveCount(0);
  expect(storedErrors).toEqual([]);
  await other.close();
});
