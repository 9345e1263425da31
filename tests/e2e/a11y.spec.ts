import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { ruleViolations, seriousViolations } from "./axe";
import { expect, hydrated, registerUser, test } from "./fixtures";
import { closeSeed, en, type Seed, SEED_FLAG, seed } from "./ui-seed";
import { expectPage, fill, rolePages, SPEC_ROUTES, viewerOf } from "./ui-routes";

/**
 * Accessibility (issue: axe-core reports no serious or critical violation on any route, in both themes),
 * keyboard-only game loop, visible focus, contrast with a custom admin colour. Screenshots of every screen
 * in both themes land in <results>/screenshots (CI artifacts, not committed).
 */

const SCREENSHOTS = join(process.env.FLAGSTAFF_TEST_RESULTS ?? "test-results", "screenshots");
const THEMES = ["dark", "light"] as const;

async function setTheme(seeded: Seed, theme: (typeof THEMES)[number], baseURL: string) {
  for (const context of Object.values(seeded.contexts)) {
    await context.addCookies([{ name: "flagstaff-theme", value: theme, url: baseURL }]);
    await context.addInitScript((value) => localStorage.setItem("flagstaff-theme", value), theme);
  }
}

/**
 * Runs `check` on the open page in the dark theme, then switches the page to the light theme with the
 * header's control, as a user does, and runs it again: one load for both themes (a second load cost ≈ 1 s
 * of a check's ≈ 2 s, DECISIONS.md). The page is checked with its data, not in its loading state.
 */
async function inBothThemes(page: Page, check: (theme: (typeof THEMES)[number]) => Promise<void>) {
  await expect(page.getByText(en.common.loading, { exact: true })).toHaveCount(0);
  for (const theme of THEMES) {
    if (theme !== "dark") await page.getByLabel(en.theme.label, { exact: true }).selectOption(theme);
    await expect(page.locator("html")).toHaveClass(theme);
    // Links and buttons fade to the new colours (transition-colors): checked once they are there.
    await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
    await check(theme);
  }
}

