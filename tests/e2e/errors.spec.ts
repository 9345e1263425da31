import { expect, test } from "./fixtures";
import { en } from "./ui-seed";

/** Spec §2: the global error screen (message, stack, Try again, Clear cache) and the 404 page. */

test("a client-side failure shows the error screen with its message, stack, Try again and Clear cache", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto("/about");
  await page.evaluate(() => localStorage.setItem("flagstaff-cache:probe", "x"));
  // The games list's clientLoader reads malformed JSON: the browser throws while loading the page.
  await page.route(/\/api\/game\?count=50/, (route) => route.fulfill({ status: 200, contentType: "application/json", body: '{"data": [' }));
  await page.goto("/games");

  await expect(page.getByRole("heading", { name: en.error.title, level: 1 })).toBeVisible();
  const details = page.locator("details");
  await expect(details.getByText(en.error.stack)).toBeVisible();
  await expect(details.locator("pre")).toContainText(/\w+/);
  await expect(page.getByRole("button", { name: en.error.tryAgain })).toBeVisible();
  await expect(page.getByRole("button", { name: en.nav.clearCache }).last()).toBeVisible();
  // The site header stays, so the visitor can navigate away.
  await expect(page.getByRole("banner")).toBeVisible();

  // Try again, once the API answers properly, loads the page.
  await page.unroute(/\/api\/game\?count=50/);
  await page.getByRole("button", { name: en.error.tryAgain }).click();
  await expect(page.getByRole("heading", { name: en.games.title, level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: en.error.title })).toHaveCount(0);

  // Clear cache on the error screen empties the list caches.
  await page.route(/\/api\/game\?count=50/, (route) => route.fulfill({ status: 200, contentType: "application/json", body: "<html>" }));
  await page.evaluate(() => localStorage.clear());
  await page.evaluate(() => localStorage.setItem("flagstaff-cache:probe", "x"));
  await page.reload();
  await expect(page.getByRole("heading", { name: en.error.title, level: 1 })).toBeVisible();
  await page.getByRole("button", { name: en.nav.clearCache }).last().click();
  await expect.poll(() => page.evaluate(() => localStorage.getItem("flagstaff-cache:probe"))).toBeNull();
});

test("an unknown address shows the 404 page with a way home", async ({ page }) => {
  const response = await page.goto("/this/page/does-not-exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: en.notFound.title, level: 1 })).toBeVisible();
  await expect(page.getByText(en.notFound.message)).toBeVisible();
  await page.getByRole("link", { name: en.notFound.home }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("a post that does not exist shows the 404 screen", async ({ page }) => {
  const response = await page.goto("/posts/zzzzzzzz");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: en.notFound.title, level: 1 })).toBeVisible();
});
