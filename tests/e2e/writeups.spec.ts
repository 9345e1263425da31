import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { expect, interpolate as fill, registerUser, test } from "./fixtures";

// Labels come from the locale files, so rewording a string does not break the flow under test.
type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;
const FIRST_LOAD = { timeout: 15_000 };
const HOUR = 3_600_000;

/** Entry names and bodies of a tar archive (ustar with pax `path` records). */
function tarEntries(tar: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  let offset = 0;
  let paxPath: string | null = null;
  while (offset + 512 <= tar.length) {
    const block = tar.subarray(offset, offset + 512);
    if (block.every((b) => b === 0)) break;
    const field = (start: number, len: number) => block.subarray(start, start + len).toString("utf8").replace(/\0.*$/s, "");
    const size = parseInt(field(124, 12), 8);
    const type = String.fromCharCode(block[156]!);
    const body = tar.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (type === "x") {
      paxPath = /\d+ path=(.*)\n/.exec(body.toString("utf8"))?.[1] ?? null;
      continue;
    }
    out.set(paxPath ?? field(0, 100), body);
    paxPath = null;
  }
  return out;
}

test("a player uploads a writeup with progress; the admin views it, downloads it and the archive, then deletes all", async ({ adminPage, browser }) => {
  const admin = adminPage;
  const title = `WP ${Date.now().toString(36)}`;
  const created = await admin.request.post("/api/edit/games", {
    data: {
      title,
      start: Date.now() - HOUR,
      end: Date.now() + HOUR,
      acceptWithoutReview: true,
      writeupRequired: true,
      writeupDeadline: Date.now() + 3 * HOUR,
      writeupNote: "Describe **each** solve in detail.",
    },
  });
  expect(created.status()).toBe(200);
  const gameId = ((await created.json()) as { id: number }).id;

  // A captain in a second browser context makes a team and joins (accepted without review).
  const playerContext = await browser.newContext();
  const player = await playerContext.newPage();
  await registerUser(player);
  const teamName = `W${Date.now().toString(36).slice(-6)}`;
  const team = (await (await player.request.post("/api/team", { data: { name: teamName } })).json()) as { id: number };
  expect((await player.request.post(`/api/game/${gameId}`, { data: { teamId: team.id } })).status()).toBe(200);

  await player.goto(`/games/${gameId}`);
  const panel = player.getByTestId("writeup-panel");
  await expect(panel.getByRole("heading", { name: en.writeups.title })).toBeVisible(FIRST_LOAD);
  await expect(panel.locator("strong", { hasText: "each" })).toBeVisible();
  await expect(panel.getByTestId("writeup-state")).toHaveText(en.writeups.notSubmitted);
  await expect(panel.getByTestId("writeup-countdown")).toHaveText(/^\d{2}:\d{2}:\d{2}$/);
  await expect(panel.getByText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/)).toBeVisible();

  // A PNG renamed to .pdf passes the browser's check and is refused by the server.
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  await panel.getByLabel(en.writeups.upload).setInputFiles({ name: "fake.pdf", mimeType: "application/pdf", buffer: png });
  await expect(panel.getByRole("alert")).toHaveText("Please check file format and size");

  // A real PDF (large enough for the progress bar to have something to show).
  const pdf = Buffer.concat([Buffer.from(`%PDF-1.4\n% ${teamName}\n`), Buffer.alloc(256 * 1024, 0x20), Buffer.from("\n%%EOF\n")]);
  await panel.getByLabel(en.writeups.upload).setInputFiles({ name: "solutions.pdf", mimeType: "application/pdf", buffer: pdf });
  await expect(panel.getByRole("status").filter({ hasText: "Writeup uploaded" })).toBeVisible();
  await expect(panel.getByTestId("writeup-state")).toContainText(en.writeups.submitted);
  await expect(panel.getByTestId("writeup-state")).toContainText(new RegExp(`Writeup-${gameId}-${team.id}-\\d{8}-\\d{2}\\.\\d{2}\\.\\d{2}Z\\.pdf`));
  await expect(panel.getByTestId("writeup-state")).toContainText("256 KB");
  await expect(panel.getByLabel(en.writeups.replace)).toBeAttached();

  // The admin sees the team on the writeups tab.
  await admin.goto(`/admin/games/${gameId}/info`);
  await admin.getByRole("link", { name: en.adminGames.tab.writeups }).click(FIRST_LOAD);
  await expect(admin).toHaveURL(new RegExp(`/admin/games/${gameId}/writeups$`));
  const row = admin.getByTestId(`writeup-row-${team.id}`);
  await expect(row).toContainText(teamName);
  await expect(row).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/);
  await expect(admin.getByTestId("writeup-counts")).toHaveText(fill(en.writeups.admin.counts, { submitted: 1, total: 1 }));

  // Viewing shows the PDF in the page.
  await row.getByRole("button", { name: en.writeups.admin.view }).click();
  const viewer = admin.getByTitle(fill(en.writeups.admin.viewerTitle, { team: teamName }));
  await expect(viewer).toBeVisible();
  await expect(viewer).toHaveAttribute("src", new RegExp(`^/assets/[0-9a-f]{64}/Writeup-${gameId}-${team.id}-`));
  // The browser's PDF viewer, not a download or a blocked-frame page, fills the frame.
  const viewerFrames = () => admin.frames().filter((f) => /\/assets\/[0-9a-f]{64}\/Writeup-/.test(f.url()));
  await expect.poll(async () => (await Promise.all(viewerFrames().map((f) => f.content().catch(() => "")))).join("")).toContain("<embed");

  // Download one.
  const [single] = await Promise.all([admin.waitForEvent("download"), row.getByRole("link", { name: fill(en.writeups.admin.downloadOne, { team: teamName }) }).click()]);
  expect(single.suggestedFilename()).toMatch(new RegExp(`^Writeup-${gameId}-${team.id}-\\d{8}-\\d{2}\\.\\d{2}\\.\\d{2}Z\\.pdf$`));
  expect(readFileSync(await single.path())).toEqual(pdf);

  // Download all: a .tar.gz whose entry carries the team name before the stored name.
  const [archive] = await Promise.all([admin.waitForEvent("download"), admin.getByRole("link", { name: en.writeups.admin.downloadAll }).click()]);
  const archiveName = archive.suggestedFilename();
  expect(archiveName).toMatch(new RegExp(`^Writeups-${title}-\\d{8}-\\d{2}\\.\\d{2}\\.\\d{2}Z\\.tar\\.gz$`));
  const entries = tarEntries(gunzipSync(readFileSync(await archive.path())));
  const folder = archiveName.replace(/\.tar\.gz$/, "");
  const entry = [...entries.keys()].find((name) => name.startsWith(`${folder}/${teamName}-Writeup-${gameId}-${team.id}-`));
  expect(entry).toBeDefined();
  expect(entries.get(entry!)).toEqual(pdf);

  // Delete all, after confirming.
  await admin.getByRole("button", { name: en.writeups.admin.deleteAll }).click();
  const confirm = admin.getByRole("dialog", { name: en.writeups.admin.deleteAllTitle });
  await confirm.getByRole("button", { name: en.writeups.admin.deleteAll }).click();
  await expect(confirm).toBeHidden();
  await expect(admin.getByText("1 writeup deleted")).toBeVisible();
  await expect(row).toContainText(en.writeups.notSubmitted);

  await player.reload();
  await expect(player.getByTestId("writeup-state")).toHaveText(en.writeups.notSubmitted, FIRST_LOAD);
  await playerContext.close();
});

