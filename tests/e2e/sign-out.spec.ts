import { expect, hydrated, registerUser, test } from "./fixtures";
import { en } from "./ui-seed";

// What the browser shows of a session after it ended: Back through the private pages, and a page left open
// in another tab.

const loginFor = (path: string) => new RegExp(`/account/login\\?from=${encodeURIComponent(path).replace(/[?]/g, "\\?")}$`);

test("Back after signing out passes each private page's sign-in on to the pages before them, and the browser kept no copy of them", async ({ adminPage: page }) => {
  await page.goto("/about");
  const profile = await page.goto("/account/Profile");
  // A signed-in page is not kept by the browser; a signed-out one may be.
  expect(profile?.headers()["cache-control"]).toBe("private, no-store");
  await page.goto("/admin/Users");
  await expect(page.getByRole("heading", { level: 1, name: en.adminUsers.title })).toBeVisible();
  await page.getByRole("button", { name: en.nav.logout }).first().click();
  await expect(page.getByRole("link", { name: en.nav.login }).first()).toBeVisible();

  // Each private page sends Back to the login page in its own place in the history…
  await page.goBack();
  await expect(page).toHaveURL(loginFor("/admin/Users"));
  await page.goBack();
  await expect(page).toHaveURL(loginFor("/account/Profile"));
  // …so one more Back reaches the page before them, instead of the private page again.
  await page.goBack();
  await expect(page).toHaveURL(/\/about$/);
  const about = await page.reload();
  expect(about?.headers()["cache-control"]).toBeUndefined();
});

test("a list page left open in another tab goes to the login page at its next refresh once the session ended", async ({ adminPage: page }) => {
  test.setTimeout(60_000);
  await page.goto("/admin/Users");
  const rows = page.getByRole("row").filter({ hasText: "@" });
  await expect(rows.first()).toBeVisible();
  const other = await page.context().newPage();
  await other.goto("/");
  await other.getByRole("button", { name: en.nav.logout }).first().click();
  await expect(other.getByRole("link", { name: en.nav.login }).first()).toBeVisible();

  // The list refreshes every 10 s: its refusal sends the page to sign in, with nothing of the list left.
  await expect(page).toHaveURL(loginFor("/admin/Users"), { timeout: 25_000 });
  await expect(rows).toHaveCount(0);
  await expect(page.getByRole("heading", { name: en.error.title })).toHaveCount(0);
});

test("the teams page and the monitor's submissions go to the login page once the session ended in another tab", async ({ adminPage: page, browser }) => {
  test.setTimeout(90_000);
  // A player's teams page.
  const context = await browser.newContext();
  const player = await context.newPage();
  await registerUser(player);
  const team = `Gone ${Date.now().toString(36)}`.slice(0, 20);
  expect((await player.request.post("/api/team", { data: { name: team } })).status()).toBe(200);
  await player.goto("/teams");
  await expect(player.getByText(team).first()).toBeVisible();
  expect((await player.request.post("/api/account/logout")).status()).toBe(200);
  await expect(player).toHaveURL(loginFor("/teams"), { timeout: 25_000 });
  await expect(player.getByText(team)).toHaveCount(0);
  await context.close();

  // An admin's Monitor › Submissions with a submission on it.
  const now = Date.now();
  const game = (await (await page.request.post("/api/edit/games", { data: { title: `Watch ${now.toString(36)}`, start: now - 3_600_000, end: now + 3_600_000 } })).json()) as { id: number };
  await page.goto(`/games/${game.id}/monitor/Submissions`);
  await expect(page.getByTestId("monitor-socket")).toHaveAttribute("data-state", "open");
  const other = await page.context().newPage();
  await other.goto("/");
  await other.getByRole("button", { name: en.nav.logout }).first().click();
  await expect(page).toHaveURL(loginFor(`/games/${game.id}/monitor/Submissions`), { timeout: 25_000 });
});

test("Sign out on a page whose session already ended elsewhere lands signed out on the home page, and the browser forgets the dead cookie", async ({ page, context, playwright, baseURL }) => {
  await registerUser(page);
  await page.goto("/about");
  await hydrated(page);
  const nav = page.getByRole("banner");
  const session = (await context.cookies()).find((c) => c.name === "flagstaff_session");
  expect(session?.value).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  // The session ends behind the page's back: a copy of its cookie signs out elsewhere.
  const elsewhere = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { cookie: `flagstaff_session=${session!.value}` } });
  expect((await elsewhere.post("/api/account/logout")).status()).toBe(200);
  await elsewhere.dispose();

  await nav.getByRole("button", { name: en.nav.logout, exact: true }).click();
  await expect(page).toHaveURL(new URL("/", baseURL).href);
  await expect(nav.getByRole("link", { name: en.nav.login, exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: en.error.title })).toHaveCount(0);
  // The refused sign-out cleared the cookie: the browser no longer sends a session that resolves to nobody.
  expect((await context.cookies()).find((c) => c.name === "flagstaff_session")).toBeUndefined();
});
