import { readFileSync } from "node:fs";
import type { APIRequestContext, BrowserContext } from "@playwright/test";
import { DEFAULT_PASSWORD, expect, expectRefusedAt, hydrated, interpolate as fill, test, uniqueUserName } from "./fixtures";

// What a native reader of Japanese and Chinese met on the pages (DECISIONS.md, the native-reader pass of
// ja-JP and zh-CN), checked in the browser.

type Strings = typeof import("../../app/locales/en-US/common.json");
const strings = (language: string): Strings => JSON.parse(readFileSync(new URL(`../../app/locales/${language}/common.json`, import.meta.url), "utf8")) as Strings;
const en = strings("en-US");
const ja = strings("ja-JP");
const zh = strings("zh-CN");
const HOUR = 3_600_000;

async function inLanguage(context: BrowserContext, baseURL: string | undefined, language: string) {
  await context.addCookies([{ name: "i18next", value: language, url: baseURL! }]);
}

async function ok<T>(response: Promise<import("@playwright/test").APIResponse>): Promise<T> {
  const answer = await response;
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()) as T;
}

async function gameWithChallenge(admin: APIRequestContext, type: string, fields: Record<string, unknown> = {}) {
  const stamp = Date.now().toString(36);
  const game = await ok<{ id: number }>(admin.post("/api/edit/games", { data: { title: `Choosers ${stamp}`, start: Date.now() - HOUR, end: Date.now() + HOUR } }));
  const challenge = await ok<{ id: number }>(admin.post(`/api/edit/games/${game.id}/challenges`, { data: { title: `Files ${stamp}`, category: "Misc", type, ...fields } }));
  return { gameId: game.id, challengeId: challenge.id };
}

test("file choosers are in the page's language: a translated button, the choice beside it, \"no file chosen\" before (ja-JP)", async ({ adminPage: page, baseURL }) => {
  await inLanguage(page.context(), baseURL, "ja-JP");
  const A = ja.adminChallenges;
  const { gameId, challengeId } = await gameWithChallenge(page.request, "DynamicAttachment", { fileName: "evidence.bin" });

  // Dynamic pairs: several files, the upload button says what it sends, and nothing before a choice.
  await page.goto(`/admin/games/${gameId}/challenges/${challengeId}/flags`);
  await hydrated(page);
  const pairs = page.getByLabel(A.pairFiles);
  await expect(page.locator("label[for=pair-files]")).toHaveText(ja.upload.chooseMany);
  await expect(page.getByTestId("pair-files-chosen")).toHaveText(ja.upload.noneChosen);
  await expect(pairs).toHaveAccessibleDescription(ja.upload.noneChosen);
  await expect(page.getByRole("button", { name: A.uploadPairs_zero, exact: true })).toBeVisible();
  await pairs.setInputFiles([
    { name: "flag{one_pair}", mimeType: "application/octet-stream", buffer: Buffer.from("one") },
    { name: "flag{two_pair}", mimeType: "application/octet-stream", buffer: Buffer.from("two") },
  ]);
  await expect(page.getByTestId("pair-files-chosen")).toHaveText(fill(ja.upload.chosen_other, { count: 2 }));
  await page.getByRole("button", { name: fill(A.uploadPairs_other, { count: 2 }), exact: true }).click();
  await expect(page.getByText("flag{two_pair}")).toBeVisible();
  // Sent: the chooser is empty again (the same files can be chosen again).
  await expect(page.getByTestId("pair-files-chosen")).toHaveText(ja.upload.noneChosen);
  await expect(page.getByRole("button", { name: A.uploadPairs_zero, exact: true })).toBeVisible();
  await pairs.setInputFiles([{ name: "flag{three_pair}", mimeType: "application/octet-stream", buffer: Buffer.from("three") }]);
  await expect(page.getByTestId("pair-files-chosen")).toHaveText("flag{three_pair}");
  // No chooser of the browser's own is left on the page.
  await expect(page.locator("input[type=file]:not(.sr-only)")).toHaveCount(0);

  // A challenge's local attachment: one file, its name shown once chosen.
  const { gameId: otherGame, challengeId: staticChallenge } = await gameWithChallenge(page.request, "StaticAttachment");
  await page.goto(`/admin/games/${otherGame}/challenges/${staticChallenge}`);
  await hydrated(page);
  await page.getByRole("radio", { name: A.attachmentTypes.Local }).check();
  await expect(page.locator("label[for=attachment-file]")).toHaveText(ja.upload.choose);
  await expect(page.getByTestId("attachment-file-chosen")).toHaveText(ja.upload.noneChosen);
  await page.getByLabel(A.file, { exact: true }).setInputFiles({ name: "handout.txt", mimeType: "text/plain", buffer: Buffer.from("handout") });
  await expect(page.getByTestId("attachment-file-chosen")).toHaveText("handout.txt");
  await expect(page.locator("input[type=file]:not(.sr-only)")).toHaveCount(0);

  // The settings' files and logo.
  await page.goto("/admin/settings");
  await hydrated(page);
  await expect(page.getByTestId("settings-files-chosen")).toHaveText(ja.upload.noneChosen);
  await page.getByLabel(ja.settings.files.choose).setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("notes") });
  await expect(page.getByTestId("settings-files-chosen")).toHaveText("notes.txt");
  await expect(page.locator("label[for=settings-logo]")).toHaveText(ja.settings.platform.uploadLogo);
  await expect(page.locator("input[type=file]:not(.sr-only)")).toHaveCount(0);
});

