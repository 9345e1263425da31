import { readFileSync } from "node:fs";
import { expect, holdReads, interpolate, registerUser, test, uniqueUserName } from "./fixtures";

// Labels come from the locale files, so rewording a string does not break the flow under test.
type Strings = typeof import("../../app/locales/en-US/common.json");
const locale = (lang: string) => JSON.parse(readFileSync(new URL(`../../app/locales/${lang}/common.json`, import.meta.url), "utf8")) as Strings;
const en = locale("en-US");
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

test("log messages read in the admin's language, from the list and as they arrive", async ({ adminPage, browser }) => {
  // An admin action with an identifier in it (a role), logged before the page opens.
  const other = await browser.newContext();
  const { userName } = await registerUser(other.request);
  const found = await adminPage.request.post(`/api/admin/users/search?hint=${encodeURIComponent(userName)}`);
  const user = ((await found.json()) as { data: { id: string; userName: string }[] }).data.find((u) => u.userName === userName)!;
  expect((await adminPage.request.put(`/api/admin/users/${user.id}`, { data: { role: "Monitor" } })).status()).toBe(200);

  for (const lang of ["ja-JP", "zh-CN"] as const) {
    const text = locale(lang);
    const { messages, values } = text.adminLogs;
    await adminPage.goto(`/admin/logs?lng=${lang}`);
    await expect(adminPage.getByTestId("log-socket-state")).toHaveText(text.adminLogs.socket.open, FIRST_LOAD);
    const role = interpolate(values.fieldSet, { field: text.adminUsers.role, value: text.role.Monitor });
    const listed = adminPage.getByTestId("log-row").filter({ hasText: userName }).first();
    await expect(listed.getByRole("cell").nth(4)).toHaveText(interpolate(messages.userUpdated, { user: userName, fields: role }));

    // Pushed live while the page is open.
    const tried = uniqueUserName("nobody");
    expect((await other.request.post("/api/account/login", { data: { userName: tried, password: "Wrong!pass123" } })).status()).toBe(401);
    const pushed = adminPage.getByTestId("log-row").filter({ hasText: tried });
    await expect(pushed.getByRole("cell").nth(4)).toHaveText(interpolate(messages.signInFailed, { reason: values.signInFailure.account.wrong_credentials }));
  }
  await other.close();
});

test("a record pushed while the cached first page is being read again stays listed when that read lands", async ({ adminPage, browser }) => {
  // The first visit leaves the first page in the browser's cache; the next one shows it and reads it again.
  await adminPage.goto("/admin/logs");
  await expect(adminPage.getByTestId("log-socket-state")).toHaveText(en.adminLogs.socket.open, FIRST_LOAD);

  // That read is answered now (before the record below exists) but reaches the page only after the push.
  const marker = uniqueUserName("held");
  const held = { time: Date.now() - 60_000, name: marker, level: "Information", ip: null, msg: marker, status: null };
  const firstPage = await holdReads(adminPage, /\/api\/admin\/logs\?level=All&/, (rows) => [held, ...rows]);
  await adminPage.goto("/admin/logs");
  await expect(adminPage.getByTestId("log-socket-state")).toHaveText(en.adminLogs.socket.open, FIRST_LOAD);
  await firstPage.answered;

  const tried = uniqueUserName("nobody");
  const other = await browser.newContext();
  expect((await other.request.post("/api/account/login", { data: { userName: tried, password: "Wrong!pass123" } })).status()).toBe(401);
  await other.close();
  const pushed = adminPage.getByTestId("log-row").filter({ hasText: tried });
  await expect(pushed).toHaveCount(1);

  firstPage.release();
  await expect(adminPage.getByTestId("log-row").filter({ hasText: marker })).toHaveCount(1);
  await expect(pushed).toHaveCount(1);
  await firstPage.stop();
});
