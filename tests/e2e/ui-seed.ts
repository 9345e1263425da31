import { readFileSync } from "node:fs";
import type { APIRequestContext, APIResponse, Browser, BrowserContext } from "@playwright/test";
import { adminCredentials, expect, registerUser, uniqueUserName } from "./fixtures";

type Strings = typeof import("../../app/locales/en-US/common.json");
/** English UI strings, so selectors follow the locale files. */
export const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8")) as Strings;

export const ROLES = ["anonymous", "user", "monitor", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const SEED_FLAG = "flag{ui_audit_seed}";

export interface Seed {
  gameId: number;
  challengeId: number;
  challengeTitle: string;
  postId: string;
  /** One signed-in browser context per role (anonymous: none signed in). */
  contexts: Record<Role, BrowserContext>;
  userName: string;
}

async function ok<T>(response: APIResponse, what: string): Promise<T> {
  if (response.status() !== 200) throw new Error(`${what}: HTTP ${response.status()} ${(await response.text()).slice(0, 300)}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

async function signIn(request: APIRequestContext, userName: string, password: string) {
  await ok(await request.post("/api/account/login", { data: { userName, password } }), `login ${userName}`);
}

/**
 * A running game (joined by the user's team, no review) with one enabled static challenge, a post, and a
 * browser context per role: a player, a monitor (a user whose role the admin changed) and the admin.
 */
export async function seed(browser: Browser, options: { colorScheme?: "dark" | "light" } = {}): Promise<Seed> {
  const make = () => browser.newContext({ colorScheme: options.colorScheme ?? "dark" });
  const contexts = { anonymous: await make(), user: await make(), monitor: await make(), admin: await make() } satisfies Record<Role, BrowserContext>;
  const admin = contexts.admin.request;
  await signIn(admin, adminCredentials.userName, adminCredentials.password);

  const now = Date.now();
  const stamp = now.toString(36);
  const game = await ok<{ id: number }>(
    await admin.post("/api/edit/games", {
      data: { title: `Audit ${stamp}`, summary: "A game seeded by the UI audit.", start: now - 3_600_000, end: now + 7 * 86_400_000, acceptWithoutReview: true },
    }),
    "create game",
  );
  const challengeTitle = `Warm-up ${stamp}`;
  const challenge = await ok<{ id: number }>(
    await admin.post(`/api/edit/games/${game.id}/challenges`, { data: { title: challengeTitle, category: "Misc", type: "StaticAttachment" } }),
    "create challenge",
  );
  await ok(await admin.post(`/api/edit/games/${game.id}/challenges/${challenge.id}/flags`, { data: [{ flag: SEED_FLAG }] }), "add flag");
  await ok(
    await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { data: { content: "Find the flag in this text.", isEnabled: true } }),
    "enable challenge",
  );
  const post = await ok<{ id: string }>(
    await admin.post("/api/edit/posts", { data: { title: `Audit post ${stamp}`, summary: "A post seeded by the UI audit.", content: "Hello **players**." } }),
    "create post",
  );

  const player = await registerUser(contexts.user.request);
  if (player.status !== "LoggedIn") await signIn(contexts.user.request, player.userName, player.password);
  const team = await ok<{ id: number }>(await contexts.user.request.post("/api/team", { data: { name: `T${stamp}`.slice(0, 15) } }), "create team");
  await ok(await contexts.user.request.post(`/api/game/${game.id}`, { data: { teamId: team.id } }), "join game");

  const monitorName = uniqueUserName("mon");
  const monitor = await registerUser(contexts.monitor.request, { userName: monitorName });
  const found = await ok<{ data: { id: number; userName: string }[] }>(
    await admin.post(`/api/admin/users/search?hint=${encodeURIComponent(monitorName)}`),
    "find monitor",
  );
  const monitorId = found.data.find((u) => u.userName === monitorName)?.id;
  expect(monitorId, "the monitor user exists").toBeDefined();
  await ok(await admin.put(`/api/admin/users/${monitorId}`, { data: { role: "Monitor" } }), "make monitor");
  await signIn(contexts.monitor.request, monitor.userName, monitor.password);

  return { gameId: game.id, challengeId: challenge.id, challengeTitle, postId: post.id, contexts, userName: player.userName };
}

export async function closeSeed(seeded: Seed | undefined) {
  if (!seeded) return;
  for (const context of Object.values(seeded.contexts)) await context.close();
}
