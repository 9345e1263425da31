import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "~/.server/db/schema";
import "../../workers/api";
import { routeTable } from "../../workers/api/registry";
import { keysOf } from "../support/schema-keys";
import { createGame, createTeam, userIdOf } from "./game-helpers";
import { Client, db, newUser, unique } from "./helpers";

/**
 * Every registered API route, called by an admin with bad input: path ids that name nothing ("abc", a number
 * past any id, a negative one), and — on ids that exist (a game, its challenge, a team, a post, the admin) —
 * query values that are not numbers, bodies that are not JSON or not an object, and each body key set to a
 * wrong type. Whatever the route, the answer is never a 5xx, and a refusal is the spec's error shape with a
 * title in the caller's language (api.md "Errors"). The routes' own tests say which refusal each case gets.
 */
describe("bad input on every route", () => {
  it("is refused with a localised {title, status}, never a 5xx", async () => {
    const { client, userName } = await newUser({ lang: "ja-JP" });
    await db().update(users).set({ role: "Admin" }).where(eq(users.userName, userName));
    // Signing out would leave the rest of the sweep unauthenticated.
    const routes = routeTable.filter((r) => r.path !== "/account/logout");
    expect(routes.length).toBeGreaterThan(100);

    // Ids that exist, so that a body reaches its route's checks rather than a "not found" for its path.
    const game = await createGame(client);
    const challenge = await client.json<{ id: number }>(`/api/edit/games/${game.id}/challenges`, { method: "POST", body: { title: unique("c"), category: "Web", type: "StaticAttachment" } });
    const team = await createTeam(client);
    const post = await client.json<{ id: string }>("/api/edit/posts", { method: "POST", body: { title: unique("post") } });
    expect([challenge.status, post.status]).toEqual([200, 200]);
    const userId = await userIdOf(client);
    const existing = (path: string, param: string): string => {
      if (param === "userid") return userId;
      if (/^\/(game|edit\/games)\//.test(path)) return param === "id" ? String(game.id) : param === "cid" ? String(challenge.body.id) : "1";
      if (/^\/(team|admin\/teams)\//.test(path) && param === "id") return String(team.id);
      if (/posts\//.test(path) && param === "id") return post.body.id;
      return "1";
    };

    const calls: { method: string; path: string; raw?: string }[] = [];
    for (const route of routes) {
      const named = (value: (param: string) => string) => `/api${route.path.replace(/:([A-Za-z]+)/g, (_, param: string) => value(param))}`;
      if (route.path.includes(":")) for (const id of ["99999999999999999999", "-1", "abc"]) calls.push({ method: route.method, path: named(() => id) });
      else if (route.method === "GET" || route.method === "DELETE") calls.push({ method: route.method, path: `/api${route.path}` });
      const path = named((param) => existing(route.path, param));
      if (route.query && route.method === "GET") {
        for (const key of keysOf(route.query)) for (const wrong of ["abc", "-1", "99999999999999999999", "1.5", "%FF"]) calls.push({ method: route.method, path: `${path}?${key}=${wrong}` });
      }
      // Bodies only where a route reads one (a route without one acts on its path alone).
      if (!route.body) continue;
      const bodies = ["{", "[]", '"text"'];
      const keys = [...keysOf(route.body)];
      for (const key of keys) for (const wrong of [null, { x: 1 }, 1e21]) bodies.push(JSON.stringify({ [key]: wrong }));
      if (keys[0]) bodies.push(JSON.stringify({ [keys[0]]: "a".repeat(70_000) }));
      for (const raw of bodies) calls.push({ method: route.method, path, raw });
    }

    const failures: string[] = [];
    let refused = 0;
    let sent = 0;
    // The admin, then nobody signed in (refused before or after the input is read, in the same shape).
    for (const cookie of [client.cookie, null]) for (const call of calls) {
      const i = sent++;
      // A new address per call: the sweep measures the routes, not the per-address rate limits.
      const caller = new Client({ lang: "ja-JP", ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` });
      caller.cookie = cookie;
      const res = await caller.fetch(call.path, { method: call.method, raw: call.raw, headers: call.raw === undefined ? {} : { "content-type": "application/json" } });
      const text = await res.text();
      const what = `${cookie ? "admin" : "anonymous"} ${call.method} ${call.path.slice(0, 80)} ${call.raw?.slice(0, 40) ?? ""} → ${res.status} ${text.slice(0, 120)}`;
      if (res.status >= 500) {
        failures.push(what);
        continue;
      }
      if (res.status < 400) continue;
      refused++;
      let body: { title?: unknown; status?: unknown } | null = null;
      try {
        body = JSON.parse(text) as { title?: unknown; status?: unknown };
      } catch {
        // Not JSON: reported below.
      }
      if (!body || typeof body.title !== "string" || body.status !== res.status) failures.push(`shape: ${what}`);
      else if (!/[^\x20-\x7e]/.test(body.title)) failures.push(`not in Japanese: ${what}`);
    }
    expect(failures).toEqual([]);
    // Nearly every call is refused: an id that names nothing or a body of the wrong type has no other answer.
    expect(refused).toBeGreaterThan(sent * 0.9);
  }, 240_000);
});
