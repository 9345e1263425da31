import { exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { sessions, users } from "~/.server/db/schema";
import "../../workers/api";
import { routeTable } from "../../workers/api/registry";
import { BASE, Client, db, newUser, PASSWORD, unique } from "./helpers";
import { createGame, type ErrorBody, newAdmin, userIdOf } from "./game-helpers";
import { waitForMailLink } from "../support/mail-reader";

// Sessions and requests: CSRF, session fixation, cookie flags, revocation, rate limits under a burst.
// Agent signatures (forged, expired, replayed) are covered by app/core/agent-protocol.test.ts,
// container-agent/test/containers.test.ts ("request signatures"), container-agent/test/proxy.test.ts
// and tests/integration/containers.test.ts ("agent callbacks"); the constant-time flag comparison by
// tests/security/flag-compare.test.ts.


/** A concrete path for a route pattern (CSRF is refused before any lookup, so the values do not matter). */
const concrete = (path: string) =>
  `/api${path.replace(/:hash/gi, "a".repeat(64)).replace(/:[A-Za-z]+(\{[^}]*\})?/g, "1")}`;

async function crossSiteTitle(): Promise<string> {
  const r = await new Client().json<ErrorBody>("/api/account/login", { method: "POST", body: {}, headers: { origin: "https://evil.example" } });
  return r.body.title;
}

describe("cross-site request forgery", () => {
  it("every unsafe API route refuses a foreign Origin and cross-site / same-site fetch metadata", { timeout: 60_000 }, async () => {
    const unsafe = routeTable.filter((r) => r.method !== "GET");
    expect(unsafe.length).toBeGreaterThan(50);
    const { client } = await newAdmin();
    const title = await crossSiteTitle();
    expect(title).toBeTruthy();
    const attacks: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: "not a url" },
      { origin: "http://flagstaff.test.evil.example" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { "sec-fetch-site": "cross-site", origin: BASE },
    ];
    for (const route of unsafe) {
      for (const headers of attacks) {
        const r = await client.json<ErrorBody>(concrete(route.path), { method: route.method, body: {}, headers });
        expect(r.status, `${route.method} ${route.path} ${JSON.stringify(headers)}`).toBe(403);
        expect(r.body).toEqual({ title, status: 403 });
      }
    }
    // The admin is still signed in and nothing was done in its name.
    expect((await client.json("/api/account/profile")).status).toBe(200);
  });

  it("same-origin requests pass: matching Origin, same-origin and user-initiated fetch metadata", { timeout: 60_000 }, async () => {
    const { userName } = await newUser();
    const sameOrigin: Record<string, string>[] = [{ origin: BASE }, { "sec-fetch-site": "same-origin" }, { "sec-fetch-site": "none" }, {}];
    for (const headers of sameOrigin) {
      const c = new Client();
      const r = await c.json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD }, headers });
      expect(r.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it("WebSocket hubs refuse a foreign Origin (cross-site WebSocket hijacking)", { timeout: 60_000 }, async () => {
    const { client } = await newAdmin();
    const game = await createGame(client);
    for (const path of ["/hub/admin", `/hub/game/${game.id}`, `/hub/game/${game.id}/monitor`]) {
      const foreign = await client.fetch(path, { headers: { upgrade: "websocket", origin: "https://evil.example" } });
      expect(foreign.status, path).toBe(403);
      await foreign.arrayBuffer();
      const own = await client.fetch(path, { headers: { upgrade: "websocket", origin: BASE } });
      expect(own.status, path).toBe(101);
      own.webSocket?.accept();
      own.webSocket?.close();
    }
  });
});

describe("session fixation and cookie flags", () => {
  it("a cookie set before login is never the one after; every login issues a fresh id", { timeout: 60_000 }, async () => {
    const { userName } = await newUser();
    const planted = "attacker-chosen-session-id-0123456789";
    const victim = new Client();
    victim.cookie = `flagstaff_session=${planted}`;
    expect((await victim.json("/api/account/profile")).status).toBe(401);
    const login = await victim.json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } });
    expect(login.status).toBe(200);
    expect(victim.cookie).not.toContain(planted);
    const attacker = new Client();
    attacker.cookie = `flagstaff_session=${planted}`;
    expect((await attacker.json("/api/account/profile")).status).toBe(401);

    // An attacker who plants his own valid session stays himself after the victim signs in.
    const mallory = await newUser();
    const malloryCookie = mallory.client.cookie!;
    const target = new Client();
    target.cookie = malloryCookie;
    expect((await target.json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } })).status).toBe(200);
    expect(target.cookie).not.toBe(malloryCookie);
    const asMallory = new Client();
    asMallory.cookie = malloryCookie;
    expect((await asMallory.json<{ userName: string }>("/api/account/profile")).body.userName).toBe(mallory.userName);

    // Two logins: two different ids.
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const c = new Client();
      await c.json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } });
      ids.add(c.cookie!);
    }
    expect(ids.size).toBe(3);
  });

  it("session cookies are HttpOnly, SameSite=Lax, Path=/, and Secure behind TLS", { timeout: 60_000 }, async () => {
    const { userName } = await newUser();
    for (const [url, headers, secure] of [
      [`${BASE}/api/account/login`, {}, false],
      ["https://flagstaff.test/api/account/login", {}, true],
      [`${BASE}/api/account/login`, { "x-forwarded-proto": "https" }, true],
    ] as const) {
      const res = await exports.default.fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ userName, password: PASSWORD }),
      });
      expect(res.status).toBe(200);
      const cookie = res.headers.get("set-cookie") ?? "";
      expect(cookie).toMatch(/^flagstaff_session=[A-Za-z0-9_-]{40,};/);
      expect(cookie).toContain("HttpOnly");
      expect(cookie).toContain("SameSite=Lax");
      expect(cookie).toContain("Path=/");
      expect(cookie.includes("Secure"), url).toBe(secure);
      // HSTS only behind TLS.
      expect(res.headers.get("strict-transport-security") !== null, url).toBe(secure);
      await res.arrayBuffer();
    }
    // Logout clears the cookie with the same flags.
    const c = new Client();
    await c.json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } });
    const out = await exports.default.fetch(`${BASE}/api/account/logout`, { method: "POST", headers: { cookie: c.cookie! } });
    expect(out.headers.get("set-cookie")).toMatch(/^flagstaff_session=; .*Max-Age=0/);
    await out.arrayBuffer();
    const again = new Client();
    again.cookie = c.cookie;
    expect((await again.json("/api/account/profile")).status).toBe(401);
  });

  it("a sign-out whose session already ended answers 401 and still clears the cookie; other 401s leave it", { timeout: 60_000 }, async () => {
    const { userName } = await newUser();
    const signIn = async () => {
      const c = new Client();
      expect((await c.json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } })).status).toBe(200);
      return c.cookie!;
    };
    // Revoked: signed out through another copy of the cookie.
    const revoked = await signIn();
    expect((await exports.default.fetch(`${BASE}/api/account/logout`, { method: "POST", headers: { cookie: revoked } })).status).toBe(200);
    // Expired: never read before its expiry, so no isolate holds it.
    const expired = await signIn();
    const [user] = await db().select({ id: users.id }).from(users).where(eq(users.userName, userName)).all();
    await db().update(sessions).set({ expiresAt: Date.now() - 1000 }).where(eq(sessions.userId, user!.id));

    for (const cookie of [revoked, expired, "flagstaff_session=%", "flagstaff_session=%E0%A4%A", `flagstaff_session=${"x".repeat(43)}`]) {
      for (const [url, secure] of [
        [`${BASE}/api/account/logout`, false],
        ["https://flagstaff.test/api/account/logout", true],
      ] as const) {
        const out = await exports.default.fetch(url, { method: "POST", headers: { cookie } });
        expect(out.status, cookie).toBe(401);
        expect(await out.json()).toEqual({ title: "Please log in first", status: 401 });
        // The same cookie the real sign-out sends.
        expect(out.headers.get("set-cookie"), cookie).toBe(`flagstaff_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? "; Secure" : ""}`);
      }
      // Elsewhere a 401 leaves the cookie alone: answered late, it could clear one a sign-in has just set.
      const profile = await exports.default.fetch(`${BASE}/api/account/profile`, { headers: { cookie } });
      expect(profile.status, cookie).toBe(401);
      expect(profile.headers.get("set-cookie"), cookie).toBeNull();
      await profile.arrayBuffer();
    }
  });
});