function slug(path: string) {
  return path.replace(/^\//, "").replace(/[^A-Za-z0-9]+/g, "-") || "home";
}

let seeded: Seed | undefined;
const pageOf = rolePages(() => seeded!);

test.describe("accessibility", () => {
  test.describe.configure({ timeout: 60_000 });

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(90_000);
    seeded = await seed(browser);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  test.afterAll(async () => {
    await closeSeed(seeded);
  });

  test("the check finds a serious violation when there is one", async () => {
    const page = await seeded!.contexts.anonymous.newPage();
    try {
      await page.goto("/");
      await expectPage(page, []);
      expect(await seriousViolations(page)).toEqual([]);
      await page.locator("main").first().evaluate((main) => {
        const faint = document.createElement("p");
        faint.textContent = "grey on grey";
        faint.style.cssText = "color: #8a8a8a; background: #999999";
        main.appendChild(faint);
      });
      expect((await seriousViolations(page)).join("\n")).toMatch(/^color-contrast \(serious\)/m);
    } finally {
      await page.close();
    }
  });

  // The server's own render of the light theme (from the cookie) is covered by the account spec.
  for (const route of SPEC_ROUTES) {
    test(`axe: ${route.path} in the dark and the light theme`, async ({ baseURL }) => {
      const s = seeded!;
      await setTheme(s, "dark", baseURL!);
      const { page, errors } = await pageOf(viewerOf(route.access));
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(fill(route.path, s));
      await expectPage(page, errors);
      await inBothThemes(page, async (theme) => {
        await page.screenshot({ path: join(SCREENSHOTS, `${theme}-${slug(route.path)}.png`), fullPage: true });
        expect(await seriousViolations(page), `${route.path} in the ${theme} theme`).toEqual([]);
      });
      expect(errors, "uncaught page errors").toEqual([]);
    });
  }

  test("the game loop works by keyboard alone: open a challenge, submit the flag, read the verdict, open the scoreboard", async ({ baseURL }) => {
    const s = seeded!;
    await setTheme(s, "dark", baseURL!);
    const page = await s.contexts.user.newPage();
    await page.goto(`/games/${s.gameId}/challenges`);
    await expect(page.getByRole("heading", { name: en.challenge.pageTitle, level: 1 })).toBeVisible();

    /** Tabs until `locator` has the focus (at most `limit` presses). */
    const tabTo = async (locator: ReturnType<Page["locator"]>, limit = 60) => {
      for (let i = 0; i < limit; i++) {
        if (await locator.evaluate((el) => el === document.activeElement).catch(() => false)) return;
        await page.keyboard.press("Tab");
      }
      throw new Error("the element never took the focus by Tab");
    };

    const card = page.getByRole("button", { name: new RegExp(s.challengeTitle) }).first();
    await tabTo(card);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: s.challengeTitle })).toBeVisible();

    const flag = page.getByRole("textbox", { name: en.challenge.flag });
    await tabTo(flag);
    await page.keyboard.type(SEED_FLAG);
    await page.keyboard.press("Enter");
    await expect(page.getByText(en.verdict.correct, { exact: false }).first()).toBeVisible({ timeout: 15_000 });

    const scoreboard = page.getByRole("link", { name: en.gameTabs.scoreboard, exact: true });
    await tabTo(scoreboard, 200);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/games/${s.gameId}/scoreboard`, "i"));
    await expect(page.getByText(s.challengeTitle).first()).toBeVisible();
    await page.close();
  });

  test("focus is visible: focused links, buttons and fields draw an outline", async () => {
    const page = await seeded!.contexts.anonymous.newPage();
    await page.goto("/account/login");
    const outlines: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press("Tab");
      const style = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const css = getComputedStyle(el);
        const visible = el.matches(":focus-visible");
        const drawn = (css.outlineStyle !== "none" && Number.parseFloat(css.outlineWidth) > 0) || css.boxShadow !== "none";
        return `${el.tagName.toLowerCase()}:${visible && drawn ? "ok" : "none"}`;
      });
      if (style) outlines.push(style);
    }
    expect(outlines.length).toBeGreaterThan(3);
    expect(outlines.filter((o) => o.endsWith(":none"))).toEqual([]);
    await page.close();
  });

  test("colour contrast holds with a custom admin colour", async ({ baseURL }) => {
    test.setTimeout(180_000);
    const s = seeded!;
    const admin = s.contexts.admin.request;
    try {
      for (const colour of ["#ffd700", "#1a1a80"]) {
        const saved = await admin.put("/api/admin/config", { data: { globalConfig: { customTheme: colour } } });
        expect(saved.status()).toBe(200);
        await setTheme(s, "dark", baseURL!);
        for (const [role, path] of [
          ["anonymous", "/"],
          ["anonymous", "/account/login"],
          ["user", `/games/${s.gameId}`],
          ["user", `/games/${s.gameId}/challenges`],
          ["admin", "/admin/users"],
        ] as const) {
          const { page, errors } = await pageOf(role);
          await page.goto(path);
          await expectPage(page, errors);
          await inBothThemes(page, async (theme) => {
            expect(await seriousViolations(page, ["color-contrast"]), `${colour} ${theme} ${path}`).toEqual([]);
            await page.screenshot({ path: join(SCREENSHOTS, `custom-${colour.slice(1)}-${theme}-${slug(path)}.png`) });
          });
        }
      }
    } finally {
      await admin.put("/api/admin/config", { data: { globalConfig: { customTheme: "" } } });
    }
  });
});

test.describe("layout from 30em to 90em", () => {
  // Each page loads once at the narrowest width and is then widened, as a window is: a load costs ≈ 0.6 s of
  // the browser's time, a new layout a few milliseconds.
  test("main pages have no horizontal overflow at 480, 768, 1024 and 1440 px", async ({ adminPage: page }) => {
    for (const path of ["/", "/games", "/posts", "/about", "/teams", "/account/profile", "/admin/users", "/admin/games"]) {
      await page.setViewportSize({ width: 480, height: 900 });
      await page.goto(path);
      for (const width of [480, 768, 1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await expect(page.locator("main h1").filter({ visible: true }).or(page.getByText(en.wide.title).filter({ visible: true })).first()).toBeVisible();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${path} at ${width}px overflows by ${overflow}px`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: join(SCREENSHOTS, `width-${width}-${slug(path)}.png`) });
      }
    }
  });

  test("the header keeps to one row at every width, with a 15-character user name", async ({ page }) => {
    await registerUser(page, { userName: `w${Date.now().toString(36)}`.padEnd(15, "x").slice(0, 15) });
    await page.setViewportSize({ width: 480, height: 900 });
    await page.goto("/");
    for (const width of [480, 1024, 1100, 1183, 1184, 1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(page.locator("main h1").first()).toBeVisible();
      // One row: the logo's row is the header's only one (the menu button stands in for the rest when narrow).
      const { header, logo } = await page.evaluate(() => ({
        header: document.querySelector("header")!.getBoundingClientRect().height,
        logo: document.querySelector("header a")!.getBoundingClientRect().height,
      }));
      expect(header, `header at ${width}px`).toBeLessThan(logo + 30);
    }
  });

  test("admin and monitor screens say 'Not wide enough' on a narrow screen", async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 480, height: 900 });
    const now = Date.now();
    // The author's top level is "##": under the page's h1 it is an h2, not an h3 (axe heading-order).
    const content = "Read this first.\n\n## Rules\n\nPlay fair.\n\n### Scoring\n\nDynamic.";
    const created = await page.request.post("/api/edit/games", { data: { title: `Narrow ${now}`, content, start: now - 3_600_000, end: now + 3_600_000 } });
    const { id } = (await created.json()) as { id: number };
    const visibleH1 = () => page.locator("h1").filter({ visible: true });
    for (const path of ["/admin/users", "/admin/games", `/games/${id}/monitor/events`]) {
      await page.goto(path);
      await expect(page.getByText(en.wide.title), path).toBeVisible();
      // The page's own h1 is hidden with the content: the notice's title is the page's one h1.
      await expect(visibleH1(), path).toHaveText(en.wide.title);
      expect(await ruleViolations(page, ["page-has-heading-one"]), path).toEqual([]);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(page.getByText(en.wide.title)).toBeHidden();
    await expect(visibleH1()).toHaveCount(1);
    await expect(visibleH1()).not.toHaveText(en.wide.title);

    await page.goto(`/games/${id}`);
    await expect(page.getByRole("heading", { name: "Rules", level: 2 })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Scoring", level: 3 })).toBeVisible();
    expect(await ruleViolations(page, ["heading-order", "page-has-heading-one"])).toEqual([]);
  });
});

