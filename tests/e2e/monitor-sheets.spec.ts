import { expect, hydrated, test } from "./fixtures";
import { en } from "./ui-seed";

const HOUR = 3_600_000;

/**
 * The monitor's sheet downloads (rules.md §12): before the game starts there is no scoreboard to export
 * (the API refuses it with 10001), so the buttons are disabled with the reason until the start, which the
 * page follows live.
 */
test("the sheet downloads are disabled with the reason until the game starts, then open without a reload", async ({ adminPage: page }) => {
  // Ten minutes ahead; the page's clock runs as usual until the test jumps it past the start.
  const start = Date.now() + 10 * 60_000;
  const created = await page.request.post("/api/edit/games", { data: { title: `Sheets ${Date.now().toString(36)}`, start, end: start + HOUR } });
  expect(created.status()).toBe(200);
  const { id } = (await created.json()) as { id: number };

  await page.clock.install();
  await page.goto(`/games/${id}/monitor/submissions`);
  const scoreboard = page.getByRole("button", { name: en.monitor.downloadScoreboard });
  const submissions = page.getByRole("button", { name: en.monitor.downloadSubmissions });
  const reason = page.getByText(en.monitor.sheetsAfterStart);
  for (const button of [scoreboard, submissions]) {
    await expect(button).toHaveAttribute("aria-disabled", "true");
    await expect(button).toHaveAccessibleDescription(en.monitor.sheetsAfterStart);
  }
  await expect(reason).toBeVisible();
  // A click does nothing: no request, no "The download failed" message.
  let asked = 0;
  page.on("request", (request) => {
    if (/\/api\/game\/\d+\/(scoreboard|submission)sheet/.test(request.url())) asked += 1;
  });
  await hydrated(page);
  // Forced: Playwright itself waits for an aria-disabled button to be enabled before clicking it.
  await scoreboard.click({ force: true });
  await expect(page.getByRole("alert")).toHaveCount(0);
  expect(asked).toBe(0);

  // The start comes on the page's clock: the buttons open by themselves.
  await page.clock.fastForward(11 * 60_000);
  await expect(scoreboard).not.toHaveAttribute("aria-disabled", /.*/);
  await expect(submissions).not.toHaveAttribute("aria-disabled", /.*/);
  await expect(reason).toHaveCount(0);
  // The server's start is moved to now as well, so that the export it answers exists.
  const moved = await page.request.put(`/api/edit/games/${id}`, { data: { start: Date.now() - 1_000 } });
  expect(moved.status()).toBe(200);
  const download = page.waitForEvent("download");
  await scoreboard.click();
  expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("a running game's monitor pages offer the sheets from the server's HTML on", async ({ adminPage: page }) => {
  const now = Date.now();
  const created = await page.request.post("/api/edit/games", { data: { title: `Sheets ${now.toString(36)}`, start: now - HOUR, end: now + HOUR } });
  const { id } = (await created.json()) as { id: number };
  for (const sub of ["events", "submissions", "cheatinfo", "traffic"]) {
    const html = await (await page.request.get(`/games/${id}/monitor/${sub}`)).text();
    expect(html, sub).toContain(en.monitor.downloadScoreboard);
    expect(html, sub).not.toContain(en.monitor.sheetsAfterStart);
  }
  const later = await page.request.post("/api/edit/games", { data: { title: `Sheets ${now.toString(36)}b`, start: now + HOUR, end: now + 2 * HOUR } });
  const { id: laterId } = (await later.json()) as { id: number };
  for (const sub of ["events", "submissions", "cheatinfo", "traffic"]) {
    const html = await (await page.request.get(`/games/${laterId}/monitor/${sub}`)).text();
    expect(html, sub).toContain(en.monitor.sheetsAfterStart);
  }
});
