import { readFileSync } from "node:fs";
import { expect, expectRefusedAt, interpolate as fill, test } from "./fixtures";
import { onOneConnection } from "./raw-http";
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

test("a post that does not exist shows the 404 screen, titled so", async ({ page }) => {
  const response = await page.goto("/posts/zzzzzzzz");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: en.notFound.title, level: 1 })).toBeVisible();
  await expect(page.getByText(en.posts.notFound)).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^${en.notFound.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} · `));
});

test("a game that does not exist shows the 404 screen with a way home instead of Try again", async ({ page }) => {
  const response = await page.goto("/games/999999999");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: en.notFound.title, level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: en.error.tryAgain })).toHaveCount(0);
  await page.getByRole("main").getByRole("link", { name: en.notFound.home }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("a navigation that cannot reach the server says so, without a stack, and the page comes back by itself", async ({ page }) => {
  await page.goto("/about");
  await expect(page.getByRole("link", { name: en.nav.games })).toBeVisible();
  // The server stops answering: the next page's data cannot be fetched.
  await page.route(/\.data(\?|$)/, (route) => route.abort("connectionrefused"));
  await page.route(/\/api\/config$/, (route) => route.abort("connectionrefused"));
  await page.getByRole("link", { name: en.nav.games }).first().click();
  await expect(page.getByRole("heading", { name: en.error.offlineTitle, level: 1 })).toBeVisible();
  await expect(page.getByText(en.error.retrying)).toBeVisible();
  await expect(page.locator("details")).toHaveCount(0);
  // Back: the page reloads on its own once the server answers.
  await page.unrouteAll();
  await expect(page.getByRole("heading", { name: en.games.title, level: 1 })).toBeVisible({ timeout: 15_000 });
});

test("a deleted or unknown challenge's editor and flags pages show the 404 screen, not the error screen", async ({ adminPage: page }) => {
  const now = Date.now();
  const game = (await (await page.request.post("/api/edit/games", { data: { title: `Gone ${now.toString(36)}`, start: now, end: now + 3_600_000 } })).json()) as { id: number };
  const challenge = (await (await page.request.post(`/api/edit/games/${game.id}/challenges`, { data: { title: "Soon gone", category: "Misc", type: "StaticAttachment" } })).json()) as { id: number };
  expect((await page.request.delete(`/api/edit/games/${game.id}/challenges/${challenge.id}`)).status()).toBe(200);
  for (const path of [`/admin/games/${game.id}/challenges/${challenge.id}`, `/admin/games/${game.id}/challenges/${challenge.id}/flags`, `/admin/games/${game.id}/challenges/999999999`]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: en.notFound.title, level: 1 }), path).toBeVisible();
    await expect(page.getByRole("heading", { name: en.error.title })).toHaveCount(0);
  }
});

test("an out-of-range number is refused with its field and range, in the admin's language, and nothing is saved", async ({ adminPage: page }) => {
  type Errors = { fields: Record<string, string>; validation: Record<string, string> };
  const errors = (lang: string) => JSON.parse(readFileSync(new URL(`../../app/locales/${lang}/errors.json`, import.meta.url), "utf8")) as Errors;
  const ja = JSON.parse(readFileSync(new URL("../../app/locales/ja-JP/common.json", import.meta.url), "utf8")) as typeof en;
  const now = Date.now();
  const game = (await (await page.request.post("/api/edit/games", { data: { title: `Ranges ${now.toString(36)}`, start: now - 3_600_000, end: now + 3_600_000 } })).json()) as { id: number };
  const challenge = (await (await page.request.post(`/api/edit/games/${game.id}/challenges`, { data: { title: "Ranged", category: "Misc", type: "StaticAttachment" } })).json()) as { id: number };

  // A challenge's minimum score ratio above 1: the range, not "has the wrong type".
  // Shown at the field, which takes the focus: the top of this long form is off-screen at its Save button.
  await page.goto(`/admin/games/${game.id}/challenges/${challenge.id}`);
  const minRate = page.getByLabel(en.adminChallenges.minScoreRate);
  await minRate.fill("2");
  await page.getByRole("button", { name: en.adminChallenges.save, exact: true }).click();
  const en_ = errors("en-US");
  await expectRefusedAt(minRate, fill(en_.validation.too_big_number!, { field: en_.fields.minScoreRate!, max: 1 }));
  const stored = (await (await page.request.get(`/api/edit/games/${game.id}/challenges/${challenge.id}`)).json()) as { minScoreRate: number };
  expect(stored.minScoreRate).not.toBe(2);
  // A good save says so beside the Save button, where the admin is.
  await minRate.fill("0.5");
  await page.getByRole("button", { name: en.adminChallenges.save, exact: true }).click();
  await expect(page.getByText(en.adminChallenges.saved, { exact: true })).toBeInViewport();
  await expect(minRate).not.toHaveAttribute("aria-invalid", "true");

  // A deadline with a part deleted reads as "" to the page: refused at the field, not saved as "no deadline".
  const deadline = page.getByLabel(en.adminChallenges.deadline);
  await deadline.fill("2030-11-30T12:00");
  await page.getByRole("button", { name: en.adminChallenges.save, exact: true }).click();
  await expect(page.getByText(en.adminChallenges.saved, { exact: true })).toBeInViewport();
  const dated = (await (await page.request.get(`/api/edit/games/${game.id}/challenges/${challenge.id}`)).json()) as { deadlineUtc: number | null };
  expect(dated.deadlineUtc).toBeGreaterThan(now);
  await deadline.focus();
  await page.keyboard.press("Backspace");
  expect(await deadline.evaluate((input: HTMLInputElement) => input.validity.badInput)).toBe(true);
  await page.getByRole("button", { name: en.adminChallenges.save, exact: true }).click();
  await expectRefusedAt(deadline, en.adminChallenges.deadlineIncomplete);
  const kept = (await (await page.request.get(`/api/edit/games/${game.id}/challenges/${challenge.id}`)).json()) as typeof dated;
  expect(kept.deadlineUtc).toBe(dated.deadlineUtc);

  // A game's first blood of 150 % and a member limit of −3: refused in the form, not saved as 100 % and 0.
  await page.goto(`/admin/games/${game.id}/info`);
  const before = (await (await page.request.get(`/api/edit/games/${game.id}`)).json()) as { bloodBonus: number; teamMemberCountLimit: number; containerCountLimit: number };
  await page.getByLabel(en.adminGames.blood.first).fill("150");
  await page.getByRole("button", { name: en.adminGames.save, exact: true }).click();
  // At the field, as the server's refusals of a field are.
  await expectRefusedAt(page.getByLabel(en.adminGames.blood.first), fill(en.adminGames.numberDecimal_one, { field: en.adminGames.blood.first, min: 0, max: 100, count: 1 }));
  await page.getByLabel(en.adminGames.blood.first).fill("5");
  // A limit cleared to retype it is refused, not saved as 0 ("unlimited").
  await page.getByLabel(en.adminGames.field.containerLimit).fill("");
  await page.getByRole("button", { name: en.adminGames.save, exact: true }).click();
  await expectRefusedAt(page.getByLabel(en.adminGames.field.containerLimit), fill(en.adminGames.numberWhole, { field: en.adminGames.field.containerLimit, min: 0, max: 1000000 }));
  await page.getByLabel(en.adminGames.field.containerLimit).fill(String(before.containerCountLimit));
  await page.getByLabel(en.adminGames.field.memberLimit).fill("-3");
  await page.getByRole("button", { name: en.adminGames.save, exact: true }).click();
  await expectRefusedAt(page.getByLabel(en.adminGames.field.memberLimit), fill(en.adminGames.numberWhole, { field: en.adminGames.field.memberLimit, min: 0, max: 1000000 }));
  await expect(page.getByText(en.adminGames.saved)).toHaveCount(0);
  const after = (await (await page.request.get(`/api/edit/games/${game.id}`)).json()) as typeof before;
  expect(after).toMatchObject(before);

  // The container policy's default lifetime in Japanese: refused at its field with its range, not saved.
  await page.goto("/admin/settings?lng=ja-JP");
  const section = page.getByRole("region", { name: ja.settings.container.heading });
  const lifetime = section.getByLabel(ja.settings.container.defaultLifetime);
  const policyBefore = ((await (await page.request.get("/api/admin/config")).json()) as { containerPolicy: { defaultLifetime: number } }).containerPolicy;
  await lifetime.fill("99999");
  await section.getByRole("button", { name: ja.settings.save, exact: true }).click();
  await expect(lifetime).toHaveAttribute("aria-invalid", "true");
  await expect(lifetime).toHaveAccessibleDescription(new RegExp(fill(ja.settings.container.minutesRange, { min: 1, max: 7200 })));
  const policyAfter = ((await (await page.request.get("/api/admin/config")).json()) as { containerPolicy: { defaultLifetime: number } }).containerPolicy;
  expect(policyAfter.defaultLifetime).toBe(policyBefore.defaultLifetime);
});

test("long words stay inside the page, a page past the end says so, and long items are named by their field", async ({ adminPage: page }) => {
  type Errors = { fields: Record<string, string>; validation: Record<string, string> };
  const errorsEn = JSON.parse(readFileSync(new URL("../../app/locales/en-US/errors.json", import.meta.url), "utf8")) as Errors;
  const word = (n: number) => "W".repeat(n);

  // A post whose title and summary are single long words.
  const created = await page.request.post("/api/edit/posts", { data: { title: `${Date.now().toString(36)}${word(50)}`.slice(0, 50), summary: word(1000), content: "body", tags: ["ok"] } });
  expect(created.status()).toBe(200);
  const postId = ((await created.json()) as { id: string }).id;
  for (const path of ["/posts", `/posts/${postId}`, "/"]) {
    await page.goto(path);
    await expect(page.locator("main h1").first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${path} overflows by ${overflow}px`).toBeLessThanOrEqual(0);
  }

  // A tag too long: named "Tags" (not by its place in the list), with the limit of each tag.
  const tagged = await page.request.put(`/api/edit/posts/${postId}`, { data: { tags: ["ok", word(40)] } });
  expect(tagged.status()).toBe(400);
  expect(((await tagged.json()) as { title: string }).title).toBe(fill(errorsEn.validation.item_too_long!, { field: errorsEn.fields.tags!, max: 32 }));

  // A notice too long: its length, not "Content can't be empty".
  const now = Date.now();
  const game = (await (await page.request.post("/api/edit/games", { data: { title: `Long ${now.toString(36)}`, start: now, end: now + 3_600_000 } })).json()) as { id: number };
  const notice = await page.request.post(`/api/edit/games/${game.id}/notices`, { data: { content: "x".repeat(10_001) } });
  expect(notice.status()).toBe(400);
  expect(((await notice.json()) as { title: string }).title).toBe(fill(errorsEn.validation.too_long!, { field: errorsEn.fields.content!, max: 10000 }));

  // An admin list's page past its end.
  await page.goto("/admin/users?page=999");
  await expect(page.getByText(/^There is no page 999: the list has \d+\.$/)).toBeVisible();
  await page.getByRole("link", { name: /^Go to page \d+$/ }).click();
  await expect(page.getByRole("row").nth(1)).toBeVisible();
  await page.goto("/admin/teams?page=999");
  await expect(page.getByText(/^There is no page 999: the list has \d+\.$/).or(page.getByText(en.adminTeams.empty))).toBeVisible();
});