test.describe("small screens, keyboard and announcements", () => {
  const HOUR = 3_600_000;

  test("a control reached backwards with Shift+Tab is not hidden under the sticky header", async ({ page }) => {
    await registerUser(page);
    await page.setViewportSize({ width: 640, height: 400 });
    await page.goto("/account/profile");
    await expect(page.locator("main h1")).toBeVisible();
    await expect(page.getByText(en.common.loading, { exact: true })).toHaveCount(0);
    // From the page's end back to the header, as a keyboard user reading backwards does.
    await page.evaluate(() => {
      const end = document.createElement("button");
      end.textContent = "end";
      document.body.appendChild(end);
      end.focus();
    });
    const hidden: string[] = [];
    let reached = 0;
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press("Shift+Tab");
      const seen = await page.evaluate(() => {
        const el = document.activeElement;
        const header = document.querySelector("header")!;
        if (!el || el === document.body || header.contains(el)) return null;
        const box = el.getBoundingClientRect();
        const covered = Math.max(0, Math.min(box.bottom, header.getBoundingClientRect().bottom) - Math.max(box.top, 0));
        return { name: `${el.tagName} ${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}`, covered };
      });
      if (seen === null) break;
      reached++;
      if (seen.covered > 0) hidden.push(`${seen.name} (${Math.round(seen.covered)} px under the header)`);
    }
    expect(reached).toBeGreaterThan(5);
    expect(hidden).toEqual([]);
  });

  test("long challenge titles wrap at 360 px: the board and the game's notices do not scroll sideways", async ({ page, adminApi }) => {
    const now = Date.now();
    const stamp = now.toString(36);
    const game = (await (await adminApi.post("/api/edit/games", { data: { title: `Wrap ${stamp}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true } })).json()) as { id: number };
    // 64 characters without a space: a URL-like or made-up word a browser cannot break by itself.
    const title = `Supercalifragilistic${stamp}`.padEnd(64, "x");
    const challenge = (await (await adminApi.post(`/api/edit/games/${game.id}/challenges`, { data: { title, category: "Misc", type: "StaticAttachment" } })).json()) as { id: number };
    expect((await adminApi.post(`/api/edit/games/${game.id}/challenges/${challenge.id}/flags`, { data: [{ flag: "flag{wrap}" }] })).status()).toBe(200);
    expect((await adminApi.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { data: { isEnabled: true } })).status()).toBe(200);
    await registerUser(page);
    const team = (await (await page.request.post("/api/team", { data: { name: `W${stamp}`.slice(0, 15) } })).json()) as { id: number };
    expect((await page.request.post(`/api/game/${game.id}`, { data: { teamId: team.id } })).status()).toBe(200);
    expect((await page.request.post(`/api/game/${game.id}/challenges/${challenge.id}`, { data: { flag: "flag{wrap}" } })).status()).toBe(200);

    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await page.setViewportSize({ width: 360, height: 740 });
    // The New challenge and First blood notices name the challenge.
    await page.goto(`/games/${game.id}`);
    await expect(page.getByRole("region", { name: en.notices.title }).getByTestId("notice").filter({ hasText: title })).toHaveCount(2);
    expect(await overflow(), "game page").toBeLessThanOrEqual(0);

    await page.goto(`/games/${game.id}/challenges`);
    const card = page.locator(`[data-challenge-card="${challenge.id}"]`);
    const badge = card.getByText(en.challenge.solvedMark);
    await expect(badge).toBeVisible({ timeout: 15_000 });
    for (const width of [360, 768]) {
      await page.setViewportSize({ width, height: 740 });
      expect(await overflow(), `challenges at ${width} px`).toBeLessThanOrEqual(0);
      const [outer, inner] = [(await card.boundingBox())!, (await badge.boundingBox())!];
      expect(inner.x + inner.width, `badge inside its card at ${width} px`).toBeLessThanOrEqual(outer.x + outer.width);
    }
  });

  test("the narrow site menu closes on Escape, and logging out by keyboard says so and keeps the focus on the page", async ({ page }) => {
    await registerUser(page);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/games");
    await expect(page.locator("main h1")).toBeVisible();
    const menu = page.getByRole("button", { name: en.nav.menu, exact: true });
    await menu.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("button", { name: en.nav.closeMenu })).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();

    await page.keyboard.press("Enter");
    const logout = page.getByRole("button", { name: en.nav.logout });
    await logout.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: en.nav.loggedOut })).toHaveCount(1);
    // At 360 px the Log in link is in the closed menu: the focus is on the menu button that opens it.
    await expect(menu).toBeFocused();
    await page.setViewportSize({ width: 1440, height: 900 });
    await registerUser(page);
    await page.reload();
    await page.getByRole("button", { name: en.nav.logout }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("link", { name: en.nav.login })).toBeFocused();
  });

  test("the admin notices page says what was posted, saved and deleted, and names each notice's buttons", async ({ adminPage: page }) => {
    const now = Date.now();
    const game = (await (await page.request.post("/api/edit/games", { data: { title: `Say ${now}`, start: now - HOUR, end: now + HOUR } })).json()) as { id: number };
    await page.goto(`/admin/games/${game.id}/notices`);
    const status = page.getByRole("status").filter({ hasText: /./ });
    await page.getByLabel(en.adminGames.noticeContent).fill("**Maintenance** at noon: the scoreboard pauses for a few minutes while we upgrade it.");
    await page.getByRole("button", { name: en.adminGames.postNotice }).click();
    await expect(status).toHaveText(en.adminGames.noticePosted);
    // The buttons name the notice by its first words (Markdown marks left out), not just "Edit" and "Delete".
    const edit = page.getByRole("button", { name: /^Edit notice “Maintenance at noon: the scoreboard/ });
    const remove = page.getByRole("button", { name: /^Delete notice “Maintenance at noon: the scoreboard/ });
    await expect(edit).toHaveText(en.adminGames.edit);
    await expect(remove).toHaveText(en.adminGames.deleteNotice);
    await edit.click();
    const dialog = page.getByRole("dialog", { name: en.adminGames.editNotice });
    await dialog.getByLabel(en.adminGames.noticeContent).fill("Maintenance is over.");
    await dialog.getByRole("button", { name: en.adminGames.save }).click();
    await expect(status).toHaveText(en.adminGames.noticeSaved);
    await page.getByRole("button", { name: "Delete notice “Maintenance is over.”" }).click();
    await page.getByRole("dialog").getByRole("button", { name: en.adminGames.deleteNotice }).click();
    await expect(status).toHaveText(en.adminGames.noticeDeleted);
    await expect(page.getByText(en.notices.empty)).toBeVisible();
  });

  test("a message's tone shows in its shape as well as its colour: information, success and error each draw their own icon", async ({ page }) => {
    const user = await registerUser(page);
    await page.goto("/account/profile");
    await hydrated(page);
    const form = page.locator("form").filter({ has: page.getByLabel(en.profile.bio, { exact: true }) });
    const save = form.getByRole("button", { name: en.profile.save, exact: true });
    const iconOf = (message: Locator) => message.locator("svg[data-alert-icon]");
    const shapeOf = async (message: Locator) => (await iconOf(message).locator("path").evaluateAll((paths) => paths.map((p) => p.getAttribute("d")))).join(" ");

    await save.click();
    const info = form.getByRole("status").filter({ hasText: en.common.noChange });
    await expect(iconOf(info)).toHaveAttribute("data-alert-icon", "info");
    const infoShape = await shapeOf(info);
    await expect(iconOf(info)).toHaveAttribute("aria-hidden", "true");

    await page.getByLabel(en.profile.bio, { exact: true }).fill("Shapes, not only colours.");
    await save.click();
    const success = form.getByRole("status").filter({ hasText: en.profile.saved });
    await expect(iconOf(success)).toHaveAttribute("data-alert-icon", "success");
    const successShape = await shapeOf(success);

    await page.context().clearCookies();
    await page.goto("/account/login");
    await hydrated(page);
    await page.getByLabel(en.login.userName, { exact: true }).fill(user.userName);
    await page.getByLabel(en.login.password, { exact: true }).fill(`${user.password}-wrong`);
    await page.getByRole("button", { name: en.login.submit, exact: true }).click();
    const error = page.getByRole("alert").filter({ hasText: /./ });
    await expect(iconOf(error)).toHaveAttribute("data-alert-icon", "error");

    // Three different drawings, none of them carrying the message's words.
    const shapes = [infoShape, successShape, await shapeOf(error)];
    expect(new Set(shapes).size).toBe(3);
    await expect(iconOf(error)).toHaveText("");
  });

  test("the hint text of empty fields keeps 4.5:1 against the field in both themes", async ({ page, adminApi, baseURL }) => {
    const now = Date.now();
    const game = (await (await adminApi.post("/api/edit/games", { data: { title: `Hint ${now}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true } })).json()) as { id: number };
    const challenge = (await (await adminApi.post(`/api/edit/games/${game.id}/challenges`, { data: { title: "Contrast", category: "Misc", type: "StaticAttachment" } })).json()) as { id: number };
    await adminApi.post(`/api/edit/games/${game.id}/challenges/${challenge.id}/flags`, { data: [{ flag: "flag{p}" }] });
    expect((await adminApi.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { data: { isEnabled: true } })).status()).toBe(200);
    await registerUser(page);
    const team = (await (await page.request.post("/api/team", { data: { name: `P${now.toString(36)}`.slice(0, 15) } })).json()) as { id: number };
    expect((await page.request.post(`/api/game/${game.id}`, { data: { teamId: team.id } })).status()).toBe(200);

    /** The contrast of each visible field's hint text with the field's background (canvas turns oklch into sRGB). */
    const ratios = () =>
      page.evaluate(() => {
        const rgba = (css: string) => {
          const canvas = document.createElement("canvas").getContext("2d")!;
          canvas.fillStyle = css;
          canvas.fillRect(0, 0, 1, 1);
          const [r = 0, g = 0, b = 0, a = 255] = canvas.getImageData(0, 0, 1, 1).data;
          return [r, g, b, a / 255] as const;
        };
        const luminance = (rgb: readonly number[]) => {
          const [r = 0, g = 0, b = 0] = rgb.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        return [...document.querySelectorAll<HTMLInputElement>("main input[placeholder]")]
          .filter((field) => field.checkVisibility())
          .map((field) => {
            const background = rgba(getComputedStyle(field).backgroundColor);
            const [r, g, b, a] = rgba(getComputedStyle(field, "::placeholder").color);
            const text = [r, g, b].map((v, k) => v * a + background[k]! * (1 - a));
            const [light, dark] = [luminance(text), luminance(background)].sort((x, y) => y - x) as [number, number];
            return { field: field.name || field.getAttribute("aria-label") || field.id, ratio: Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100 };
          });
      });
    for (const path of ["/teams", `/games/${game.id}/challenges?challenge=${challenge.id}`]) {
      // Each page starts dark (the previous one ended light).
      await page.context().addCookies([{ name: "flagstaff-theme", value: "dark", url: baseURL! }]);
      await page.evaluate(() => localStorage.setItem("flagstaff-theme", "dark")).catch(() => undefined);
      await page.goto(path);
      await expect(page.locator("main input[placeholder]").first()).toBeVisible();
      await inBothThemes(page, async (theme) => {
        const measured = await ratios();
        expect(measured.length, path).toBeGreaterThan(0);
        expect(measured.filter((m) => m.ratio < 4.5), `${path} in the ${theme} theme`).toEqual([]);
      });
    }
  });
});

