import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expect, hydrated, registerUser, test } from "./fixtures";

// The browser ships one language at a time (app/locales/browser.ts): the page's own, named in the HTML,
// and the others only when the user switches; the game pages' strings only on game and admin pages, the
// admin pages' strings only on admin pages.

type Strings = typeof import("../../app/locales/en-US/common.json");
const strings = (language: string): Strings =>
  JSON.parse(readFileSync(new URL(`../../app/locales/${language}/common.json`, import.meta.url), "utf8")) as Strings;
const en = strings("en-US");
const ja = strings("ja-JP");
const zh = strings("zh-CN");

/** Translation chunks are named after their language and part (en-US-….js, ja-JP-game-….js, ja-JP-admin-….js). */
const LOCALE_CHUNK = /\/assets\/(en-US|ja-JP|zh-CN)(-admin|-game)?-[\w-]+\.js$/;

/**
 * A language switch waits for its translations (a script the runtime serves) and the page's data in that
 * language: on the loaded 2-core CI machine the runtime has stalled for seconds while the other test file
 * seeded data, past the default 5 s.
 */
const SWITCH = { timeout: 15_000 };

/** Each test's page timeline (watch), attached to the report when the test fails. */
const timelines = new Map<string, string[]>();
test.afterEach(async ({}, testInfo) => {
  const timeline = timelines.get(testInfo.testId);
  timelines.delete(testInfo.testId);
  if (timeline && testInfo.status !== testInfo.expectedStatus) await testInfo.attach("page timeline", { body: timeline.join("\n"), contentType: "text/plain" });
});

/**
 * Records the JavaScript files the page fetches and the console errors (hydration mismatches among them);
 * a failed test gets the page's timeline of requests, answers and console lines.
 */