/** The reset link received by the loopback SMTP server (tests/integration/mail-server.ts), once it came: recovery mails after its answer. */
async function resetLink(address: string): Promise<{ token: string; email: string }> {
  const url = await waitForMailLink(`http://127.0.0.1:${inject("mailboxPort")}`, address, "/account/reset");
  const m = /token=([^&]+)&email=(.+)$/.exec(url.search);
  if (!m) throw new Error(`no reset link for ${address}`);
  return { token: m[1]!, email: m[2]! };
}

/** Two signed-in sessions of one user, both warm in the isolate's session cache. */
async function twoSessions() {
  const { client, userName } = await newUser();
  const other = new Client();
  expect((await other.json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } })).status).toBe(200);
  for (const c of [client, other]) expect((await c.json("/api/account/profile")).status).toBe(200);
  return { client, other, userName };
}

describe("revocation is immediate (even with the in-isolate session cache warm)", () => {
  it("a password change signs out every other session", { timeout: 60_000 }, async () => {
    const { client, other } = await twoSessions();
    const r = await client.json("/api/account/changepassword", { method: "PUT", body: { old: PASSWORD, new: "Chang3dPw!" } });
    expect(r.status).toBe(200);
    expect((await other.json("/api/account/profile")).status).toBe(401);
    expect((await other.json("/api/team")).status).toBe(401);
  });

  it("a password reset from the mailed link signs out every session", { timeout: 60_000 }, async () => {
    const { client, other, userName } = await twoSessions();
    expect((await new Client().json("/api/account/recovery", { method: "POST", body: { email: `${userName}@example.com` } })).status).toBe(200);
    const link = await resetLink(`${userName}@example.com`);
    const r = await new Client().json("/api/account/passwordreset", { method: "POST", body: { email: link.email, rToken: link.token, password: "Rec0vered!" } });
    expect(r.status).toBe(200);
    for (const c of [client, other]) expect((await c.json("/api/account/profile")).status).toBe(401);
  });

  it("an admin password reset and a ban sign the user out at once; a banned user cannot sign in", { timeout: 60_000 }, async () => {
    const admin = await newAdmin();
    const first = await twoSessions();
    const id1 = await userIdOf(first.client);
    expect((await admin.client.json(`/api/admin/users/${id1}/password`, { method: "DELETE" })).status).toBe(200);
    for (const c of [first.client, first.other]) expect((await c.json("/api/account/profile")).status).toBe(401);

    const second = await twoSessions();
    const id2 = await userIdOf(second.client);
    expect((await admin.client.json(`/api/admin/users/${id2}`, { method: "PUT", body: { role: "Banned" } })).status).toBe(200);
    for (const c of [second.client, second.other]) {
      expect((await c.json("/api/account/profile")).status).toBe(401);
      expect((await c.json("/api/team", { method: "POST", body: { name: unique("t").slice(0, 20) } })).status).toBe(401);
    }
    const login = await new Client().json("/api/account/login", { method: "POST", body: { userName: second.userName, password: PASSWORD } });
    expect(login.status).toBeGreaterThanOrEqual(400);
    expect(login.res.headers.get("set-cookie")).toBeNull();

    // A demoted admin loses admin rights at once.
    const demoted = await newAdmin();
    expect((await demoted.client.json("/api/admin/users")).status).toBe(200);
    const demotedId = await userIdOf(demoted.client);
    expect((await admin.client.json(`/api/admin/users/${demotedId}`, { method: "PUT", body: { role: "User" } })).status).toBe(200);
    expect((await demoted.client.json("/api/admin/users")).status).toBe(403);
  });

  it("a role changed directly in D1 is seen before refusing (the cache only ever grants)", { timeout: 60_000 }, async () => {
    const { client, userName } = await newUser();
    expect((await client.json("/api/admin/users")).status).toBe(403);
    await db().update(users).set({ role: "Admin" }).where(eq(users.userName, userName));
    expect((await client.json("/api/admin/users")).status).toBe(200);
  });
});