test("a body refused before it was read does not take the client's next request on the same connection with it", async ({ baseURL }) => {
  // Over the 64-KB cap of a JSON route; then an upload refused for want of a session (its 200 KB unread).
  const big = JSON.stringify({ teamToken: "x".repeat(100_000), publicKey: "y" });
  const image = "x".repeat(200_000);
  const answers = await onOneConnection(baseURL!, [
    { method: "POST", path: "/api/team/verify", body: big, headers: { "content-type": "application/json" } },
    { method: "GET", path: "/api/config" },
    { method: "PUT", path: "/api/account/avatar", body: image, headers: { "content-type": "multipart/form-data; boundary=b" } },
    { method: "GET", path: "/api/config" },
  ]);
  expect(answers.map((a) => ("status" in a ? [a.status, a.reused] : a.error))).toEqual([
    [413, false],
    [200, true],
    [401, true],
    [200, true],
  ]);
  expect(JSON.parse((answers[0] as { body: string }).body)).toEqual({ title: "The request body is larger than 64 KB", status: 413 });
});

test("a kept-alive connection left idle past the runtime's 15-second keep-alive still answers its next request", async ({ baseURL }) => {
  test.setTimeout(60_000);
  // Node's client (as Playwright's request client) keeps an idle socket without limit and does not retry a
  // request that meets the server's close: the npm start front keeps the client's connection open across the
  // runtime's idle close (scripts/lib/socket-relay.mjs), so the next request is answered on the same socket.
  const answers = await onOneConnection(baseURL!, [
    { method: "GET", path: "/api/config" },
    { method: "GET", path: "/api/config", pauseMs: 16_500 },
    { method: "POST", path: "/api/account/login", body: "{}", headers: { "content-type": "application/json" }, pauseMs: 16_500 },
  ]);
  expect(answers.map((a) => ("status" in a ? [a.status, a.reused] : a.error))).toEqual([
    [200, false],
    [200, true],
    [400, true],
  ]);
});
