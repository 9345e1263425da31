import type { Page, Route } from "@playwright/test";
import { expect, registerUser, test } from "./fixtures";
import { en } from "./ui-seed";

/** rules.md §15: lists paint from the compressed browser cache on reload; "Clear Cache" empties it. */

const PREFIX = "flagstaff-cache:";
const HOUR = 3_600_000;

async function cacheEntries(page: Page): Promise<Record<string, string>> {
  return page.evaluate((prefix) => {
    const out: Record<string, string> = {};
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(prefix)) out[key] = localStorage.getItem(key) ?? "";
    }
    return out;
  }, PREFIX);
}

/** Holds every answer of `pattern` until `release()`; `answered` tells whether one went through. */
async function holdApi(page: Page, pattern: RegExp) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const state = { held: 0, answered: 0 };
  const handler = async (route: Route) => {
    state.held += 1;
    await gate;
    state.answered += 1;
    await route.continue();
  };
  await page.route(pattern, handler);
  return { state, release, stop: () => page.unroute(pattern, handler) };
}

test("a list reload paints from the compressed cache before the API answers, and Clear Cache empties it", async ({ adminPage: page }) => {
  const now = Date.now();
  const title = `Cached game ${now.toString(36)}`;
  const created = await page.request.post("/api/edit/games", { data: { title, start: now - HOUR, end: now + HOUR } });
  expect(created.status()).toBe(200);

  // First visit: the list comes from the API and is stored compressed.
  await page.goto("/games");
  await expect(page.getByRole("link", { name: new RegExp(title) }).first()).toBeVisible();
  await expect.poll(async () => Object.keys(await cacheEntries(page))).toContain(`${PREFIX}games`);
  const stored = (await cacheEntries(page))[`${PREFIX}games`]!;
  expect(stored).toMatch(/^\{"v":2,"b":"[0-9a-f]+","t":\d+,"z":"[A-Za-z0-9+/=]+"\}$/);
  expect(stored).not.toContain(title);

  // Reload with the list API held: the cached rows are on screen while the request is still waiting.
  const hold = await holdApi(page, /\/api\/game\?count=50/);
  await page.reload();
  await expect(page.getByRole("link", { name: new RegExp(title) }).first()).toBeVisible();
  await expect.poll(() => hold.state.held).toBeGreaterThan(0);
  expect(hold.state.answered, "the API has not answered yet").toBe(0);
  hold.release();
  await expect.poll(() => hold.state.answered).toBeGreaterThan(0);
  await hold.stop();

  // The admin list is cached too, under the same prefix.
  await page.goto("/admin/games");
  await expect(page.getByRole("cell", { name: title }).or(page.getByRole("link", { name: title })).first()).toBeVisible();
  await expect.poll(async () => Object.keys(await cacheEntries(page))).toContain(`${PREFIX}admin-games:1`);

  // Clear Cache removes every cached list and nothing else.
  await page.evaluate(() => localStorage.setItem("flagstaff-unrelated", "kept"));
  await page.goto("/");
  await page.getByRole("button", { name: en.nav.clearCache }).click();
  await page.waitForLoadState("load");
  await expect.poll(async () => Object.keys(await cacheEntries(page)).filter((k) => k !== `${PREFIX}home-games`)).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem("flagstaff-unrelated"))).toBe("kept");
});

test("without a cache the list waits for the API (nothing stale is invented)", async ({ page }) => {
  await page.goto("/about");
  await page.evaluate(() => localStorage.clear());
  const hold = await holdApi(page, /\/api\/game\?count=50/);
  await page.goto("/games");
  await expect.poll(() => hold.state.held).toBeGreaterThan(0);
  await expect(page.getByRole("status").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: en.games.title, level: 1 })).toHaveCount(0);
  hold.release();
  await expect(page.getByRole("heading", { name: en.games.title, level: 1 })).toBeVisible();
  await hold.stop();
});

