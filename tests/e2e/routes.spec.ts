import { expect, test } from "./fixtures";
import { closeSeed, en, ROLES, type Seed, seed } from "./ui-seed";
import { expected, expectPage, fill, rolePages, SPEC_ROUTES } from "./ui-routes";

/**
 * Every route of spec §2, written in the spec's case, visited as each role: the roles allowed get the page,
 * the others the login redirect (not signed in) or the 403 screen (role too low); unknown paths the 404 page.
 * The roles allowed open the page in the browser; a refusal is decided by the server's answer alone, so the
 * others ask with the same session over HTTP (half the suite's time went to loading refusals), and one test
 * opens each kind of refusal in the browser.
 */

/** The server's HTML as text (React escapes apostrophes). */
function htmlText(html: string) {
  return html.replaceAll("&#x27;", "'").replaceAll("&#39;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

let seeded: Seed | undefined;
const pageOf = rolePages(() => seeded!);

test.describe("every route of spec §2 as every role", () => {
  test.describe.configure({ timeout: 60_000 });

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(90_000);
    seeded = await seed(browser);
  });
  test.afterAll(async () => {
    await closeSeed(seeded);
  });

  for (const route of SPEC_ROUTES) {
    test(`${route.path} (${route.access})`, async () => {
      const s = seeded!;
      const path = fill(route.path, s);
      for (const role of ROLES) {
        await test.step(`as ${role}`, async () => {
          const outcome = expected(route.access, role);
          if (outcome !== "page") {
            const response = await s.contexts[role].request.get(path, { maxRedirects: 0 });
            if (outcome === "forbidden") {
              expect(response.status(), `${role} is refused ${path}`).toBe(403);
              const text = htmlText(await response.text());
              expect(text).toContain(en.forbidden.title);
              expect(text).toContain(en.forbidden.message);
              return;
            }
            expect(response.status(), `${role} is sent away from ${path}`).toBe(302);
            const location = new URL(response.headers().location ?? "", "http://localhost");
            if (outcome === "login") {
              expect(location.pathname).toBe("/account/login");
              expect(location.searchParams.get("from")?.toLowerCase()).toBe(path.toLowerCase());
            } else {
              expect(location.pathname).toBe("/");
            }
            return;
          }
          const { page, errors } = await pageOf(role);
          const response = await page.goto(path);
          expect(response?.status(), `${role} gets ${path}`).toBe(200);
          expect(new URL(page.url()).pathname.toLowerCase()).toBe(path.toLowerCase());
          await expectPage(page, errors);
        });
      }
    });
  }

  test("each kind of refusal shows its page in the browser", async () => {
    const s = seeded!;
    const gamePath = fill("/games/{id}/monitor/Events", s);
    for (const [role, path, outcome] of [
      ["anonymous", "/admin/Users", "login"],
      ["anonymous", gamePath, "login"],
      ["user", "/admin/Settings", "forbidden"],
      ["user", gamePath, "forbidden"],
      ["monitor", "/admin/Users", "forbidden"],
      ["admin", "/account/Register", "home"],
    ] as const) {
      expect(expected(SPEC_ROUTES.find((r) => fill(r.path, s) === path)!.access, role)).toBe(outcome);
      const { page, errors } = await pageOf(role);
      const response = await page.goto(path);
      const url = new URL(page.url());
      if (outcome === "login") {
        expect(url.pathname).toBe("/account/login");
        expect(url.searchParams.get("from")?.toLowerCase()).toBe(path.toLowerCase());
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      } else if (outcome === "home") {
        expect(url.pathname).toBe("/");
        await expect(page.locator("main h1").first()).toBeVisible();
      } else {
        expect(response?.status(), `${role} is refused ${path}`).toBe(403);
        await expect(page.getByRole("heading", { name: en.forbidden.title })).toBeVisible();
        await expect(page.getByText(en.forbidden.message)).toBeVisible();
      }
      expect(errors, `${role} ${path}: uncaught page errors`).toEqual([]);
    }
  });

  test("unknown paths show the 404 page to every role", async () => {
    for (const role of ROLES) {
      const { page } = await pageOf(role);
      for (const path of ["/no/such/page", "/games/999999", "/posts/zzzzzzzz"]) {
        const response = await page.goto(path);
        expect(response?.status(), `${role} ${path}`).toBe(404);
        await expect(page.getByRole("heading", { name: en.notFound.title })).toBeVisible();
      }
    }
    // An admin page of a game or challenge that does not exist is a 404 from the server too.
    const { page } = await pageOf("admin");
    const { gameId } = seeded!;
    for (const path of ["/admin/games/999999/info", "/admin/games/999999/challenges", `/admin/games/${gameId}/challenges/999999`, `/admin/games/${gameId}/challenges/999999/flags`]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { name: en.notFound.title })).toBeVisible();
    }
  });

  test("paths match whatever their case", async () => {
    const { page, errors } = await pageOf("admin");
    for (const path of ["/ADMIN/USERS", "/Games", `/GAMES/${seeded!.gameId}/SCOREBOARD`, "/ABOUT"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expectPage(page, errors);
    }
  });
});
