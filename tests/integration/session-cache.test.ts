import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SESSION_CACHE_TTL_MS } from "~/.server/auth/session";
import { sessions, users } from "~/.server/db/schema";
import { type ErrorBody, newAdmin, userIdOf } from "./game-helpers";
import { db, newUser } from "./helpers";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The in-isolate session cache (DECISIONS.md "Sessions are cached in the isolate for 2 s").
describe("session cache", () => {
  /** Requests until the session is refused (the background re-read has finished); the statuses seen. */
  async function untilRefused(client: Awaited<ReturnType<typeof newUser>>["client"]): Promise<number[]> {
    const seen: number[] = [];
    for (let i = 0; i < 40 && seen.at(-1) !== 401; i++) {
      if (i > 0) await sleep(50);
      seen.push((await client.json<ErrorBody>("/api/account/profile")).status);
    }
    return seen;
  }

  it("serves a session from the isolate for at most the TTL after a change made elsewhere, then re-reads it in the background", async () => {
    const { client } = await newUser();
    const userId = await userIdOf(client);
    // Revoked straight in D1 (as another isolate would): the cached session still answers at first…
    await db().delete(sessions).where(eq(sessions.userId, userId));
    expect((await client.json("/api/account/profile")).status).toBe(200);
    // …and once the TTL has passed, the next request (still served) starts the re-read, after which the
    // session is refused.
    await sleep(SESSION_CACHE_TTL_MS + 100);
    const seen = await untilRefused(client);
    expect(seen.at(-1)).toBe(401);
    expect(seen.slice(0, -1).every((status) => status === 200)).toBe(true);
  });

  it("applies a ban made elsewhere within the TTL and one background re-read", async () => {
    const { client, userName } = await newUser();
    expect((await client.json("/api/account/profile")).status).toBe(200);
    await db().update(users).set({ role: "Banned" }).where(eq(users.userName, userName));
    await sleep(SESSION_CACHE_TTL_MS + 100);
    expect((await untilRefused(client)).at(-1)).toBe(401);
  });

  it("drops the cache at once for changes made in this isolate, and re-reads before refusing", async () => {
    const { client: admin } = await newAdmin();
    const { client, userName } = await newUser();
    const userId = await userIdOf(client);
    // A refusal re-reads the user: a promotion made elsewhere counts at once.
    expect((await client.json<ErrorBody>("/api/admin/config")).status).toBe(403);
    await db().update(users).set({ role: "Monitor" }).where(eq(users.userName, userName));
    expect((await client.json<ErrorBody>("/api/admin/config")).status).toBe(403);
    await db().update(users).set({ role: "Admin" }).where(eq(users.userName, userName));
    expect((await client.json("/api/admin/config")).status).toBe(200);
    // A profile rename in this isolate shows at once in the page shell's user (the root loader).
    const renamed = `${userName.slice(0, 13)}zq`;
    expect((await client.json("/api/account/update", { method: "PUT", body: { userName: renamed } })).status).toBe(200);
    expect(await (await client.fetch("/")).text()).toContain(renamed);
    // A ban through the admin API ends the cached session at once.
    expect((await admin.json(`/api/admin/users/${userId}`, { method: "PUT", body: { role: "Banned" } })).status).toBe(200);
    expect((await client.json<ErrorBody>("/api/account/profile")).status).toBe(401);
  });
});