test("the posts list paints from the compressed cache on reload while the API is held", async ({ adminPage: page }) => {
  const title = `Cached post ${Date.now().toString(36)}`;
  const created = await page.request.post("/api/edit/posts", { data: { title } });
  expect(created.status()).toBe(200);

  await page.goto("/posts");
  await expect(page.getByRole("link", { name: title })).toBeVisible();
  await expect.poll(async () => Object.keys(await cacheEntries(page))).toContain(`${PREFIX}posts`);
  const stored = (await cacheEntries(page))[`${PREFIX}posts`]!;
  expect(stored).toMatch(/^\{"v":2,"b":"[0-9a-f]+","t":\d+,"z":"[A-Za-z0-9+/=]+"\}$/);
  expect(stored).not.toContain(title);

  const hold = await holdApi(page, /\/api\/posts$/);
  await page.reload();
  await expect(page.getByRole("link", { name: title })).toBeVisible();
  await expect.poll(() => hold.state.held).toBeGreaterThan(0);
  expect(hold.state.answered, "the API has not answered yet").toBe(0);
  hold.release();
  await expect.poll(() => hold.state.answered).toBeGreaterThan(0);
  await hold.stop();
  await expect(page.getByRole("link", { name: title })).toBeVisible();
});

test("logging out drops the cached lists of what the user saw", async ({ page }) => {
  await registerUser(page);
  const made = await page.request.post("/api/team", { data: { name: `Cache ${Date.now().toString(36)}`.slice(0, 15) } });
  expect(made.status()).toBe(200);
  await page.goto("/teams");
  await expect.poll(async () => Object.keys(await cacheEntries(page)).some((k) => k.startsWith(`${PREFIX}teams:`))).toBe(true);
  await page.evaluate(() => localStorage.setItem("flagstaff-unrelated", "kept"));

  await page.getByRole("button", { name: en.nav.logout }).first().click();
  await expect(page.getByRole("link", { name: en.nav.login }).first()).toBeVisible();
  expect(Object.keys(await cacheEntries(page)).filter((k) => k.startsWith(`${PREFIX}teams:`))).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem("flagstaff-unrelated"))).toBe("kept");
});

for (const { page: path, api, key, body, heading } of [
  { page: "/posts", api: /\/api\/posts$/, key: "posts", body: '{"x":1}', heading: en.posts.title },
  { page: "/games", api: /\/api\/game\?count=50/, key: "games", body: '{"data":null,"length":0,"total":0}', heading: en.games.title },
]) {
  test(`a ${path} answer of another shape is neither stored nor painted, and Try again recovers`, async ({ page }) => {
    await page.goto("/about");
    await page.evaluate(() => localStorage.clear());
    await page.route(api, (route) => route.fulfill({ status: 200, contentType: "application/json", body }));
    await page.goto(path);
    // The error screen says the answer could not be read (not a rendering crash such as "o.map is not a function").
    await expect(page.getByRole("heading", { name: en.error.title, level: 1 })).toBeVisible();
    await expect(page.getByText(en.error.badAnswer, { exact: true })).toBeVisible();
    expect(Object.keys(await cacheEntries(page))).not.toContain(`${PREFIX}${key}`);

    // Once the API answers properly, Try again (a reload) loads the page: nothing broken was kept.
    await page.unroute(api);
    await page.getByRole("button", { name: en.error.tryAgain }).click();
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: en.error.title })).toHaveCount(0);
    await expect.poll(async () => Object.keys(await cacheEntries(page))).toContain(`${PREFIX}${key}`);

    // A refresh of another shape later keeps the rows on screen and is not stored over the good list.
    const good = (await cacheEntries(page))[`${PREFIX}${key}`];
    let served = 0;
    await page.route(api, (route) => {
      served += 1;
      return route.fulfill({ status: 200, contentType: "application/json", body });
    });
    await page.reload();
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    await expect.poll(() => served).toBeGreaterThan(0);
    await expect(page.getByRole("heading", { name: en.error.title })).toHaveCount(0);
    expect((await cacheEntries(page))[`${PREFIX}${key}`]).toBe(good);
    await page.unroute(api);
  });
}
