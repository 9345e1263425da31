import { exports } from "cloudflare:workers";
import { and, eq, gt } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { logs } from "~/.server/db/schema";
import { BASE, Client, db, newUser, PASSWORD, unique } from "./helpers";
import type { ErrorBody } from "./game-helpers";

// A session cookie whose escapes cannot be decoded (`%`, a cut-off UTF-8 sequence) is no session: it used to
// throw a URIError in every request that read the session, so every API route and page answered 500.
const BROKEN = ["%", "%E0%A4%A", "%zz"];

/** Waits until the failed sign-in of `userName` is logged: the log records written before it are in D1 by then. */
async function waitForFailedSignIn(userName: string, since: number): Promise<void> {
  const end = Date.now() + 5000;
  for (;;) {
    const rows = await db().select().from(logs).where(and(gt(logs.time, since - 1), eq(logs.userName, userName))).all();
    if (rows.length > 0) return;
    if (Date.now() > end) throw new Error(`no log record of the failed sign-in of ${userName}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("an undecodable session cookie", () => {
  it("counts as no session on the API: public routes answer, user routes 401, login replaces it, logout clears it", async () => {
    const since = Date.now();
    const { userName } = await newUser();
    for (const value of BROKEN) {
      const c = new Client();
      c.cookie = `flagstaff_session=${value}`;
      expect((await c.json("/api/config")).status, value).toBe(200);
      expect((await c.json("/api/game")).status, value).toBe(200);
      const profile = await c.json<ErrorBody>("/api/account/profile");
      expect(profile.status, value).toBe(401);
      expect(profile.body).toEqual({ title: "Please log in first", status: 401 });
      expect((await c.json("/api/account/logout", { method: "POST" })).status, value).toBe(401);

      const login = await c.json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } });
      expect(login.status, value).toBe(200);
      expect(login.res.headers.get("set-cookie")).toMatch(/^flagstaff_session=[A-Za-z0-9_-]{40,};/);
      expect(c.cookie).not.toContain(value);
      expect((await c.json<{ userName: string }>("/api/account/profile")).body.userName).toBe(userName);

      const out = await c.json("/api/account/logout", { method: "POST" });
      expect(out.status, value).toBe(200);
      expect(out.res.headers.get("set-cookie")).toMatch(/^flagstaff_session=; .*Max-Age=0/);
      expect((await c.json("/api/account/profile")).status, value).toBe(401);
    }
    // A broken cookie of the same name (another path's) does not hide the good one.
    const c = new Client();
    await c.json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } });
    const good = c.cookie!;
    c.cookie = `flagstaff_session=%E0%A4%A; ${good}`;
    expect((await c.json<{ userName: string }>("/api/account/profile")).body.userName).toBe(userName);
    expect((await c.json("/api/account/logout", { method: "POST" })).status).toBe(200);

    // Nothing of it reached the admin log as an error.
    const nobody = unique("nobody");
    expect((await new Client().json("/api/account/login", { method: "POST", body: { userName: nobody, password: PASSWORD } })).status).toBe(401);
    await waitForFailedSignIn(nobody, since);
    const errors = await db().select().from(logs).where(and(gt(logs.time, since - 1), eq(logs.level, "Error"))).all();
    expect(errors).toEqual([]);
  });

  it("counts as no session on pages: public pages render, private ones send to the login page", async () => {
    for (const value of BROKEN) {
      const cookie = `flagstaff_session=${value}`;
      const home = await exports.default.fetch(`${BASE}/`, { headers: { cookie } });
      expect(home.status, value).toBe(200);
      const html = await home.text();
      expect(html).not.toContain("Unexpected Server Error");
      expect(html).toContain("<html");
      // Rendered for nobody: the browser may keep it as it keeps any signed-out page.
      expect(home.headers.get("cache-control") ?? "", value).not.toContain("no-store");

      const profile = await exports.default.fetch(`${BASE}/account/profile`, { headers: { cookie }, redirect: "manual" });
      expect(profile.status, value).toBe(302);
      expect(profile.headers.get("location")).toMatch(/^\/account\/login\?/);
      await profile.arrayBuffer();
    }
  });
});
