import { type APIRequestContext, type APIResponse, test as base, expect, type Locator, type Page } from "@playwright/test";
import { ADMIN_PASSWORD, ADMIN_USER } from "../../playwright.config";

/** The first admin, created by scripts/start.mjs from FLAGSTAFF_ADMIN_USER / FLAGSTAFF_ADMIN_PASSWORD. */
export const adminCredentials = { userName: ADMIN_USER, password: ADMIN_PASSWORD } as const;

/** Meets the password policy: long enough, with lower and upper case, a digit and a symbol. */
export const DEFAULT_PASSWORD = "Passw0rd!e2e";

export type RegisteredUser = {
  userName: string;
  password: string;
  email: string;
  /** RegisterStatus answered by the server: LoggedIn, EmailConfirmationRequired or AdminConfirmationRequired. */
  status: string;
};

let counter = 0;

/** A user name no other test (or earlier run on the same data) has: 3–15 characters. */
export function uniqueUserName(prefix = "e2e"): string {
  counter += 1;
  const stamp = Date.now().toString(36).slice(-5);
  const random = Math.floor(Math.random() * 36 ** 3).toString(36).padStart(3, "0");
  return `${prefix}${stamp}${random}${counter.toString(36)}`.slice(0, 15);
}

function requestOf(target: Page | APIRequestContext): APIRequestContext {
  return "goto" in target ? target.request : target;
}

async function describeFailure(what: string, response: APIResponse): Promise<Error> {
  return new Error(`${what} answered HTTP ${response.status()}: ${(await response.text()).slice(0, 500)}`);
}

/**
 * Registers a fresh user through POST /api/account/register. With a page, the request runs in the page's
 * browser context, so a LoggedIn registration leaves the session cookie in the browser.
 */
export async function registerUser(
  target: Page | APIRequestContext,
  options: { userName?: string; password?: string; email?: string } = {},
): Promise<RegisteredUser> {
  const userName = options.userName ?? uniqueUserName();
  const password = options.password ?? DEFAULT_PASSWORD;
  const email = options.email ?? `${userName.toLowerCase()}@example.com`;
  const response = await requestOf(target).post("/api/account/register", { data: { userName, password, email } });
  if (response.status() !== 200) throw await describeFailure(`register ${userName}`, response);
  const body = (await response.json()) as { data?: unknown };
  return { userName, password, email, status: String(body.data) };
}

/** Signs in through POST /api/account/login in the page's context; the session cookie lands in the browser. */
export async function login(page: Page, userName: string, password: string): Promise<void> {
  const response = await page.request.post("/api/account/login", { data: { userName, password } });
  if (response.status() !== 200) throw await describeFailure(`login ${userName}`, response);
}

type Fixtures = {
  adminCredentials: typeof adminCredentials;
  /** A page whose browser context is signed in as the first admin. */
  adminPage: Page;
  /**
   * The first admin's session for API calls only, without a browser context: for tests whose browser work
   * is a player's (a new context and page cost the browser ≈ 1 CPU-s even unused).
   */
  adminApi: APIRequestContext;
};

export const test = base.extend<Fixtures>({
  adminCredentials: async ({}, use) => {
    await use(adminCredentials);
  },
  adminPage: async ({ page }, use) => {
    await login(page, adminCredentials.userName, adminCredentials.password);
    await use(page);
  },
  adminApi: async ({ playwright, baseURL, locale }, use) => {
    const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: locale ? { "Accept-Language": locale } : {} });
    const response = await request.post("/api/account/login", { data: adminCredentials });
    if (response.status() !== 200) throw await describeFailure("admin login", response);
    await use(request);
    await request.dispose();
  },
});

/**
 * A refusal shown at its field: the field is invalid, has the focus, and is described by the message, which
 * stands next to it (in the field's own frame), not in an alert for the whole form.
 */
export async function expectRefusedAt(field: Locator, message: string): Promise<void> {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toBeFocused();
  const errorId = (await field.getAttribute("aria-describedby"))?.split(" ").find((id) => id.endsWith("-error"));
  expect(errorId, "the field is described by its error").toBeTruthy();
  await expect(field.locator("xpath=..").locator(`[id="${errorId}"]`)).toHaveText(message);
  await expect(field.page().getByRole("alert").filter({ hasText: message })).toHaveCount(0);
}

/** A translation with its `{{name}}` parts filled in, as i18next renders it (for expected texts). */
export const interpolate = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ""));

/**
 * The number `within` shows in place of `unknown` in the message `template`, once it shows that message. Tests run
 * in parallel and add games and users while a list test runs, so a list test reads the page count its list shows and
 * bounds it by the totals it read before and after, instead of predicting it.
 */
export async function shownNumber(within: Locator, template: string, known: Record<string, string | number>, unknown: string): Promise<number> {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const [before = "", after = ""] = interpolate(template, { ...known, [unknown]: "\u0000" }).split("\u0000");
  const pattern = new RegExp(`${escape(before)}(\\d+)${escape(after)}`);
  await expect(within).toContainText(pattern);
  return Number(pattern.exec((await within.textContent()) ?? "")?.[1]);
}

/**
 * Waits until the page has hydrated (the root marks <html data-hydrated>): a select changed in the instant
 * hydration ends reached React with the server's value under load, so the change was lost.
 */
export async function hydrated(page: Page): Promise<void> {
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true", { timeout: 15_000 });
}

/**
 * Holds the answers of the page's reads that match `url`: each is fetched from the server at once, so it is
 * read before what the test does next, but reaches the page only after `release()`, its JSON rows passed
 * through `change` (e.g. a marker row added, to see the answer land). `answered` resolves once a read has
 * been fetched. For the race of a push arriving while a list is being read.
 */
export async function holdReads(page: Page, url: RegExp, change: (rows: unknown[]) => unknown[]) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  await page.route(url, async (route) => {
    const response = await route.fetch();
    const rows = (await response.json()) as unknown[];
    answer();
    await released;
    await route.fulfill({ response, json: change(rows) });
  });
  return { answered, release, stop: () => page.unroute(url) };
}

/**
 * Resolves when a socket the page opens to a hub path ending in `path` is greeted (its `hello`). A push sent
 * between a page's first read and its socket's greeting reaches the page only at its next refetch; a test of
 * a live update waits for this before making the change. Call it before the page opens the socket.
 */
export function hubGreeted(page: Page, path: string): Promise<void> {
  return new Promise<void>((resolve) => {
    page.on("websocket", (ws) => {
      if (ws.url().endsWith(path)) ws.on("framereceived", (frame) => String(frame.payload).includes('"hello"') && resolve());
    });
  });
}

/** Visible controls smaller than 44 × 44 px (links inside running text and visually hidden ones are exempt). */
export async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, summary, [role=button]")) {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1 || el.closest(".sr-only")) continue;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden") continue;
      if (el instanceof HTMLInputElement && el.type === "checkbox" && (el.closest("label")?.getBoundingClientRect().height ?? 0) >= 44) continue;
      const parent = el.parentElement;
      if (el.tagName === "A" && style.display === "inline" && parent && (parent.textContent ?? "").trim().length > (el.textContent ?? "").trim().length + 10) continue;
      if (r.height < 43.5 || r.width < 43.5) out.push(`${Math.round(r.width)}×${Math.round(r.height)} ${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}"`);
    }
    return out;
  });
}

export { expect };
