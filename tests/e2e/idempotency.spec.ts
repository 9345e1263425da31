import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures";

// Labels come from the locale files, so rewording a string does not break the flow under test.
type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;
const FIRST_LOAD = { timeout: 15_000 };

test("a notice whose answer was lost after the server posted it is posted once when the admin tries again", async ({ adminPage: admin, adminApi }) => {
  const now = Date.now();
  const created = await adminApi.post("/api/edit/games", { data: { title: `Retry ${now.toString(36)}`, start: now - 3_600_000, end: now + 3_600_000 } });
  expect(created.status()).toBe(200);
  const gameId = ((await created.json()) as { id: number }).id;
  const notices = `/api/edit/games/${gameId}/notices`;

  // The first post reaches the server and is done there; its answer is lost on the way back.
  let dropped = 0;
  await admin.route(new RegExp(`${notices}$`), async (route) => {
    if (route.request().method() !== "POST" || dropped > 0) return route.fallback();
    dropped += 1;
    const r = await route.fetch();
    expect(r.status()).toBe(200);
    await route.abort("connectionreset");
  });

  await admin.goto(`/admin/games/${gameId}/notices`);
  const content = `Server maintenance at noon ${now.toString(36)}`;
  // The list below shows the first post at once (pushed over the game's socket); the form still says it failed.
  const field = admin.getByRole("textbox", { name: en.adminGames.noticeContent });
  await field.fill(content, FIRST_LOAD);
  await admin.getByRole("button", { name: en.adminGames.postNotice }).click();
  await expect(admin.getByRole("alert")).toHaveText(en.error.network);
  await expect(field).toHaveValue(content);
  expect(dropped).toBe(1);

  // The admin tries again: the server answers with the first post's answer instead of posting it twice.
  const retried = admin.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith(notices));
  await admin.getByRole("button", { name: en.adminGames.postNotice }).click();
  const answer = await retried;
  await expect(admin.getByRole("status").filter({ hasText: en.adminGames.noticePosted })).toHaveCount(1);
  await expect(field).toHaveValue("");
  await expect(admin.getByRole("alert")).toHaveCount(0);

  const listed = (await (await adminApi.get(notices)).json()) as { type: string; values: string[] }[];
  expect(listed.filter((n) => n.type === "Normal").map((n) => n.values[0])).toEqual([content]);
  expect(answer.headers()["idempotent-replayed"]).toBe("true");

  // A new notice after that is a new request: posted as one more.
  await field.fill(`${content} (2)`);
  await admin.getByRole("button", { name: en.adminGames.postNotice }).click();
  await expect(field).toHaveValue("");
  expect(((await (await adminApi.get(notices)).json()) as unknown[]).length).toBe(2);
});