function watch(page: Page) {
  const scripts: string[] = [];
  const errors: string[] = [];
  const timeline: string[] = [];
  const started = Date.now();
  const note = (line: string) => timeline.push(`${String(Date.now() - started).padStart(6)} ms ${line}`);
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith(".js")) scripts.push(path);
    note(`→ ${request.method()} ${request.url()}`);
  });
  page.on("requestfinished", (request) => note(`← ${request.url()}`));
  page.on("requestfailed", (request) => note(`✗ ${request.url()} ${request.failure()?.errorText ?? ""}`));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
    note(`console.${message.type()} ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(error.message));
  timelines.set(test.info().testId, timeline);
  return {
    scripts,
    errors,
    localeChunks: () => [...new Set(scripts.map((s) => LOCALE_CHUNK.exec(s)?.slice(1).join("") ?? null).filter(Boolean))].sort(),
  };
}

/** JavaScript files the HTML names (modulepreload links, script src, inline imports), as bench/run.mjs counts them. */
function namedScripts(html: string): Set<string> {
  const named = new Set<string>();
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)) named.add(m[1] ?? "");
  for (const m of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) named.add(m[1] ?? "");
  for (const m of html.matchAll(/import\(?\s*["'](\/[^"']+\.js)["']/g)) named.add(m[1] ?? "");
  return named;
}

test("the home page loads only its language, all of it named in the HTML; switching fetches the others", async ({ page }) => {
  const seen = watch(page);
  const html = await (await page.request.get("/", { headers: { Accept: "text/html" } })).text();
  const named = namedScripts(html);
  expect([...named].filter((s) => LOCALE_CHUNK.test(s))).toHaveLength(1);

  await page.goto("/");
  await expect(page.getByRole("heading", { name: en.home.latestPosts, level: 2 })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(seen.localeChunks()).toEqual(["en-US"]);
  // Everything the first load ran was named by the HTML (so the first-load measure counts it).
  const namedPaths = new Set([...namedScripts(await page.content()), ...named]);
  expect(seen.scripts.filter((s) => !namedPaths.has(s))).toEqual([]);

  await hydrated(page);
  await page.getByLabel(en.language.label, { exact: true }).selectOption("ja-JP");
  await expect(page.getByRole("heading", { name: ja.home.latestPosts, level: 2 })).toBeVisible(SWITCH);
  await expect(page.getByRole("navigation", { name: ja.nav.label }).getByRole("link", { name: ja.nav.home, exact: true })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "ja-JP", SWITCH);

  await page.getByLabel(ja.language.label, { exact: true }).selectOption("zh-CN");
  await expect(page.getByRole("heading", { name: zh.home.latestPosts, level: 2 })).toBeVisible(SWITCH);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN", SWITCH);

  await page.getByLabel(zh.language.label, { exact: true }).selectOption("en-US");
  await expect(page.getByRole("heading", { name: en.home.latestPosts, level: 2 })).toBeVisible(SWITCH);
  expect(seen.localeChunks()).toEqual(["en-US", "ja-JP", "zh-CN"]);
  expect(seen.errors).toEqual([]);
});

/** A page's first load, as bench/run.mjs counts it: the scripts its HTML names and what they import statically. */
async function firstLoad(page: Page, path: string): Promise<{ url: string; code: string }[]> {
  const urls = namedScripts(await (await page.request.get(path, { headers: { Accept: "text/html" } })).text());
  const staticImport = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w$*{}\s,]+from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
  const scripts: { url: string; code: string }[] = [];
  for (const url of urls) {
    const code = await (await page.request.get(url)).text();
    scripts.push({ url, code });
    for (const m of code.matchAll(staticImport)) urls.add(new URL(m[1] ?? "", new URL(url, "http://x")).pathname);
  }
  return scripts;
}

test("the colour maths comes with the settings page, not with the first load every page shares", async ({ adminPage: page }) => {
  // relativeLuminance's sRGB step (app/core/colour.ts): the settings page's palette runs it; other pages get
  // their colours from the server (CSS variables, the favicon), so the root's modules must not bring it.
  const luminance = ({ code }: { code: string }) => code.includes(".04045");
  expect((await firstLoad(page, "/admin/settings")).some(luminance)).toBe(true);
  expect((await firstLoad(page, "/")).some(luminance)).toBe(false);
});

test("the monitor and admin pages' page-ending hook stays in their chunk; the home page's lists do without it", async ({ adminPage: page }) => {
  // app/lib/session-end.ts (useSessionEnd, ACCESS_ENDED, …) is a chunk of its own that those pages load; the
  // home page's list (useCachedList) needs only SESSION_ENDED and endsPage, which the shell chunk carries.
  const sessionEnd = ({ url }: { url: string }) => /\/assets\/session-end-[\w-]+\.js$/.test(url);
  expect((await firstLoad(page, "/admin/users")).some(sessionEnd)).toBe(true);
  expect((await firstLoad(page, "/")).some(sessionEnd)).toBe(false);
});

test("a language whose translations are slow to arrive shows as chosen at once, then applies", async ({ page }) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/ja-JP-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: en.home.latestPosts, level: 2 })).toBeVisible();
  await hydrated(page);
  const select = page.getByLabel(en.language.label, { exact: true });
  await select.selectOption("ja-JP");
  // Still English, the select already says Japanese (and that it is busy).
  await expect(select).toHaveAttribute("aria-busy", "true");
  await expect(select).toHaveValue("ja-JP");
  await expect(page.getByRole("heading", { name: en.home.latestPosts, level: 2 })).toBeVisible();
  release();
  await expect(page.getByRole("heading", { name: ja.home.latestPosts, level: 2 })).toBeVisible(SWITCH);
  await expect(page.getByLabel(ja.language.label, { exact: true })).toHaveAttribute("aria-busy", "false");
});

test("a language picked before the page has hydrated shows as chosen once it has, then applies", async ({ page }) => {
  // The browser entry is held back, so the choice is made on the server-rendered select; the Japanese
  // translations are held too, so the hydrated page can be seen waiting for them.
  const hold = () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    return { held, release };
  };
  const entry = hold();
  const japanese = hold();
  await page.route(/\/assets\/entry\.client-[\w-]+\.js$/, async (route) => {
    await entry.held;
    await route.continue();
  });
  await page.route(/\/assets\/ja-JP-[\w-]+\.js$/, async (route) => {
    await japanese.held;
    await route.continue();
  });
  await page.goto("/", { waitUntil: "domcontentloaded" });
  const select = page.getByLabel(en.language.label, { exact: true });
  await select.selectOption("ja-JP");
  entry.release();
  // Hydrated (only the browser's switch says busy), the choice is shown, not the page's language.
  await expect(select).toHaveAttribute("aria-busy", "true", SWITCH);
  await expect(select).toHaveValue("ja-JP");
  await expect(page.getByRole("heading", { name: en.home.latestPosts, level: 2 })).toBeVisible();
  japanese.release();
  await expect(page.getByRole("heading", { name: ja.home.latestPosts, level: 2 })).toBeVisible(SWITCH);
  await expect(page.getByLabel(ja.language.label, { exact: true })).toHaveAttribute("aria-busy", "false");
  await expect(page.locator("html")).toHaveAttribute("lang", "ja-JP");
  await expect(page.getByLabel(ja.language.label, { exact: true })).toHaveValue("ja-JP");
  await page.reload();
  await expect(page.getByRole("heading", { name: ja.home.latestPosts, level: 2 })).toBeVisible();
});

test("a language picked in the switch wins over the address's lng, which it takes out — picked after hydration or before it", async ({ page }) => {
  // After hydration: the page is Japanese by its address; English is picked, and stays on a reload.
  await page.goto("/?lng=ja-JP&from=link");
  await expect(page.getByRole("heading", { name: ja.home.latestPosts, level: 2 })).toBeVisible();
  await hydrated(page);
  await page.getByLabel(ja.language.label, { exact: true }).selectOption("en-US");
  await expect(page.getByRole("heading", { name: en.home.latestPosts, level: 2 })).toBeVisible(SWITCH);
  await expect(page).toHaveURL(/\/\?from=link$/);
  await page.reload();
  await expect(page.getByRole("heading", { name: en.home.latestPosts, level: 2 })).toBeVisible();
  await expect(page.getByLabel(en.language.label, { exact: true })).toHaveValue("en-US");

  // Before hydration (the browser entry held back): Chinese by the address, Japanese picked on the
  // server-rendered select; once hydrated the choice applies and the address loses its `lng`.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/entry\.client-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/?lng=zh-CN", { waitUntil: "domcontentloaded" });
  await page.getByLabel(zh.language.label, { exact: true }).selectOption("ja-JP");
  release();
  await expect(page.getByRole("heading", { name: ja.home.latestPosts, level: 2 })).toBeVisible(SWITCH);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel(ja.language.label, { exact: true })).toHaveValue("ja-JP");
});

test("a language kept only in localStorage is applied after hydration", async ({ page }) => {
  await page.addInitScript(() => {
    if (!document.cookie.includes("i18next=")) localStorage.setItem("i18nextLng", "zh-CN");
  });
  const seen = watch(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: zh.home.latestPosts, level: 2 })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  expect(seen.errors).toEqual([]);
});

/** Opens `/` in English, watched: only the shared strings of one language are fetched. */
async function homeWithSharedStringsOnly(page: Page) {
  const seen = watch(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: en.home.latestPosts, level: 2 })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(seen.localeChunks()).toEqual(["en-US"]);
  return seen;
}

test("admin pages get their strings on first load and after client navigation, in every language", async ({ adminPage: page }) => {
  const seen = await homeWithSharedStringsOnly(page);

  // Client-side navigation into the admin area brings the admin and game parts before the page renders.
  await page.getByRole("navigation", { name: en.nav.label }).getByRole("link", { name: en.nav.admin, exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/games$/);
  await expect(page.getByRole("heading", { name: en.adminGames.title, level: 1 })).toBeVisible();
  expect(seen.localeChunks()).toEqual(["en-US", "en-US-admin", "en-US-game"]);

  // Switching language on an admin page loads both parts of the new language.
  await page.getByLabel(en.language.label, { exact: true }).selectOption("zh-CN");
  await expect(page.getByRole("heading", { name: zh.adminGames.title, level: 1 })).toBeVisible();
  await page.goto("/admin/settings");
  await expect(page.getByRole("heading", { name: zh.settings.title, level: 1 })).toBeVisible();

  // A first load of an admin page names the admin part in the HTML, here in Japanese (with the fallback).
  const html = await (await page.request.get("/Admin/Users?lng=ja-JP", { headers: { Accept: "text/html" } })).text();
  const named = [...namedScripts(html)].map((s) => LOCALE_CHUNK.exec(s)?.slice(1).join("")).filter(Boolean).sort();
  expect(named).toEqual(["en-US", "en-US-admin", "en-US-game", "ja-JP", "ja-JP-admin", "ja-JP-game"]);
  await page.goto("/Admin/Users?lng=ja-JP");
  await expect(page.getByRole("heading", { name: ja.adminUsers.title, level: 1 })).toBeVisible();
  // A click before hydration is the browser's own navigation: a new document, in the cookie's language.
  await hydrated(page);
  await page.getByRole("link", { name: ja.nav.home, exact: true }).first().click();
  await expect(page.getByRole("heading", { name: ja.home.latestPosts, level: 2 })).toBeVisible();
  expect(seen.errors).toEqual([]);
});

test("game pages get the game strings on first load and after client navigation, in every language", async ({ adminPage: page }) => {
  const now = Date.now();
  const created = await page.request.post("/api/edit/games", { data: { title: `Parts ${now}`, start: now - 3_600_000, end: now + 3_600_000 } });
  expect(created.status()).toBe(200);
  const { id } = (await created.json()) as { id: number };

  const seen = await homeWithSharedStringsOnly(page);

  // Client-side navigation to the games brings the game part, not the admin part.
  await page.getByRole("navigation", { name: en.nav.label }).getByRole("link", { name: en.nav.games, exact: true }).click();
  await expect(page).toHaveURL(/\/games$/);
  await expect(page.getByRole("heading", { name: en.games.title, level: 1 })).toBeVisible();
  expect(seen.localeChunks()).toEqual(["en-US", "en-US-game"]);

  // A first load of a game page names the game part in the HTML, here in Chinese (with the fallback), and
  // its game strings render: the scoreboard's own heading is in the game part.
  const html = await (await page.request.get(`/games/${id}/scoreboard?lng=zh-CN`, { headers: { Accept: "text/html" } })).text();
  const named = [...namedScripts(html)].map((s) => LOCALE_CHUNK.exec(s)?.slice(1).join("")).filter(Boolean).sort();
  expect(named).toEqual(["en-US", "en-US-game", "zh-CN", "zh-CN-game"]);
  await page.goto(`/games/${id}/scoreboard?lng=zh-CN`);
  await hydrated(page);
  await expect(page.getByText(zh.scoreboard.title, { exact: true }).first()).toBeVisible();
  expect(seen.errors).toEqual([]);
});

test("a language chosen while the page's data is still loading applies once it has, instead of the error screen", async ({ page }) => {
  await registerUser(page);
  // Hold the teams page's browser loader (GET /api/team) back, so the choice lands while it runs.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/team", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/teams", { waitUntil: "commit" });
  const teamsLoading = page.waitForRequest("**/api/team");
  await teamsLoading;
  await page.getByLabel(en.language.label, { exact: true }).selectOption("ja-JP");
  release();
  await expect(page.getByRole("heading", { name: ja.teams.title, level: 1 })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "ja-JP");
  await expect(page.getByText("No result found for routeId")).toHaveCount(0);
});

test("a first visit is served the first language the browser lists that the platform has, and lng takes the spec's spelling", async ({ request }) => {
  const langOf = async (path: string, acceptLanguage: string) => {
    const html = await (await request.get(path, { headers: { "accept-language": acceptLanguage } })).text();
    return /<html[^>]* lang="([^"]+)"/.exec(html)?.[1];
  };
  expect(await langOf("/", "fr-FR,fr;q=0.9,ja;q=0.8")).toBe("ja-JP");
  expect(await langOf("/", "de-DE,de;q=0.9,zh-CN;q=0.8,en;q=0.7")).toBe("zh-CN");
  expect(await langOf("/", "ja;q=0")).toBe("en-US");
  expect(await langOf("/?lng=zh_CN", "ja")).toBe("zh-CN");
});