test("the writeup box follows the admin's changes to its instruction and deadline while the game page stays open", async ({ adminApi: admin, browser }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  // An ended game (practice mode on, so a team may still join): writeups are taken until their own deadline.
  const created = await admin.post("/api/edit/games", {
    data: { title: `WD ${stamp}`, start: Date.now() - 2 * HOUR, end: Date.now() - HOUR, acceptWithoutReview: true, writeupRequired: true, writeupDeadline: Date.now() + 3 * HOUR, writeupNote: `Old note ${stamp}` },
  });
  expect(created.status()).toBe(200);
  const gameId = ((await created.json()) as { id: number }).id;
  const edit = async (data: Record<string, unknown>) => expect((await admin.put(`/api/edit/games/${gameId}`, { data })).status()).toBe(200);
  const context = await browser.newContext();
  const player = await context.newPage();
  await registerUser(player);
  const team = (await (await player.request.post("/api/team", { data: { name: `D${stamp}`.slice(0, 15) } })).json()) as { id: number };
  expect((await player.request.post(`/api/game/${gameId}`, { data: { teamId: team.id } })).status()).toBe(200);

  // The page's clock runs as usual; the test jumps it to a deadline the page has read instead of waiting.
  await player.clock.install();
  await player.goto(`/games/${gameId}`);
  const panel = player.getByTestId("writeup-panel");
  await expect(panel.getByText(`Old note ${stamp}`)).toBeVisible(FIRST_LOAD);
  const countdown = panel.getByTestId("writeup-countdown");
  const uploadButton = panel.getByText(en.writeups.upload);
  const shown = () => player.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));

  // A new instruction: the box reads it again (here when the tab is shown again; also every 30 s).
  await edit({ writeupNote: `New note ${stamp}` });
  await shown();
  await expect(panel.getByText(`New note ${stamp}`)).toBeVisible();

  // The box learns a near deadline; the admin then extends it without the page being told. When the
  // deadline it read passes, the box reads it again instead of closing: uploads are still taken.
  const near = Date.now() + 6_000;
  await edit({ writeupDeadline: near });
  await shown();
  await expect(countdown).toHaveText(/^00:00:0\d$/);
  await edit({ writeupDeadline: Date.now() + 3 * HOUR });
  await player.clock.fastForward(Math.max(0, near + 1_500 - Date.now()));
  await expect(countdown).toHaveText(/^0?2:59:\d{2}$/);
  await expect(uploadButton).toBeVisible();
  await expect(panel.getByText(en.writeups.deadlinePassed)).toHaveCount(0);

  // A deadline that really passes closes the box once a read after it confirms it.
  const soon = Date.now() + 4_000;
  await edit({ writeupDeadline: soon });
  await shown();
  await expect(countdown).toHaveText(/^00:00:0\d$/);
  await expect(countdown).toHaveText(en.writeups.closed, { timeout: soon + 10_000 - Date.now() });
  await expect(panel.getByText(en.writeups.deadlinePassed)).toBeVisible();
  await expect(uploadButton).toHaveCount(0);
  await context.close();
});
