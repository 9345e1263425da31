import { expect, test } from "./fixtures";
import { closeSeed, en, ROLES, type Seed, seed } from "./ui-seed";
import { expected, expectPage, fill, SPEC_ROUTES } from "./ui-routes";

/**
 * Every route of spec §2, written in the spec's case, visited as each role: the roles allowed get the page,
 * the others the login redirect (not signed in) or the 403 screen (role too low); unknown paths the 404 page.
 */

let seeded: Seed | undefined;

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
          const page = await s.contexts[role].newPage();
          const errors: string[] = [];
          page.on("pageerror", (error) => errors.push(error.message));
          try {
            const response = await page.goto(path);
            const outcome = expected(route.access, role);
            const url = new URL(page.url());
            if (outcome === "page") {
              expect(response?.status(), `${role} gets ${path}`).toBe(200);
              expect(url.pathname.toLowerCase()).toBe(path.toLowerCase());
              await expectPage(page, errors);
            } else if (outcome === "login") {
              expect(url.pathname).toBe("/account/login");
              expect(url.searchParams.get("from")?.toLowerCase()).toBe(path.toLowerCase());
              await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
            } else if (outcome === "home") {
              expect(url.pathname).toBe("/");
            } else {
              expect(response?.status(), `${role} is refused ${path}`).toBe(403);
              await expect(page.getByRole("heading", { name: en.forbidden.title })).toBeVisible();
              await expect(page.getByText(en.forbidden.message)).toBeVisible();
            }
          } finally {
            await page.close();
          }
        });
      }
    });
  }

  test("unknown paths show the 404 page to every role", async () => {
    for (const role of ROLES) {
      const page = await seeded!.contexts[role].newPage();
      for (const path of ["/no/such/page", "/games/999999", "/posts/zzzzzzzz"]) {
        const response = await page.goto(path);
        expect(response?.status(), `${role} ${path}`).toBe(404);
        await expect(page.getByRole("heading", { name: en.notFound.title })).toBeVisible();
      }
      await page.close();
    }
  });

  test("paths match whatever their case", async () => {
    const page = await seeded!.contexts.admin.newPage();
    for (const path of ["/ADMIN/USERS", "/Games", `/GAMES/${seeded!.gameId}/SCOREBOARD`, "/ABOUT"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expectPage(page, []);
    }
    await page.close();
  });
});
