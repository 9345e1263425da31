import { readFileSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { isOneLine, ONE_LINE_VECTORS, packVectors, SHORT_VECTORS, vectorsFitting, XSS_VECTORS } from "../support/xss-vectors";
import { adminCredentials, expect, registerUser, test } from "./fixtures";

type Strings = typeof import("../../app/locales/en-US/common.json");
const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;

const HOUR = 3_600_000;

declare global {
  interface Window {
    __xss?: unknown;
    __cspViolations?: string[];
  }
}

/** Records CSP violations, dialogs and page errors of one page for the whole test. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on("console", (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to (execute|load|apply|connect|frame)/i.test(text)) problems.push(`console: ${text}`);
    if (/hydrat/i.test(text) && message.type() === "error") problems.push(`hydration: ${text}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.type()} ${dialog.message()}`);
    void dialog.dismiss();
  });
  return problems;
}

async function trackViolations(page: Page) {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      window.__cspViolations!.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`);
    });
  });
}

/** After a page settled: no injected script ran and no executable markup made it into the DOM. */
async function expectInert(page: Page, where: string, expectText = true) {
  await page.waitForLoadState("networkidle");
  const report = await page.evaluate(() => {
    const issues: string[] = [];
    if (window.__xss !== undefined) issues.push("window.__xss was set");
    for (const script of document.querySelectorAll("script")) {
      const ownFile = script.src && new URL(script.src).origin === location.origin;
      if (!ownFile && !script.nonce) issues.push(`script without nonce: ${script.outerHTML.slice(0, 120)}`);
    }
    for (const el of document.querySelectorAll("*")) {
      for (const attr of el.getAttributeNames()) {
        if (attr.toLowerCase().startsWith("on")) issues.push(`${el.tagName} has ${attr}`);
      }
      for (const name of ["href", "src", "action", "formaction", "xlink:href", "data", "srcdoc", "background"]) {
        const value = el.getAttribute(name);
        if (value && /^\s*(javascript|vbscript|data:text\/html)/i.test([...value].filter((ch) => ch.charCodeAt(0) > 0x20).join(""))) {
          issues.push(`${el.tagName} ${name}=${value.slice(0, 60)}`);
        }
      }
    }
    const forbidden = "iframe, object, embed, base, meta[http-equiv], math, template, [data-markdown] svg, [data-markdown] style";
    for (const el of document.querySelectorAll(forbidden)) issues.push(`${el.tagName} in the page`);
    return { issues, violations: window.__cspViolations ?? [], text: document.body.innerText };
  });
  expect(report.issues, where).toEqual([]);
  expect(report.violations, `${where}: CSP violations`).toEqual([]);
  // The seeded markup is on the page, shown as text: the test really looked at it.
  if (expectText) expect(report.text, `${where} shows the seeded text`).toMatch(/__xss|onerror|onload|javascript/);
}

async function ok(request: APIRequestContext, method: "post" | "put", path: string, data: unknown) {
  const response = await request[method](path, { data });
  expect(response.status(), `${method.toUpperCase()} ${path}: ${await response.text()}`).toBe(200);
  return response.json() as Promise<Record<string, unknown>>;
}

test("every response carries the security headers; pages hydrate under the nonce CSP without violations", async ({ page, request }) => {
  const problems = watch(page);
  await trackViolations(page);

  const home = await request.get("/");
  const headers = home.headers();
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["cross-origin-opener-policy"]).toBe("same-origin");
  expect(headers["permissions-policy"]).toContain("camera=()");
  // Plain HTTP: no HSTS.
  expect(headers["strict-transport-security"]).toBeUndefined();
  // A fresh nonce per response, and the inline scripts carry it.
  const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
  const again = (await request.get("/")).headers()["content-security-policy"];
  expect(again).not.toContain(nonce);
  const html = await home.text();
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);

  for (const path of ["/api/config", "/api/nope"]) {
    const h = (await request.get(path)).headers();
    expect(h["content-security-policy"], path).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(h["x-content-type-options"], path).toBe("nosniff");
    expect(h["x-frame-options"], path).toBe("DENY");
  }
  const css = html.match(/href="(\/assets\/[^"]+\.css)"/)?.[1];
  expect(css).toBeTruthy();
  const cssHeaders = (await request.get(css!)).headers();
  expect(cssHeaders["x-content-type-options"]).toBe("nosniff");
  expect(cssHeaders["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");

  // Main pages as a visitor, then as the admin.
  for (const path of ["/", "/games", "/posts", "/about", "/account/login", "/account/register", "/no-such-page"]) {
    await page.goto(path);
    await expectInert(page, path, false);
  }
  // Hydration works: the login form signs in through the client-side handler.
  await page.goto("/account/login");
  await page.getByLabel(en.login.userName, { exact: true }).fill(adminCredentials.userName);
  await page.getByLabel(en.login.password, { exact: true }).fill(adminCredentials.password);
  await page.getByRole("button", { name: en.login.submit, exact: true }).click();
  await expect(page).not.toHaveURL(/\/account\/login/);
  for (const path of ["/teams", "/account/profile", "/admin/users", "/admin/teams", "/admin/games", "/admin/settings", "/admin/logs"]) {
    await page.goto(path);
    await expectInert(page, path, false);
  }
  expect(problems).toEqual([]);
});