test("controls that save at once keep the keyboard focus, and a file chooser's button shows the focus", async ({ adminPage: page }) => {
  const now = Date.now();
  const game = (await (await page.request.post("/api/edit/games", { data: { title: `Focus ${now.toString(36)}`, start: now + 3_600_000, end: now + 7_200_000 } })).json()) as { id: number };
  const challenge = (await (await page.request.post(`/api/edit/games/${game.id}/challenges`, { data: { title: "Switch", category: "Misc", type: "StaticAttachment" } })).json()) as { id: number };
  expect((await page.request.post(`/api/edit/games/${game.id}/challenges/${challenge.id}/flags`, { data: [{ flag: "flag{focus}" }] })).status()).toBe(200);
  await page.goto(`/admin/games/${game.id}/challenges`);
  const toggle = page.getByRole("switch", { name: en.adminChallenges.enableNamed.replace("{{title}}", "Switch") });
  await toggle.focus();
  await page.keyboard.press("Space");
  await expect(toggle).toBeChecked();
  await expect(toggle).toBeFocused();

  // The avatar's chooser: an input hidden behind its label; reached by keyboard, the label draws the focus,
  // and the focus stays on it through the upload.
  await page.goto("/account/profile");
  const chooser = page.locator('input[type="file"]');
  await expect(chooser).toHaveCount(1);
  await chooser.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(chooser).toBeFocused();
  const outline = () => page.locator("label", { hasText: en.profile.uploadAvatar }).evaluate((label) => getComputedStyle(label).outlineStyle);
  expect(await outline()).toBe("solid");
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
  const uploaded = page.waitForResponse((response) => response.url().endsWith("/api/account/avatar") && response.request().method() === "PUT");
  await chooser.setInputFiles({ name: "a.png", mimeType: "image/png", buffer: png });
  expect((await uploaded).status()).toBe(200);
  await expect(page.getByRole("progressbar")).toHaveCount(0);
  await expect(chooser).toBeFocused();
});