/**
 * An address no other test uses (198.18.0.0/15, set aside for benchmarks): the limiters live in the isolate,
 * which the test files of a worker share, so an address another file used would have spent part of a bucket.
 */
const freshAddress = (second: 18 | 19) => `198.${second}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

describe("rate limits under a burst", () => {
  it("300 parallel requests from one non-loopback address: the global limit answers 429 after 150", { timeout: 60_000 }, async () => {
    const client = new Client({ ip: freshAddress(18) });
    const results = await Promise.all(Array.from({ length: 300 }, () => client.fetch("/api/config").then(async (r) => ({ status: r.status, retry: r.headers.get("retry-after"), body: await r.text() }))));
    const ok = results.filter((r) => r.status === 200).length;
    const limited = results.filter((r) => r.status === 429);
    expect(ok).toBe(150);
    expect(limited.length).toBe(150);
    for (const r of limited) {
      expect(Number(r.retry)).toBeGreaterThan(0);
      expect(JSON.parse(r.body)).toMatchObject({ status: 429, title: expect.any(String) });
    }
    // Another address is unaffected; loopback is exempt.
    expect((await new Client({ ip: "198.51.100.77" }).fetch("/api/config")).status).toBe(200);
    expect((await new Client({ ip: "127.0.0.1" }).fetch("/api/config")).status).toBe(200);
  });

  it("the sign-in bucket holds under a parallel password-guessing burst", { timeout: 60_000 }, async () => {
    const { userName } = await newUser();
    const ip = freshAddress(19);
    const attempts = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        new Client({ ip }).json("/api/account/login", { method: "POST", body: { userName, password: `Wrong${i}Pass!` } }),
      ),
    );
    const limited = attempts.filter((r) => r.status === 429).length;
    expect(limited).toBeGreaterThanOrEqual(20);
    expect(attempts.every((r) => r.status === 401 || r.status === 400 || r.status === 429)).toBe(true);
    // The account named is limited from any address too.
    const elsewhere = await new Client({ ip: "192.0.2.9" }).json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } });
    expect(elsewhere.status).toBe(429);
  });
});
