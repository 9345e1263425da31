import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures";

// Labels come from the locale files, so rewording a string does not break the flow under test.
type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;
// The first screen of a freshly started server may take longer to compile and hydrate.
const FIRST_LOAD = { timeout: 15_000 };
const stamp = () => Date.now().toString(36);

test("an admin writes a pinned post: it shows first on /posts and on the home page", async ({ adminPage: page }) => {
  const title = `Pinned ${stamp()}`;
  await page.goto("/posts");
  await page.getByRole("link", { name: en.posts.newPost }).click();
  await expect(page.getByRole("heading", { name: en.posts.createTitle, level: 1 })).toBeVisible(FIRST_LOAD);
  // Without a title the post is refused at its field, which takes the focus.
  await page.getByRole("button", { name: en.posts.create }).click();
  await expect(page.getByLabel(en.posts.fieldTitle)).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel(en.posts.fieldTitle)).toBeFocused();
  await page.getByLabel(en.posts.fieldTitle).fill(title);
  // Typed but not saved, leaving by the site's navigation asks first; staying keeps what was typed.
  await page.getByRole("navigation", { name: en.nav.label }).getByRole("link", { name: en.nav.home, exact: true }).click();
  const leave = page.getByRole("dialog", { name: en.leaveGuard.title });
  await leave.getByRole("button", { name: en.teams.cancel, exact: true }).click();
  await expect(leave).toBeHidden();
  await expect(page).toHaveURL(/\/posts\/new\/edit$/);
  await expect(page.getByLabel(en.posts.fieldTitle)).toHaveValue(title);
  await page.getByLabel(en.posts.fieldSummary).fill("A short summary");
  await page.getByLabel(en.posts.fieldContent).fill("# Rules\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n`code`");
  await page.getByRole("button", { name: en.posts.preview }).click();
  await expect(page.getByTestId("content-preview").getByRole("heading", { name: "Rules" })).toBeVisible();
  await page.getByLabel(en.posts.fieldTags).fill("news, rules");
  await page.getByLabel(en.posts.fieldPinned).check();
  await page.getByRole("button", { name: en.posts.create }).click();

  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/posts\/[0-9a-z]{8}$/);
  // The author's "# Rules" sits under the post's own h1, one level down.
  await expect(page.getByRole("heading", { name: "Rules", level: 2 })).toBeVisible();
  await expect(page.getByRole("cell", { name: "2" })).toBeVisible();

  // An unpinned post written later still comes after the pinned one.
  const later = `Later ${stamp()}`;
  await page.request.post("/api/edit/posts", { data: { title: later } });

  await page.goto("/posts");
  const headings = page.getByRole("article").getByRole("heading", { level: 2 });
  await expect(headings.first()).toHaveText(title);
  await expect(page.getByRole("article").first()).toContainText(en.posts.pinned);
  await expect(page.getByRole("heading", { name: later })).toBeVisible();

  await page.goto("/");
  const latest = page.getByRole("region", { name: en.home.latestPosts });
  await expect(latest.getByRole("link", { name: title })).toBeVisible();
  await expect(page.getByRole("region", { name: en.home.recentGames })).toBeVisible();
});