test("a language switch leaves no title in the old language in the route announcer", async ({ adminPage: page }) => {
  await page.goto("/");
  await hydrated(page);
  await page.getByRole("navigation", { name: en.nav.label }).getByRole("link", { name: en.nav.admin, exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/games$/);
  const announcer = page.getByTestId("route-announcer");
  await expect(announcer).toHaveText(new RegExp(`^${en.adminGames.title} · `));

  await page.getByLabel(en.language.label, { exact: true }).selectOption("ja-JP");
  await expect(page.getByRole("heading", { name: ja.adminGames.title, level: 1 })).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveTitle(new RegExp(`^${ja.adminGames.title} · `));
  await expect(announcer).toHaveText("");

  // The next navigation is said in the new language.
  await page.getByRole("navigation", { name: ja.nav.label }).getByRole("link", { name: ja.nav.games, exact: true }).click();
  await expect(page).toHaveURL(/\/games$/);
  await expect(announcer).toHaveText(new RegExp(`^${ja.games.title} · `));
});

for (const [language, texts] of [
  ["en-US", en],
  ["ja-JP", ja],
  ["zh-CN", zh],
] as const) {
  test(`register: an empty user name is asked for, a short one told the length rule (${language})`, async ({ page, baseURL }) => {
    await inLanguage(page.context(), baseURL, language);
    await page.goto("/account/register");
    await hydrated(page);
    const userName = page.getByLabel(texts.register.userName, { exact: true });
    await page.getByLabel(texts.register.email, { exact: true }).fill(`${uniqueUserName("empty")}@example.com`);
    await page.getByLabel(texts.register.password, { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByLabel(texts.password.retype, { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByRole("button", { name: texts.register.submit }).click();
    await expectRefusedAt(userName, texts.register.userNameRequired);

    await userName.fill("ab");
    await page.getByRole("button", { name: texts.register.submit }).click();
    await expectRefusedAt(userName, fill(texts.register.userNameLength, { min: 3, max: 15 }));
  });
}

test("the home page's welcome breaks between words when it does not fit one line, not inside ようこそ (ja-JP)", async ({ page, baseURL }) => {
  await inLanguage(page.context(), baseURL, "ja-JP");
  await page.goto("/");
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText(/^\S+ へようこそ$/);
  const lines = await heading.evaluate((h) => {
    const text = h.firstChild!;
    const value = text.textContent ?? "";
    // One pixel narrower than the line it takes: as on a phone, where "Flagstaff へようこ" was followed by "そ"
    // alone (the width is set here, as this machine draws Japanese with fallback boxes of its own width).
    const whole = document.createRange();
    whole.selectNodeContents(h);
    h.style.width = `${Math.floor(whole.getBoundingClientRect().width) - 1}px`;
    const start = value.indexOf("へようこそ");
    const tops = new Set<number>();
    for (let i = start; i < start + 5; i++) {
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      for (const rect of range.getClientRects()) tops.add(Math.round(rect.top));
    }
    const all = new Set([...whole.getClientRects()].map((rect) => Math.round(rect.top)));
    return { welcome: tops.size, heading: all.size };
  });
  // Two lines, the welcome whole on the second.
  expect(lines).toEqual({ welcome: 1, heading: 2 });
});

test("an ended game's overview has one end time, no empty countdown, and a practice row in practice mode (ja-JP)", async ({ page, adminApi: admin, baseURL }) => {
  await inLanguage(page.context(), baseURL, "ja-JP");
  const stamp = Date.now().toString(36);
  const game = await ok<{ id: number }>(admin.post("/api/edit/games", { data: { title: `Ended ${stamp}`, start: Date.now() - 2 * HOUR, end: Date.now() - HOUR, practiceMode: false } }));
  await page.goto(`/games/${game.id}`);
  await hydrated(page);
  const terms = page.locator("dl dt");
  await expect(terms.filter({ hasText: ja.games.start })).toHaveCount(1);
  await expect(terms.filter({ hasText: ja.games.end })).toHaveCount(1);
  await expect(terms.filter({ hasText: new RegExp(`^${ja.games.phase.Ended}$`) })).toHaveCount(0);
  await expect(page.getByTestId("countdown")).toHaveCount(0);

  await ok(admin.put(`/api/edit/games/${game.id}`, { data: { practiceMode: true } }));
  await page.reload();
  await hydrated(page);
  await expect(terms.filter({ hasText: ja.games.afterEnd })).toHaveCount(1);
  await expect(page.getByTestId("countdown")).toHaveText(ja.games.practiceOpen);
});