test("a corpus of XSS vectors in every free-text field renders inert", async ({ adminPage, browser }) => {
  test.setTimeout(120_000);
  expect(XSS_VECTORS.length).toBeGreaterThanOrEqual(100);
  const admin = adminPage.request;
  const everything = XSS_VECTORS.join("\n\n");
  const stamp = Date.now().toString(36);

  // Platform texts: footer (every page), slogan (home), description (about). Restored at the end.
  const before = (await (await admin.get("/api/admin/config")).json()) as { globalConfig: Record<string, unknown> };
  const footer = packVectors(XSS_VECTORS, 4096)[0]!;
  await ok(admin, "put", "/api/admin/config", {
    globalConfig: { footerInfo: footer, slogan: packVectors(ONE_LINE_VECTORS, 256, { oneLine: true })[0], description: everything },
  });

  const postIds: string[] = [];
  let gameId: number | null = null;
  try {
    // Posts: title, summary, content, tags.
    const summaries = packVectors(XSS_VECTORS, 1024);
    for (const [i, summary] of summaries.entries()) {
      const titles = vectorsFitting(50).filter(isOneLine);
      const title = titles[i % titles.length]!;
      const post = await ok(admin, "post", "/api/edit/posts", {
        title,
        summary,
        content: everything,
        tags: [...vectorsFitting(32).filter(isOneLine), ...SHORT_VECTORS].slice(0, 16),
      });
      postIds.push(String(post.id ?? post));
    }

    // A running game with a Markdown summary/content, a notice, a challenge with description and hints.
    const now = Date.now();
    const game = await ok(admin, "post", "/api/edit/games", {
      title: `<svg onload=window.__xss=1>${stamp}`.slice(0, 64),
      summary: packVectors(ONE_LINE_VECTORS, 1024, { oneLine: true })[1],
      content: everything,
      start: now - HOUR,
      end: now + HOUR,
      acceptWithoutReview: true,
    });
    gameId = game.id as number;
    for (const content of packVectors(XSS_VECTORS, 10_000)) await ok(admin, "post", `/api/edit/games/${gameId}/notices`, { content });
    const challengeTitle = "<img src=x onerror=window.__xss=1>";
    const challenge = await ok(admin, "post", `/api/edit/games/${gameId}/challenges`, {
      title: challengeTitle,
      category: "Web",
      type: "StaticAttachment",
    });
    const cid = challenge.id as number;
    await ok(admin, "post", `/api/edit/games/${gameId}/challenges/${cid}/flags`, [{ flag: `flag{${stamp}}` }]);
    await ok(admin, "put", `/api/edit/games/${gameId}/challenges/${cid}`, {
      content: everything,
      hints: packVectors(ONE_LINE_VECTORS, 1000, { oneLine: true }).slice(0, 50),
      isEnabled: true,
    });

    // A player: user names with markup are refused; real name, bio, team name and bio take vectors.
    const context = await browser.newContext();
    const player = await context.newPage();
    const problems = watch(player);
    await trackViolations(player);
    const user = await registerUser(player);
    for (const bad of ["<svg/onload=x>", "a\"onmouseover=x", "javascript:x", "<b>x</b>"]) {
      const r = await player.request.put("/api/account/update", { data: { userName: bad } });
      expect(r.status(), bad).toBe(400);
      const refused = await player.request.post("/api/account/register", {
        data: { userName: bad, password: "Passw0rd!e2e", email: `${stamp}${Math.random().toString(36).slice(2, 8)}@example.com` },
      });
      expect(refused.status(), bad).toBe(400);
    }
    await ok(player.request, "put", "/api/account/update", {
      realName: packVectors(vectorsFitting(128).filter(isOneLine), 128, { oneLine: true })[0],
      bio: packVectors(vectorsFitting(128), 128)[1],
    });
    const team = await ok(player.request, "post", "/api/team", {
      name: "<svg onload=__xss=1>",
      bio: packVectors(vectorsFitting(72), 72)[0],
    });
    const teamId = team.id as number;
    expect((await player.request.post(`/api/game/${gameId}`, { data: { teamId } })).status()).toBe(200);

    // Every page that shows one of those fields, once.
    for (const path of ["/", "/about", "/posts", `/posts/${postIds[0]}`, "/games", `/games/${gameId}`, "/teams", "/account/profile", `/games/${gameId}/scoreboard`]) {
      await player.goto(path);
      await expectInert(player, `player ${path}`);
    }
    await player.goto(`/games/${gameId}/challenges`);
    await player.getByRole("button", { name: challengeTitle }).first().click();
    await expect(player.getByRole("region", { name: en.challenge.hints })).toBeVisible();
    await expectInert(player, "player challenge view");
    expect(problems, "player page").toEqual([]);
    expect(user.userName).not.toMatch(/[<>"]/);
    await context.close();

    const adminProblems = watch(adminPage);
    for (const path of [
      "/admin/users",
      "/admin/teams",
      `/admin/games/${gameId}/info`,
      `/admin/games/${gameId}/notices`,
      `/admin/games/${gameId}/review`,
      `/admin/games/${gameId}/challenges/${cid}`,
      `/posts/${postIds[0]}/edit`,
      `/games/${gameId}/monitor/submissions`,
    ]) {
      await adminPage.goto(path);
      await expectInert(adminPage, `admin ${path}`);
    }
    expect(adminProblems, "admin page").toEqual([]);
  } finally {
    // Later specs share the server: the seeded content goes again.
    for (const id of postIds) await admin.delete(`/api/edit/posts/${id}`);
    if (gameId !== null) await admin.delete(`/api/edit/games/${gameId}`);
    await ok(admin, "put", "/api/admin/config", {
      globalConfig: {
        footerInfo: before.globalConfig.footerInfo ?? "",
        slogan: before.globalConfig.slogan ?? "",
        description: before.globalConfig.description ?? "",
      },
    });
  }
});