test("XSS in a post renders inert: no dialog, no script element, no javascript: link", async ({ adminPage: page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const title = `XSS ${stamp()}`;
  const content = [
    "<script>window.__xss = 1; alert('script')</script>",
    "<img src=x onerror=\"window.__xss = 2; alert('img')\">",
    "[click me](javascript:alert('link'))",
    "![pixel](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
    "<iframe src=\"javascript:alert('frame')\"></iframe>",
  ].join("\n\n");
  const response = await page.request.post("/api/edit/posts", { data: { title, content } });
  expect(response.status()).toBe(200);
  const { id } = (await response.json()) as { id: string };

  await page.goto(`/posts/${id}`);
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible(FIRST_LOAD);
  const body = page.locator("[data-markdown]");
  await expect(body).toContainText("<script>window.__xss = 1;");
  await expect(body.locator("script, iframe, img[onerror]")).toHaveCount(0);
  const link = body.getByRole("link", { name: "click me" });
  await expect(link).toHaveAttribute("href", "");
  await link.click();
  await page.waitForTimeout(300);
  expect(dialogs).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
});

test("an admin changes the colour: after a reload the primary colour variable has changed", async ({ adminPage: page }) => {
  const brand = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--brand").trim().toLowerCase());
  await page.goto("/admin/settings");
  const colour = page.getByRole("textbox", { name: en.settings.platform.colour, exact: true });
  await expect(colour).toBeVisible(FIRST_LOAD);
  const before = await brand();
  const next = before === "#d9480f" ? "#2b8a3e" : "#d9480f";
  const platform = page.getByRole("region", { name: en.settings.platform.heading });
  // A colour the platform cannot use is named on its field, not saved (and cleared) under "Settings saved".
  await colour.fill("#zzz");
  await platform.getByRole("button", { name: en.settings.save }).click();
  await expect(platform.getByText(en.settings.platform.colourInvalid)).toBeVisible();
  await expect(colour).toHaveAttribute("aria-invalid", "true");
  await expect(platform.getByText(en.settings.saved)).toHaveCount(0);
  await colour.fill(next);
  await platform.getByRole("button", { name: en.settings.save }).click();
  await expect(platform.getByText(en.settings.saved)).toBeVisible();
  await expect(platform.getByText(en.settings.platform.colourInvalid)).toHaveCount(0);

  await page.reload();
  await expect(colour).toHaveValue(next, FIRST_LOAD);
  expect(await brand()).toBe(next);
  // Text on the primary colour is chosen by luminance: white on this dark orange or green.
  const onPrimary = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--on-primary-600").trim());
  expect(onPrimary).toBe("#ffffff");
  // Restore the default palette for other tests.
  await page.request.put("/api/admin/config", { data: { globalConfig: { customTheme: "" } } });
});

test("an empty platform name is refused at its field, and the card's message of an earlier save goes", async ({ adminPage: page }) => {
  await page.goto("/admin/settings");
  const platform = page.getByRole("region", { name: en.settings.platform.heading });
  const name = platform.getByRole("textbox", { name: en.settings.platform.name });
  await expect(name).toBeVisible(FIRST_LOAD);
  const stored = await name.inputValue();
  const slogan = platform.getByRole("textbox", { name: en.settings.platform.slogan, exact: true });
  await slogan.fill(`Slogan ${Date.now()}`);
  await platform.getByRole("button", { name: en.settings.save }).click();
  await expect(platform.getByText(en.settings.saved)).toBeVisible();

  await name.fill("   ");
  await platform.getByRole("button", { name: en.settings.save }).click();
  // Named on the name's field, in the card's words; no "Settings saved" left over from the earlier save.
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(platform.getByText(en.settings.platform.nameRequired)).toBeVisible();
  await expect(platform.getByText(en.settings.saved)).toHaveCount(0);
  await expect(platform.getByRole("alert").filter({ hasText: /Title/ })).toHaveCount(0);

  await name.fill(stored);
  await expect(platform.getByText(en.settings.platform.nameRequired)).toHaveCount(0);
  await platform.getByRole("button", { name: en.settings.save }).click();
  // The stored values again: nothing to send, and the card says so.
  await expect(platform.getByText(en.common.noChange)).toBeVisible();
  await page.request.put("/api/admin/config", { data: { globalConfig: { slogan: "" } } });
});

test("with a red brand colour an information box still looks unlike an error box, in the dark and the light theme", async ({ adminPage: admin, browser }) => {
  // The info tone used the brand palette: #e11d48 made it the error tone's red (sRGB values apart by a few units,
  // so the check is on hue, not on equality).
  expect((await admin.request.put("/api/admin/config", { data: { globalConfig: { customTheme: "#e11d48" } } })).status()).toBe(200);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto("/account/login?reason=password-changed");
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--brand").trim().toLowerCase())).toBe("#e11d48");
    const info = page.getByRole("status").filter({ hasText: en.login.passwordChanged });
    await expect(info).toBeVisible(FIRST_LOAD);
    await page.getByLabel(en.login.userName).fill(`nobody${stamp()}`);
    await page.getByLabel(en.login.password, { exact: true }).fill("Wrong-passw0rd!");
    await page.getByRole("button", { name: en.login.submit }).click();
    const error = page.getByRole("alert").filter({ hasText: /\S/ }).filter({ visible: true });
    await expect(error).toBeVisible();
    await expect(info).toBeVisible();
    // Hue (degrees) of each painted colour, read back from a canvas: computed styles may be oklch/oklab/color-mix.
    const hues = (box: typeof info) =>
      box.evaluate((el) => {
        const css = getComputedStyle(el);
        const ctx = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
        const hue = (colour: string) => {
          ctx.clearRect(0, 0, 1, 1);
          ctx.fillStyle = colour;
          ctx.fillRect(0, 0, 1, 1);
          const [r, g, b] = [...ctx.getImageData(0, 0, 1, 1).data].map((v) => v / 255) as [number, number, number];
          const max = Math.max(r, g, b);
          const d = max - Math.min(r, g, b);
          if (d === 0) return null;
          const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
          return (h * 60 + 360) % 360;
        };
        return { background: hue(css.backgroundColor), border: hue(css.borderTopColor), text: hue(css.color) };
      });
    const apart = (a: number | null, b: number | null) => (a === null || b === null ? 0 : Math.min(Math.abs(a - b), 360 - Math.abs(a - b)));
    for (const theme of ["dark", "light"] as const) {
      if (theme === "light") await page.getByLabel(en.theme.label, { exact: true }).selectOption(theme);
      await expect(page.locator("html")).toHaveClass(theme);
      await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
      const [i, e] = [await hues(info), await hues(error)];
      for (const part of ["background", "border", "text"] as const) {
        expect(apart(i[part], e[part]), `${theme} ${part}: info ${i[part]}°, error ${e[part]}°`).toBeGreaterThanOrEqual(60);
      }
    }
  } finally {
    await context.close();
    await admin.request.put("/api/admin/config", { data: { globalConfig: { customTheme: "" } } });
  }
});

