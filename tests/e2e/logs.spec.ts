import { readFileSync } from "node:fs";
import { expect, test, uniqueUserName } from "./fixtures";

// Labels come from the locale files, so rewording a string does not break the flow under test.
type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;
// The first screen of a freshly started server may take longer to compile and hydrate.
const FIRST_LOAD = { timeout: 15_000 };

test("a failed sign-in elsewhere appears on the admin logs screen without a reload", async ({ adminPage, browser }) => {
  await adminPage.goto("/admin/logs");
  await expect(adminPage.getByRole("heading", { name: en.adminLogs.title, level: 1 })).toBeVisible(FIRST_LOAD);
  await expect(adminPage.getByTestId("log-socket-state")).toHaveText(en.adminLogs.socket.open, FIRST_LOAD);
  // The admin's own sign-in is already listed (loaded from GET admin/logs).
  await expect(adminPage.getByTestId("log-row").filter({ hasText: "Signed in" }).first()).toBeVisible();

  const tried = uniqueUserName("nobody");
  const password = "Wrong!pass123";
  const other = await browser.newContext();
  const response = await other.request.post("/api/account/login", { data: { userName: tried, password } });
  expect(response.status()).toBe(401);
  await other.close();

  const row = adminPage.getByTestId("log-row").filter({ hasText: tried });
  await expect(row).toBeVisible();
  await expect(row).toContainText("Failed sign-in");
  await expect(row).toContainText(en.adminLogs.levels.Warning);
  await expect(row.getByRole("cell").last()).toHaveText(en.adminLogs.statuses.Failed);
  await expect(row).not.toContainText(password);
  // DD/MM/YYYY HH:mm:ss
  await expect(row.getByRole("cell").first()).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);

  // The level filter reloads from the server: the record is a Warning, not an Error.
  const level = adminPage.getByRole("combobox", { name: en.adminLogs.level });
  await level.selectOption("Error");
  await expect(adminPage).toHaveURL(/level=Error/);
  await expect(adminPage.getByTestId("log-row").filter({ hasText: tried })).toHaveCount(0);
  await level.selectOption("Warning");
  await expect(adminPage.getByTestId("log-row").filter({ hasText: tried })).toBeVisible();

  // The level and status columns follow the admin's language (the message is the record as written).
  const ja = JSON.parse(readFileSync(new URL("../../app/locales/ja-JP/common.json", import.meta.url), "utf8")) as Strings;
  await adminPage.goto("/admin/logs?lng=ja-JP&level=Warning");
  const jaRow = adminPage.getByTestId("log-row").filter({ hasText: tried });
  await expect(jaRow.getByRole("cell").last()).toHaveText(ja.adminLogs.statuses.Failed, FIRST_LOAD);
  await expect(jaRow.getByRole("cell").nth(1)).toHaveText(ja.adminLogs.levels.Warning);
});
