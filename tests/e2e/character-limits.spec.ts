import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expect, hydrated, registerUser, test } from "./fixtures";

/**
 * Text limits are in characters (code points), as api.md §3 and the server count them, while `.length` and
 * the browsers' `maxLength` count UTF-16 units: an emoji is one character and two units. A value the server
 * takes must fit the form and pass its checks.
 */

type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;
// The first screen of a freshly started server may take longer to compile and hydrate.
const FIRST_LOAD = { timeout: 15_000 };
const TEAM_BIO_MAX = 72;
const POST_TITLE_MAX = 50;

/** `count` emoji from the Emoticons block, picked at random so a team name made of them is new. */
const emoji = (count: number) => Array.from({ length: count }, () => String.fromCodePoint(0x1f600 + Math.floor(Math.random() * 0x50))).join("");
const characters = (text: string) => [...text].length;

async function valueOf(page: Page, label: string): Promise<string> {
  return page.getByLabel(label, { exact: true }).inputValue();
}

test("a team named with 12 emoji changes its bio through /teams → Edit, to 60 emoji too", async ({ page }) => {
  await registerUser(page);
  const name = emoji(12);
  const created = await page.request.post("/api/team", { data: { name, bio: "before" } });
  expect(created.status(), await created.text()).toBe(200);
  await page.goto("/teams");
  const card = page.locator("section").filter({ has: page.getByRole("heading", { name, level: 2 }) });
  await card.getByRole("button", { name: en.teams.edit, exact: true }).click(FIRST_LOAD);
  // The avatar's initial is the whole first emoji, not half of it.
  await expect(card.getByText([...name][0]!, { exact: true })).toBeVisible();
  const dialog = page.getByRole("dialog", { name: en.teams.editTitle });
  await expect(dialog.getByLabel(en.teams.name)).toHaveValue(name);
  const save = dialog.getByRole("button", { name: en.teams.save, exact: true });

  // The name, 12 characters and 24 UTF-16 units, is left as it is: only the bio changes.
  await dialog.getByLabel(en.teams.bio).fill("after");
  await save.click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText("after", { exact: true })).toBeVisible();

  // 60 characters of the 72 a bio may have, and 120 UTF-16 units.
  const bio = emoji(60);
  await card.getByRole("button", { name: en.teams.edit, exact: true }).click();
  await dialog.getByLabel(en.teams.bio).fill(bio);
  await expect(dialog.getByLabel(en.teams.bio)).toHaveValue(bio);
  await save.click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText(bio, { exact: true })).toBeVisible();

  // The bio box still stops at its limit in characters: pasted emoji, then plain text.
  await card.getByRole("button", { name: en.teams.edit, exact: true }).click();
  await dialog.getByLabel(en.teams.bio).fill(emoji(TEAM_BIO_MAX + 8));
  expect(characters(await dialog.getByLabel(en.teams.bio).inputValue())).toBe(TEAM_BIO_MAX);
  await dialog.getByLabel(en.teams.bio).fill("b".repeat(TEAM_BIO_MAX + 8));
  await expect(dialog.getByLabel(en.teams.bio)).toHaveValue("b".repeat(TEAM_BIO_MAX));
});

test("a post's title takes 40 emoji, and stops at 50 characters whatever they are", async ({ adminPage: page }) => {
  // Typed only, never saved: the posts every page shows stay as they are.
  await page.goto("/posts");
  await page.getByRole("link", { name: en.posts.newPost }).click(FIRST_LOAD);
  await expect(page.getByRole("heading", { name: en.posts.createTitle, level: 1 })).toBeVisible(FIRST_LOAD);
  await hydrated(page);
  const title = page.getByLabel(en.posts.fieldTitle, { exact: true });

  const forty = emoji(40);
  await title.fill(forty);
  await expect(title).toHaveValue(forty);

  const sixty = emoji(60);
  await title.fill(sixty);
  expect(await valueOf(page, en.posts.fieldTitle)).toBe([...sixty].slice(0, POST_TITLE_MAX).join(""));

  await title.fill("t".repeat(60));
  await expect(title).toHaveValue("t".repeat(POST_TITLE_MAX));

  // Typed one by one: an emoji after 49 letters is the 50th character, and nothing goes in after it.
  await title.fill("t".repeat(POST_TITLE_MAX - 1));
  await title.press("End");
  await page.keyboard.type("😀x😀");
  await expect(title).toHaveValue(`${"t".repeat(POST_TITLE_MAX - 1)}😀`);
});