test("a saved settings card keeps what it saved, and the next save does not send the old values back", async ({ adminPage: page }) => {
  await page.goto("/admin/settings");
  const account = page.getByRole("region", { name: en.settings.account.heading });
  const platform = page.getByRole("region", { name: en.settings.platform.heading });
  const allow = account.getByRole("checkbox", { name: en.settings.account.allowRegister });
  await expect(allow).toBeChecked(FIRST_LOAD);
  const stored = async () => ((await (await page.request.get("/api/admin/config")).json()) as { accountPolicy: { allowRegister: boolean; emailDomainList: string } }).accountPolicy;
  try {
    // Typing in another card that is not saved must survive this card's save.
    const slogan = platform.getByRole("textbox", { name: en.settings.platform.slogan, exact: true });
    await slogan.fill(`Unsaved ${stamp()}`);
    const typed = await slogan.inputValue();

    await allow.uncheck();
    await account.getByRole("button", { name: en.settings.save }).click();
    await expect(account.getByText(en.settings.saved)).toBeVisible();
    expect((await stored()).allowRegister).toBe(false);
    await expect(allow).not.toBeChecked();
    await expect(slogan).toHaveValue(typed);

    // A second save of the same card sends what it shows: registration stays closed.
    await account.getByRole("textbox", { name: en.settings.account.domains }).fill("example.com");
    await account.getByRole("button", { name: en.settings.save }).click();
    await expect.poll(async () => (await stored()).emailDomainList).toBe("example.com");
    expect((await stored()).allowRegister).toBe(false);
    await expect(allow).not.toBeChecked();
  } finally {
    await page.request.put("/api/admin/config", { data: { accountPolicy: { allowRegister: true, emailDomainList: "" } } });
  }
});

test("a logo upload or reset keeps what is typed in the platform card and says it was done", async ({ adminPage: page }) => {
  // A 1×1 transparent PNG.
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
  await page.goto("/admin/settings");
  const platform = page.getByRole("region", { name: en.settings.platform.heading });
  const slogan = platform.getByRole("textbox", { name: en.settings.platform.slogan, exact: true });
  await expect(slogan).toBeVisible(FIRST_LOAD);
  try {
    await slogan.fill(`Unsaved ${stamp()}`);
    const typed = await slogan.inputValue();
    await platform.getByLabel(en.settings.platform.uploadLogo).setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png });
    await expect(platform.getByText(en.settings.platform.logoUploaded)).toBeVisible();
    await expect(platform.getByRole("img", { name: en.settings.platform.logo })).toBeVisible();
    await expect(slogan).toHaveValue(typed);

    // A double click resets once.
    const resets: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "DELETE" && new URL(request.url()).pathname === "/api/admin/config/logo") resets.push(request.url());
    });
    await platform.getByRole("button", { name: en.settings.platform.resetLogo }).dblclick();
    await expect(platform.getByText(en.settings.platform.logoReset)).toBeVisible();
    expect(resets).toHaveLength(1);
    await expect(platform.getByText(en.settings.platform.noLogo, { exact: true })).toBeVisible();
    await expect(slogan).toHaveValue(typed);
  } finally {
    await page.request.delete("/api/admin/config/logo");
  }
});

