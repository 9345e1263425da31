import { expect, type Page } from "@playwright/test";
import { en, type Role, type Seed } from "./ui-seed";

/** A role's open page and the uncaught errors of its current document. */
export interface RolePage {
  page: Page;
  errors: string[];
}

/**
 * One page per role, opened once and navigated from route to route. Each visit is still a full page load;
 * what is saved is the new page: on the 2-core CI machine a new page and its first load cost ≈ 2.7 CPU-s,
 * a load in an open page ≈ 0.5 (DECISIONS.md). The pages close with the seed's contexts.
 */
export function rolePages(seeded: () => Seed) {
  const open = new Map<Role, RolePage>();
  return async (role: Role): Promise<RolePage> => {
    let entry = open.get(role);
    if (!entry || entry.page.isClosed()) {
      const page = await seeded().contexts[role].newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      entry = { page, errors };
      open.set(role, entry);
    }
    entry.errors.length = 0;
    return entry;
  };
}

/** Every route of spec §2, in the spec's case, with the lowest role that may open it. */
export type Access =
  /** Anyone. */
  | "public"
  /** Only when signed out (login, register); a signed-in visitor is sent on to the home page. */
  | "guest"
  | "user"
  | "monitor"
  | "admin";

export const SPEC_ROUTES: { path: string; access: Access }[] = [
  // Public
  { path: "/", access: "public" },
  { path: "/About", access: "public" },
  { path: "/Teams", access: "user" },
  // Account
  // Confirms an email change of the signed-in account.
  { path: "/account/Confirm", access: "user" },
  { path: "/account/Login", access: "guest" },
  { path: "/account/Profile", access: "user" },
  { path: "/account/Recovery", access: "public" },
  { path: "/account/Register", access: "guest" },
  { path: "/account/Reset", access: "public" },
  { path: "/account/Verify", access: "public" },
  // Admin
  { path: "/admin/Instances", access: "admin" },
  { path: "/admin/Logs", access: "admin" },
  { path: "/admin/Settings", access: "admin" },
  { path: "/admin/Teams", access: "admin" },
  { path: "/admin/Users", access: "admin" },
  { path: "/admin/games", access: "admin" },
  { path: "/admin/games/{id}/Info", access: "admin" },
  { path: "/admin/games/{id}/Notices", access: "admin" },
  { path: "/admin/games/{id}/Review", access: "admin" },
  { path: "/admin/games/{id}/Writeups", access: "admin" },
  { path: "/admin/games/{id}/challenges", access: "admin" },
  { path: "/admin/games/{id}/challenges/{chalId}", access: "admin" },
  { path: "/admin/games/{id}/challenges/{chalId}/Flags", access: "admin" },
  // Games
  { path: "/games", access: "public" },
  { path: "/games/{id}", access: "public" },
  { path: "/games/{id}/Challenges", access: "user" },
  { path: "/games/{id}/Scoreboard", access: "public" },
  { path: "/games/{id}/monitor/CheatInfo", access: "monitor" },
  { path: "/games/{id}/monitor/Events", access: "monitor" },
  { path: "/games/{id}/monitor/Submissions", access: "monitor" },
  { path: "/games/{id}/monitor/Traffic", access: "monitor" },
  // Posts
  { path: "/posts", access: "public" },
  { path: "/posts/{postId}", access: "public" },
  { path: "/posts/{postId}/edit", access: "admin" },
];

const RANK: Record<Role, number> = { anonymous: 0, user: 1, monitor: 2, admin: 3 };
const NEEDS: Record<Exclude<Access, "public" | "guest">, number> = { user: 1, monitor: 2, admin: 3 };

export function expected(access: Access, role: Role): "page" | "login" | "forbidden" | "home" {
  if (access === "public") return "page";
  if (access === "guest") return role === "anonymous" ? "page" : "home";
  if (role === "anonymous") return "login";
  return RANK[role] >= NEEDS[access] ? "page" : "forbidden";
}

export function fill(path: string, s: Pick<Seed, "gameId" | "challengeId" | "postId">): string {
  return path.replace("{id}", String(s.gameId)).replace("{chalId}", String(s.challengeId)).replace("{postId}", s.postId);
}

/** The page drew its own content: no error boundary, no 404, no uncaught error. */
export async function expectPage(page: Page, errors: string[]) {
  await expect(page.locator("main").first()).toBeVisible();
  // The visible one: admin and monitor pages also hold the "Not wide enough" notice's h1, hidden when wide.
  await expect(page.locator("main h1").filter({ visible: true }).first()).toBeVisible();
  await expect(page.getByRole("heading", { name: en.error.title })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: en.notFound.title })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: en.forbidden.title })).toHaveCount(0);
  expect(errors, "uncaught page errors").toEqual([]);
}

/** The lowest role that gets the page (to visit it as). */
export function viewerOf(access: Access): Role {
  return access === "public" || access === "guest" ? "anonymous" : access;
}
