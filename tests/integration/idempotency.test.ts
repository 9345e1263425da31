import { env } from "cloudflare:workers";
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { games, gameNotices, idempotencyKeys, participations, teams } from "~/.server/db/schema";
import { claimIdempotencyKey } from "~/.server/services/idempotency";
import { IDEMPOTENCY_KEY_TTL_MS, IDEMPOTENCY_LOCK_MS } from "~/core/http/idempotency";
import type { GameInfo, GameNoticeInfo } from "~/core/schemas/game";
import type { TeamInfo } from "~/core/schemas/team";
import enErrors from "~/locales/en-US/errors.json";
import jaErrors from "~/locales/ja-JP/errors.json";
import zhErrors from "~/locales/zh-CN/errors.json";
import { createGame, type ErrorBody, join, newAdmin, teamWithMembers, userIdOf } from "./game-helpers";
import { Client, db, newUser, PASSWORD, unique } from "./helpers";

const key = () => `k-${crypto.randomUUID()}`;
const withKey = (k: string) => ({ "idempotency-key": k });

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

const noticesOf = async (admin: Client, gameId: number) => (await admin.json<GameNoticeInfo[]>(`/api/edit/games/${gameId}/notices`)).body;
const keyRows = (k: string) => db().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, k)).all();

describe("Idempotency-Key", () => {
  it("is stored in the table migration 0008 adds", async () => {
    const applied = await env.DB.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>();
    expect(applied.results.map((m) => m.name)).toContain("0008_idempotency_keys.sql");
  });

  it("replays a notice's post: the same body, Idempotent-Replayed, and one notice", async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    const k = key();
    const init = { method: "POST", body: { content: "Hint: look closer" }, headers: withKey(k) };
    const first = await admin.json<GameNoticeInfo>(`/api/edit/games/${game.id}/notices`, init);
    expect(first.status).toBe(200);
    expect(first.res.headers.get("idempotent-replayed")).toBeNull();
    const again = await admin.json<GameNoticeInfo>(`/api/edit/games/${game.id}/notices`, init);
    expect(again.status).toBe(200);
    expect(again.res.headers.get("idempotent-replayed")).toBe("true");
    expect(again.res.headers.get("content-type")).toContain("application/json");
    expect(again.body).toEqual(first.body);
    expect((await noticesOf(admin, game.id)).filter((n) => n.type === "Normal")).toEqual([first.body]);
    expect(await db().select().from(gameNotices).where(eq(gameNotices.gameId, game.id)).all()).toHaveLength(1);

    // Another key is another request: a second notice.
    const other = await admin.json(`/api/edit/games/${game.id}/notices`, { ...init, headers: withKey(key()) });
    expect(other.status).toBe(200);
    expect(await noticesOf(admin, game.id)).toHaveLength(2);
  });

  it("replays a game's creation: one game, one key pair", async () => {
    const { client: admin } = await newAdmin();
    const title = unique("idem");
    const now = Date.now();
    const init = { method: "POST", body: { title, start: now + 3_600_000, end: now + 7_200_000 }, headers: withKey(key()) };
    const first = await admin.json<GameInfo>("/api/edit/games", init);
    const again = await admin.json<GameInfo>("/api/edit/games", init);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.res.headers.get("idempotent-replayed")).toBe("true");
    expect(await db().select({ id: games.id }).from(games).where(eq(games.title, title)).all()).toEqual([{ id: first.body.id }]);
  });

  it("gives a team's creator and a game's joiner the first success again instead of a refusal", async () => {
    const { client } = await newUser();
    const teamInit = { method: "POST", body: { name: unique("t").slice(0, 20) }, headers: withKey(key()) };
    const created = await client.json<TeamInfo>("/api/team", teamInit);
    const again = await client.json<TeamInfo>("/api/team", teamInit);
    expect(created.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(created.body);
    // Without the key the same request is refused, as before: the user owns a team.
    expect((await client.json<ErrorBody>("/api/team", { method: "POST", body: teamInit.body })).status).toBe(400);

    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    const joinInit = { method: "POST", body: { teamId: created.body.id }, headers: withKey(key()) };
    const joined = await client.json<{ title: string }>(`/api/game/${game.id}`, joinInit);
    const rejoined = await client.json<{ title: string }>(`/api/game/${game.id}`, joinInit);
    expect(joined.status).toBe(200);
    expect(rejoined.status).toBe(200);
    expect(rejoined.body).toEqual(joined.body);
    expect(rejoined.res.headers.get("idempotent-replayed")).toBe("true");
    expect(await db().select().from(participations).where(eq(participations.gameId, game.id)).all()).toHaveLength(1);
    expect((await join(client, game.id, { teamId: created.body.id })).status).toBe(400);
  });

  it("knows a multipart form sent again under a new boundary for the same request", async () => {
    const { client: admin } = await newAdmin();
    const form = (text: string) => {
      const f = new FormData();
      f.append("files", new File([new TextEncoder().encode(text)], "notes.txt", { type: "text/plain" }));
      return f;
    };
    const content = `notes ${unique()}`;
    const k = key();
    const first = await admin.json<{ hash: string }[]>("/api/assets", { method: "POST", raw: form(content), headers: withKey(k) });
    expect(first.status).toBe(200);
    const again = await admin.json<{ hash: string }[]>("/api/assets", { method: "POST", raw: form(content), headers: withKey(k) });
    expect(again.status).toBe(200);
    expect(again.res.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    const other = await admin.json<ErrorBody>("/api/assets", { method: "POST", raw: form(`${content}!`), headers: withKey(k) });
    expect(other.status).toBe(422);
  });

  it("refuses the same key for another body or path with 422, and keeps the first answer", async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    const k = key();
    const path = `/api/edit/games/${game.id}/notices`;
    const first = await admin.json<GameNoticeInfo>(path, { method: "POST", body: { content: "one" }, headers: withKey(k) });
    expect(first.status).toBe(200);
    const otherBody = await admin.json<ErrorBody>(path, { method: "POST", body: { content: "two" }, headers: withKey(k) });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toEqual({ title: enErrors.idempotency.key_reused, status: 422 });
    const otherGame = await createGame(admin);
    const otherPath = await admin.json<ErrorBody>(`/api/edit/games/${otherGame.id}/notices`, { method: "POST", body: { content: "one" }, headers: withKey(k) });
    expect(otherPath.status).toBe(422);
    expect(await noticesOf(admin, game.id)).toEqual([first.body]);
    expect(await noticesOf(admin, otherGame.id)).toEqual([]);
    const same = await admin.json<GameNoticeInfo>(path, { method: "POST", body: { content: "one" }, headers: withKey(k) });
    expect(same.body).toEqual(first.body);
  });

  it("answers 409 while the first request under the key runs, and never runs again one whose claim outlived the lock time", async () => {
    const { client: admin } = await newAdmin();
    const adminId = await userIdOf(admin);
    const game = await createGame(admin);
    const path = `/api/edit/games/${game.id}/notices`;
    const body = { content: "running" };
    const k = key();
    const use = { userId: adminId, key: k, method: "POST", path, bodyHash: await sha256Hex(JSON.stringify(body)) };
    // The first request under the key, claimed and still running.
    expect((await claimIdempotencyKey(db(), Date.now(), use)).kind).toBe("claimed");
    const busy = await admin.json<ErrorBody>(path, { method: "POST", body, headers: withKey(k) });
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual({ title: enErrors.idempotency.in_progress, status: 409 });
    expect(busy.res.headers.get("retry-after")).toBe("1");
    expect(await noticesOf(admin, game.id)).toEqual([]);

    // A claim whose request never answered (the runtime died in it, maybe after its write): the retry is
    // told the outcome is unknown, in the caller's language, and nothing runs again — now or later.
    const lost = key();
    await claimIdempotencyKey(db(), Date.now() - IDEMPOTENCY_LOCK_MS - 1_000, { ...use, key: lost });
    for (const lang of ["en-US", "ja-JP"] as const) {
      const client = new Client({ lang });
      client.cookie = admin.cookie;
      const retried = await client.json<ErrorBody>(path, { method: "POST", body, headers: withKey(lost) });
      expect(retried.status).toBe(409);
      expect(retried.body.title).toBe(lang === "en-US" ? enErrors.idempotency.outcome_unknown : jaErrors.idempotency.outcome_unknown);
      expect(retried.res.headers.get("retry-after")).toBeNull();
    }
    expect(await noticesOf(admin, game.id)).toEqual([]);
    // A new key is a new request.
    expect((await admin.json<GameNoticeInfo>(path, { method: "POST", body, headers: withKey(key()) })).status).toBe(200);
    expect(await noticesOf(admin, game.id)).toHaveLength(1);
  });

  it("lets concurrent requests under one key create one team", async () => {
    const { client } = await newUser();
    const adminId = await userIdOf(client);
    const init = { method: "POST", body: { name: unique("c").slice(0, 20) }, headers: withKey(key()) };
    const answers = await Promise.all(Array.from({ length: 4 }, () => client.json<TeamInfo | ErrorBody>("/api/team", init)));
    const created = answers.filter((a) => a.status === 200);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const a of answers) {
      if (a.status === 200) expect(a.body).toEqual(created[0]!.body);
      else expect(a.body).toEqual({ title: enErrors.idempotency.in_progress, status: 409 });
    }
    expect(await db().select().from(teams).where(eq(teams.captainId, adminId)).all()).toHaveLength(1);
  });

  it("releases the key after a refusal: the retry runs again", async () => {
    const { captain, team } = await teamWithMembers();
    const k = key();
    const init = { method: "POST", body: { name: unique("n").slice(0, 20) }, headers: withKey(k) };
    const refused = await captain.client.json<ErrorBody>("/api/team", init);
    expect(refused.status).toBe(400);
    expect(refused.res.headers.get("idempotent-replayed")).toBeNull();
    expect(await keyRows(k)).toEqual([]);
    // The reason goes away; the same request under the same key now does what it asks.
    expect((await captain.client.fetch(`/api/team/${team.id}`, { method: "DELETE" })).status).toBe(200);
    const created = await captain.client.json<TeamInfo>("/api/team", init);
    expect(created.status).toBe(200);
    expect(created.res.headers.get("idempotent-replayed")).toBeNull();
    expect(created.body.name).toBe(init.body.name);
    expect(await keyRows(k)).toHaveLength(1);
  });

  it("keeps keys per user: another user's same key is a request of its own", async () => {
    const k = key();
    const a = await newUser();
    const b = await newUser();
    const ta = await a.client.json<TeamInfo>("/api/team", { method: "POST", body: { name: unique("a").slice(0, 20) }, headers: withKey(k) });
    const tb = await b.client.json<TeamInfo>("/api/team", { method: "POST", body: { name: unique("b").slice(0, 20) }, headers: withKey(k) });
    expect(ta.status).toBe(200);
    expect(tb.status).toBe(200);
    expect(tb.body.id).not.toBe(ta.body.id);
    expect(await keyRows(k)).toHaveLength(2);
  });

  it("ignores the header without a session (registration, sign-in) and stores nothing", async () => {
    const k = key();
    const anonymous = new Client();
    const userName = unique();
    const register = await anonymous.json<{ data: string }>("/api/account/register", {
      method: "POST",
      body: { userName, password: PASSWORD, email: `${userName}@example.com` },
      headers: withKey(k),
    });
    expect(register.status).toBe(200);
    expect(register.res.headers.get("set-cookie")).toContain("flagstaff_session=");
    const second = new Client();
    const login = await second.json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD }, headers: withKey(k) });
    expect(login.status).toBe(200);
    expect(login.res.headers.get("idempotent-replayed")).toBeNull();
    // Even an invalid key is no concern of a request without a session.
    const third = new Client();
    expect((await third.json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD }, headers: withKey("bad key") })).status).toBe(200);
    expect(await keyRows(k)).toEqual([]);
  });

  it("refuses an invalid key with a localised 400 and does nothing", async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    const path = `/api/edit/games/${game.id}/notices`;
    for (const [lang, title] of [
      ["en-US", enErrors.idempotency.key_invalid],
      ["ja-JP", jaErrors.idempotency.key_invalid],
      ["zh-CN", zhErrors.idempotency.key_invalid],
    ] as const) {
      for (const bad of ["short", "x".repeat(65), "with space in it!!", "dots.are.not.allowed"]) {
        const r = await admin.json<ErrorBody>(path, { method: "POST", body: { content: "x" }, headers: { ...withKey(bad), "accept-language": lang } });
        expect(r.status, `${lang} ${bad}`).toBe(400);
        expect(r.body).toEqual({ title, status: 400 });
      }
    }
    expect(jaErrors.idempotency.key_invalid).not.toBe(enErrors.idempotency.key_invalid);
    expect(await noticesOf(admin, game.id)).toEqual([]);
  });

  it("forgets a key after 24 hours and sweeps expired keys on a claim", async () => {
    const { client: admin } = await newAdmin();
    const adminId = await userIdOf(admin);
    const game = await createGame(admin);
    const path = `/api/edit/games/${game.id}/notices`;
    const body = { content: "again tomorrow" };
    const k = key();
    const stale = `stale-${crypto.randomUUID()}`;
    const old = Date.now() - IDEMPOTENCY_KEY_TTL_MS - 60_000;
    const bodyHash = await sha256Hex(JSON.stringify(body));
    await db()
      .insert(idempotencyKeys)
      .values([
        { userId: adminId, key: k, method: "POST", path, bodyHash, createdAt: old, status: 200, body: '{"id":-1}', contentType: "application/json" },
        { userId: adminId, key: stale, method: "POST", path: "/api/team", bodyHash, createdAt: old, status: 200, body: "{}", contentType: "application/json" },
      ])
      .run();
    const r = await admin.json<GameNoticeInfo>(path, { method: "POST", body, headers: withKey(k) });
    expect(r.status).toBe(200);
    expect(r.res.headers.get("idempotent-replayed")).toBeNull();
    expect(r.body.id).toBeGreaterThan(0);
    expect(await noticesOf(admin, game.id)).toHaveLength(1);
    const [row] = await keyRows(k);
    expect(row!.createdAt).toBeGreaterThan(old);
    expect(await db().select().from(idempotencyKeys).where(and(eq(idempotencyKeys.userId, adminId), like(idempotencyKeys.key, "stale-%"))).all()).toEqual([]);
  });
});