test("a cleared container minutes field is named at the field instead of saving nothing under “Settings saved”", async ({ adminPage: page }) => {
  await page.goto("/admin/settings");
  const container = page.getByRole("region", { name: en.settings.container.heading });
  const lifetime = container.getByRole("spinbutton", { name: en.settings.container.defaultLifetime });
  await expect(lifetime).toBeVisible(FIRST_LOAD);
  const stored = await lifetime.inputValue();
  await lifetime.fill("");
  await container.getByRole("button", { name: en.settings.save }).click();
  const message = en.settings.container.minutesRange.replace("{{min}}", "1").replace("{{max}}", "7200");
  await expect(container.getByText(message)).toBeVisible();
  await expect(lifetime).toHaveAttribute("aria-invalid", "true");
  await expect(container.getByText(en.settings.saved)).toHaveCount(0);
  // Typing the stored number back is no change (nothing to save), and the field's message goes.
  await lifetime.fill(stored);
  await container.getByRole("button", { name: en.settings.save }).click();
  await expect(container.getByText(en.common.noChange)).toBeVisible();
  await expect(container.getByText(message)).toHaveCount(0);
  await expect(lifetime).not.toHaveAttribute("aria-invalid", "true");
});

test("a container minutes field refused by the card clears the card's message of an earlier save", async ({ adminPage: page }) => {
  await page.goto("/admin/settings");
  const container = page.getByRole("region", { name: en.settings.container.heading });
  const lifetime = container.getByRole("spinbutton", { name: en.settings.container.defaultLifetime });
  const extension = container.getByRole("spinbutton", { name: en.settings.container.extension });
  await expect(lifetime).toBeVisible(FIRST_LOAD);
  const storedExtension = Number(await extension.inputValue());
  const message = en.settings.container.minutesRange.replace("{{min}}", "1").replace("{{max}}", "7200");
  try {
    await extension.fill(String(storedExtension === 7200 ? 7199 : storedExtension + 1));
    await container.getByRole("button", { name: en.settings.save }).click();
    await expect(container.getByText(en.settings.saved)).toBeVisible();

    await lifetime.fill("");
    await container.getByRole("button", { name: en.settings.save }).click();
    await expect(container.getByText(message)).toBeVisible();
    // No "Settings saved" left from the earlier save beside the refusal.
    await expect(container.getByText(en.settings.saved)).toHaveCount(0);

    // Nor "Nothing to save" from an earlier save of the values as loaded.
    await page.reload();
    await expect(lifetime).toBeVisible(FIRST_LOAD);
    await container.getByRole("button", { name: en.settings.save }).click();
    await expect(container.getByText(en.common.noChange)).toBeVisible();
    await lifetime.fill("0");
    await container.getByRole("button", { name: en.settings.save }).click();
    await expect(container.getByText(message)).toBeVisible();
    await expect(container.getByText(en.common.noChange)).toHaveCount(0);
  } finally {
    await page.request.put("/api/admin/config", { data: { containerPolicy: { extensionDuration: storedExtension } } });
  }
});

test("switching CAPTCHA on without a provider on the server warns in the account card", async ({ adminPage: page }) => {
  // The e2e server has no FLAGSTAFF_CAPTCHA_* (GET /api/captcha answers None).
  await page.goto("/admin/settings");
  const account = page.getByRole("region", { name: en.settings.account.heading });
  const captcha = account.getByRole("checkbox", { name: en.settings.account.useCaptcha });
  await expect(captcha).toBeVisible(FIRST_LOAD);
  await captcha.uncheck();
  await expect(account.getByText(en.settings.account.noCaptchaTitle)).toHaveCount(0);
  await captcha.check();
  await expect(account.getByRole("alert")).toContainText(en.settings.account.noCaptchaTitle);
  await expect(account.getByRole("alert")).toContainText(en.settings.account.noCaptcha);
});
