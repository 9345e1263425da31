import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { challenges, divisionChallengeConfigs, divisions, files, games, users } from "~/.server/db/schema";
import { deleteNotice } from "~/.server/services/notices";
import { DEFAULT_BLOOD_BONUS } from "~/core/game/blood-bonus";
import type { BasicGameInfo, DetailedGameInfo, DivisionInput, GameInfo, GameNoticeInfo } from "~/core/schemas/game";
import type { ArrayResponse } from "~/core/schemas/team";
import { createGame, createTeam, type ErrorBody, HOUR, join, newAdmin, teamWithMembers, updateGame } from "./game-helpers";
import { Client, db, newUser } from "./helpers";

async function sha256Hex(text: string) {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89]);

describe("admin games", () => {
  it("only lets admins edit games", async () => {
    const { client } = await newUser();
    expect((await client.json("/api/edit/games")).status).toBe(403);
    expect((await new Client().json("/api/edit/games", { method: "POST", body: {} })).status).toBe(401);
  });

  it("requires title and time and a start before the end", async () => {
    const { client } = await newAdmin();
    const now = Date.now();
    for (const body of [{}, { title: "x", start: now }, { title: "  ", start: now, end: now + HOUR }, { start: now, end: now + 1 }]) {
      const r = await client.json<ErrorBody>("/api/edit/games", { method: "POST", body });
      expect(r.status).toBe(400);
      expect(r.body.title).toBe("Please enter a title and the start and end times");
    }
    const zh = new Client({ lang: "zh-CN" });
    zh.cookie = client.cookie;
    expect((await zh.json<ErrorBody>("/api/edit/games", { method: "POST", body: {} })).body.title).toBe("请输入标题和时间");
    const same = await client.json<ErrorBody>("/api/edit/games", { method: "POST", body: { title: "x", start: now, end: now } });
    expect(same.status).toBe(400);
    expect(same.body.title).toMatch(/after the start/);
    const bad = await client.json<ErrorBody>("/api/edit/games", { method: "POST", body: { title: "x", start: "not a date", end: now } });
    expect(bad.status).toBe(400);
    expect(bad.body.title).toMatch(/valid time/);
    expect((await client.json("/api/edit/games", { method: "POST", body: { title: "x".repeat(65), start: now, end: now + 1 } })).status).toBe(400);
  });

  it("creates a game with defaults, a key pair and its salt; accepts ISO times", async () => {
    const { client } = await newAdmin();
    const r = await client.json<GameInfo>("/api/edit/games", {
      method: "POST",
      body: { title: "ISO game", start: "2030-01-01T00:00:00Z", end: "2030-01-02T00:00:00.000Z", divisions: [{ name: "Students", inviteCode: "stu" }] },
    });
    expect(r.status).toBe(200);
    const g = r.body;
    expect(g).toMatchObject({
      title: "ISO game",
      start: Date.parse("2030-01-01T00:00:00Z"),
      end: Date.parse("2030-01-02T00:00:00Z"),
      writeupDeadline: Date.parse("2030-01-02T00:00:00Z"),
      practiceMode: true,
      hidden: false,
      acceptWithoutReview: false,
      containerCountLimit: 3,
      teamMemberCountLimit: 0,
      bloodBonus: DEFAULT_BLOOD_BONUS,
      inviteCode: "",
      poster: null,
    });
    expect(g.divisions).toEqual([{ id: expect.any(Number), name: "Students", inviteCode: "stu", defaultPermissions: 2147483647, challengeConfigs: [] }]);
    expect(atob(g.publicKey)).toHaveLength(32);
    expect(JSON.stringify(g)).not.toMatch(/privateKey/);
    const row = await db().select().from(games).where(eq(games.id, g.id)).get();
    expect(g.teamHashSalt).toBe(await sha256Hex(`Flagstaff@${row!.privateKey}@PK`));
    expect((await client.json<GameInfo>(`/api/edit/games/${g.id}`)).body).toEqual(g);
    expect((await client.json(`/api/edit/games/999999999`)).status).toBe(404);
    expect((await client.json(`/api/edit/games/abc`)).status).toBe(404);
  });

  it("lists games newest start first, hidden included, paged", async () => {
    const { client } = await newAdmin();
    const base = Date.UTC(2040, 0, 1) + Math.floor(Math.random() * 1e9);
    const a = await createGame(client, { start: base, end: base + HOUR });
    const b = await createGame(client, { start: base + 2 * HOUR, end: base + 3 * HOUR, hidden: true });
    const list = await client.json<ArrayResponse<GameInfo>>("/api/edit/games?count=100");
    const ids = list.body.data.map((g) => g.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect(list.body.total).toBeGreaterThanOrEqual(2);
    const one = await client.json<ArrayResponse<GameInfo>>("/api/edit/games?count=1&skip=0");
    expect(one.body.length).toBe(1);
    expect((await client.json("/api/edit/games?count=101")).status).toBe(400);
  });

  it("updates partially, packs the blood bonus and keeps the writeup deadline after the end", async () => {
    const { client } = await newAdmin();
    const g = await createGame(client, { summary: "s" });
    const r = await updateGame(client, g.id, { title: "Renamed", bloodBonus: 100 * 2 ** 20 + 50 * 2 ** 10 + 20, practiceMode: false });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: "Renamed", summary: "s", practiceMode: false, bloodBonus: 100 * 2 ** 20 + 50 * 2 ** 10 + 20 });
    expect(r.body.publicKey).toBe(g.publicKey);
    expect((await updateGame(client, g.id, { bloodBonus: 1001 })).body.bloodBonus).toBe(DEFAULT_BLOOD_BONUS);
    expect((await updateGame(client, g.id, { end: g.start })).status).toBe(400);
    expect((await updateGame(client, g.id, { writeupDeadline: g.end - 1 })).status).toBe(400);
    const later = await updateGame(client, g.id, { writeupDeadline: g.end + 48 * HOUR, writeupNote: "PDF please" });
    expect(later.body).toMatchObject({ writeupDeadline: g.end + 48 * HOUR, writeupNote: "PDF please" });
    const moved = await updateGame(client, g.id, { end: g.end + 72 * HOUR });
    expect(moved.body.writeupDeadline).toBe(g.end + 72 * HOUR);
    expect((await updateGame(client, 999999999, { title: "x" })).status).toBe(404);
  });

  it("edits divisions as a full list and refuses deleting one with participations", async () => {
    const { client } = await newAdmin();
    const g = await createGame(client, { divisions: [{ name: "A" }, { name: "B", inviteCode: "bee" }] });
    const [a, b] = g.divisions;
    const r = await updateGame(client, g.id, {
      divisions: [{ id: a!.id, name: "B", defaultPermissions: 1 }, { id: b!.id, name: "A" }, { name: "C" }],
    });
    expect(r.status).toBe(200);
    expect(r.body.divisions.map((d) => [d.id === a!.id ? "a" : d.id === b!.id ? "b" : "new", d.name, d.defaultPermissions])).toEqual([
      ["a", "B", 1],
      ["b", "A", 2147483647],
      ["new", "C", 2147483647],
    ]);
    expect(r.body.divisions[1]!.inviteCode).toBe("bee");
    expect((await updateGame(client, g.id, { divisions: [{ name: "X" }, { name: "X" }] })).status).toBe(400);
    expect((await updateGame(client, g.id, { divisions: [{ id: 999999999, name: "Z" }] })).status).toBe(400);
    expect((await updateGame(client, g.id, { divisions: [{ name: "" }] })).status).toBe(400);
    expect((await updateGame(client, g.id, { divisions: [{ name: "x".repeat(32) }] })).status).toBe(400);
    // A team in division C: C cannot be removed, the others can.
    const c = r.body.divisions[2]!;
    const { captain, team } = await teamWithMembers();
    expect((await join(captain.client, g.id, { teamId: team.id, divisionId: c.id })).status).toBe(200);
    const refused = await updateGame(client, g.id, { divisions: [{ id: a!.id, name: "B" }] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ title: expect.stringMatching(/still has teams/) });
    const kept = await updateGame(client, g.id, { divisions: [{ id: c.id, name: "C" }] });
    expect(kept.status).toBe(200);
    expect(kept.body.divisions.map((d) => d.name)).toEqual(["C"]);
  });

  it("uploads a poster image and refuses other files", async () => {
    const { client } = await newAdmin();
    const g = await createGame(client);
    const form = new FormData();
    form.append("file", new Blob([PNG], { type: "image/png" }), "p.png");
    const r = await client.json<string>(`/api/edit/games/${g.id}/poster`, { method: "PUT", raw: form });
    expect(r.status).toBe(200);
    expect(r.body).toMatch(/^\/assets\/[0-9a-f]{64}\/poster$/);
    expect((await client.fetch(r.body)).status).toBe(200);
    const bad = new FormData();
    bad.append("file", new Blob(["hello"], { type: "image/png" }), "p.png");
    const refused = await client.json<ErrorBody>(`/api/edit/games/${g.id}/poster`, { method: "PUT", raw: bad });
    expect(refused.status).toBe(400);
    expect(refused.body.title).toBe("Please check file format and size");
    expect((await client.json<GameInfo>(`/api/edit/games/${g.id}`)).body.poster).toBe(r.body);

    // Removed: no poster, and the file loses the game's reference. Players may not; removing none is fine.
    const hash = r.body.split("/")[2]!;
    const references = async () => (await db().select().from(files).where(eq(files.hash, hash)).get())?.referenceCount ?? 0;
    const before = await references();
    const { client: player } = await newUser();
    expect((await player.json(`/api/edit/games/${g.id}/poster`, { method: "DELETE" })).status).toBe(403);
    const zh = new Client({ lang: "zh-CN" });
    zh.cookie = client.cookie;
    expect((await zh.json<ErrorBody>(`/api/edit/games/${g.id}/poster`, { method: "DELETE" })).body).toEqual({ title: "海报已删除", status: 200 });
    expect((await client.json<GameInfo>(`/api/edit/games/${g.id}`)).body.poster).toBeNull();
    expect(await references()).toBe(before - 1);
    expect((await client.json(`/api/edit/games/${g.id}/poster`, { method: "DELETE" })).status).toBe(200);
    expect(await references()).toBe(before - 1);
    expect((await client.json(`/api/edit/games/${g.id + 100_000}/poster`, { method: "DELETE" })).status).toBe(404);
  });

  it("deletes a game with everything in it", async () => {
    const { client } = await newAdmin();
    const g = await createGame(client, { acceptWithoutReview: true });
    const { captain, team } = await teamWithMembers();
    expect((await join(captain.client, g.id, { teamId: team.id })).status).toBe(200);
    await client.json(`/api/edit/games/${g.id}/notices`, { method: "POST", body: { content: "hi" } });
    expect((await client.json(`/api/edit/games/${g.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await client.json(`/api/edit/games/${g.id}`)).status).toBe(404);
    expect((await client.json(`/api/game/${g.id}`)).status).toBe(404);
    expect((await client.json(`/api/edit/games/${g.id}`, { method: "DELETE" })).status).toBe(404);
  });
});

describe("player game views", () => {
  it("lists public games only, newest start first, with count 0–50", async () => {
    const { client: admin } = await newAdmin();
    const base = Date.UTC(2045, 0, 1) + Math.floor(Math.random() * 1e9);
    const visible = await createGame(admin, { start: base, end: base + HOUR, summary: "sum" });
    const newer = await createGame(admin, { start: base + HOUR, end: base + 2 * HOUR });
    const hidden = await createGame(admin, { start: base + 2 * HOUR, end: base + 3 * HOUR, hidden: true });
    const anon = new Client();
    const r = await anon.json<ArrayResponse<BasicGameInfo>>("/api/game?count=50");
    expect(r.status).toBe(200);
    const ids = r.body.data.map((g) => g.id);
    expect(ids).not.toContain(hidden.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(visible.id));
    expect(r.body.data.find((g) => g.id === visible.id)).toEqual({
      id: visible.id, title: visible.title, summary: "sum", poster: null, limit: 0, start: base, end: base + HOUR,
    });
    expect((await anon.json<ArrayResponse<BasicGameInfo>>("/api/game")).body.length).toBeLessThanOrEqual(10);
    expect((await anon.json("/api/game?count=51")).status).toBe(400);
    expect((await anon.json("/api/game?count=-1")).status).toBe(400);
  });

  it("answers the game list from the Query bucket with 429 when exhausted", async () => {
    const anon = new Client({ ip: `203.0.113.${Math.floor(Math.random() * 200) + 1}` });
    let limited: Response | null = null;
    for (let i = 0; i < 130 && !limited; i++) {
      const res = await anon.fetch("/api/game?count=0");
      if (res.status === 429) limited = res;
    }
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("shows details, hidden games by id, and the caller's status", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin, { hidden: true, content: "# Rules", inviteCode: "open", divisions: [{ name: "Pro", inviteCode: "" }, { name: "Closed", defaultPermissions: 0 }] });
    const anon = new Client();
    const r = await anon.json<DetailedGameInfo>(`/api/game/${g.id}`);
    expect(r.status).toBe(200);
    expect(r.res.headers.get("etag")).toBeTruthy();
    expect(r.res.headers.get("cache-control")).toContain("private");
    expect(r.body).toMatchObject({
      id: g.id, content: "# Rules", hidden: true, inviteCodeRequired: true, status: "Unsubmitted", teamName: null, division: null, teamCount: 0, practiceMode: true,
    });
    expect(r.body.divisions).toEqual([
      { id: g.divisions[0]!.id, name: "Pro", inviteCodeRequired: true, joinable: true },
      { id: g.divisions[1]!.id, name: "Closed", inviteCodeRequired: true, joinable: false },
    ]);
    const again = await anon.fetch(`/api/game/${g.id}`, { headers: { "if-none-match": r.res.headers.get("etag")! } });
    expect(again.status).toBe(304);
    const { captain, team } = await teamWithMembers();
    expect((await join(captain.client, g.id, { teamId: team.id, divisionId: g.divisions[0]!.id, inviteCode: "open" })).status).toBe(200);
    const mine = await captain.client.json<DetailedGameInfo>(`/api/game/${g.id}`);
    expect(mine.body).toMatchObject({ status: "Pending", teamName: team.name, division: g.divisions[0]!.id, teamCount: 0 });
    expect((await anon.json(`/api/game/999999999`)).status).toBe(404);
  });
});

describe("monitor pages", () => {
  it("answer a 404 page for a game that does not exist, after the role check", async () => {
    const monitor = await newUser();
    await db().update(users).set({ role: "Monitor" }).where(eq(users.userName, monitor.userName));
    const game = await createGame(await newAdmin().then((a) => a.client));
    for (const page of ["traffic", "events", "submissions", "cheatinfo"]) {
      for (const id of ["999999999", "abc", "0"]) {
        const r = await monitor.client.fetch(`/games/${id}/monitor/${page}`);
        expect(r.status, `${id}/${page}`).toBe(404);
        await r.arrayBuffer();
      }
      const known = await monitor.client.fetch(`/games/${game.id}/monitor/${page}`);
      expect(known.status, page).toBe(200);
      await known.arrayBuffer();
      // A player is refused before anything about the game is told.
      const player = await (await newUser()).client.fetch(`/games/999999999/monitor/${page}`);
      expect(player.status, page).toBe(403);
      await player.arrayBuffer();
    }
  });
});

describe("game page ids", () => {
  it("are read as the API reads path ids: another spelling of an id is a 404 page, not that game", async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    const id = game.id;
    const fetchStatus = async (path: string) => {
      const r = await admin.fetch(path);
      await r.arrayBuffer();
      return r.status;
    };
    const challenge = await admin.json<{ id: number }>(`/api/edit/games/${id}/challenges`, { method: "POST", body: { title: "Spelt", category: "Misc", type: "StaticAttachment" } });
    expect(challenge.status).toBe(200);
    const cid = challenge.body.id;
    expect(await fetchStatus(`/games/${id}`)).toBe(200);
    expect(await fetchStatus(`/games/${id}/monitor/events`)).toBe(200);
    expect(await fetchStatus(`/games/${id}/challenges`)).toBe(200);
    expect(await fetchStatus(`/admin/games/${id}/challenges/${cid}`)).toBe(200);
    expect(await fetchStatus(`/admin/games/${id}/challenges/0${cid}`)).toBe(404);
    for (const raw of [`0${id}`, `00${id}`, `0x${id.toString(16)}`, `0b${id.toString(2)}`, `0o${id.toString(8)}`, `+${id}`, `%20${id}`, `${id}%20`, `${id}.0`, `${id}e0`]) {
      expect(await fetchStatus(`/games/${raw}`), `/games/${raw}`).toBe(404);
      expect(await fetchStatus(`/games/${raw}/monitor/events`), `/games/${raw}/monitor/events`).toBe(404);
      expect(await fetchStatus(`/games/${raw}/challenges`), `/games/${raw}/challenges`).toBe(404);
      expect(await fetchStatus(`/admin/games/${raw}/info`), `/admin/games/${raw}/info`).toBe(404);
      // The API's rule is the same one.
      expect((await admin.json(`/api/game/${raw}`)).status, `/api/game/${raw}`).toBe(404);
    }
    // Also for teams.
    const team = await createTeam(admin);
    expect((await admin.json(`/api/team/${team.id}`)).status).toBe(200);
    expect((await admin.json(`/api/team/0${team.id}`)).status).toBe(404);
    expect((await admin.json(`/api/admin/teams/0${team.id}`, { method: "PUT", body: { locked: true } })).status).toBe(404);
  });
});

describe("notices", () => {
  it("lets admins create, edit and delete Normal notices and refuses empty content", async () => {
    const { client } = await newAdmin();
    const g = await createGame(client);
    const empty = await client.json<ErrorBody>(`/api/edit/games/${g.id}/notices`, { method: "POST", body: { content: "   " } });
    expect(empty.status).toBe(400);
    expect(empty.body.title).toBe("Content can't be empty");
    const r = await client.json<GameNoticeInfo>(`/api/edit/games/${g.id}/notices`, { method: "POST", body: { content: " Hello " } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ type: "Normal", values: ["Hello"], time: expect.any(Number) });
    const edited = await client.json<GameNoticeInfo>(`/api/edit/games/${g.id}/notices/${r.body.id}`, { method: "PUT", body: { content: "Bye" } });
    expect(edited.body).toMatchObject({ id: r.body.id, values: ["Bye"] });
    expect((await client.json(`/api/edit/games/${g.id}/notices/${r.body.id}`, { method: "PUT", body: { content: "" } })).status).toBe(400);
    const other = await createGame(client);
    expect((await client.json(`/api/edit/games/${other.id}/notices/${r.body.id}`, { method: "PUT", body: { content: "x" } })).status).toBe(404);
    expect((await client.json(`/api/edit/games/${g.id}/notices/${r.body.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await client.json(`/api/edit/games/${g.id}/notices/${r.body.id}`, { method: "DELETE" })).status).toBe(404);
    // Two deletes at once: one deletes, the other is told the notice is gone.
    const twice = await client.json<GameNoticeInfo>(`/api/edit/games/${g.id}/notices`, { method: "POST", body: { content: "Twice" } });
    const announced: number[] = [];
    const deps = { db: db(), publishDeleted: async (_game: number, id: number) => void announced.push(id) };
    const both = await Promise.allSettled([1, 2].map(() => deleteNotice(deps, g.id, twice.body.id)));
    expect(both.map((d) => d.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(announced).toEqual([twice.body.id]);
    expect((await client.json(`/api/edit/games/999999999/notices`, { method: "POST", body: { content: "x" } })).status).toBe(404);
  });

  it("refuses editing or deleting non-Normal notices", async () => {
    const { client } = await newAdmin();
    const g = await createGame(client);
    const { gameNotices } = await import("~/.server/db/schema");
    const blood = await db().insert(gameNotices).values({ gameId: g.id, type: "FirstBlood", values: ["t", "c"], publishTime: Date.now() }).returning().get();
    const put = await client.json<ErrorBody>(`/api/edit/games/${g.id}/notices/${blood.id}`, { method: "PUT", body: { content: "x" } });
    expect(put.status).toBe(400);
    expect(put.body.title).toMatch(/Only normal notices/);
    expect((await client.json(`/api/edit/games/${g.id}/notices/${blood.id}`, { method: "DELETE" })).status).toBe(400);
  });

  it("lists Normal notices first, each group newest first, with ETag/304", async () => {
    const { client } = await newAdmin();
    const g = await createGame(client);
    const { gameNotices } = await import("~/.server/db/schema");
    const t0 = Date.now() - 10_000;
    await db().insert(gameNotices).values([
      { gameId: g.id, type: "Normal", values: ["old normal"], publishTime: t0 },
      { gameId: g.id, type: "FirstBlood", values: ["T", "C1"], publishTime: t0 + 1000 },
      { gameId: g.id, type: "NewChallenge", values: ["C2"], publishTime: t0 + 3000 },
      { gameId: g.id, type: "Normal", values: ["new normal"], publishTime: t0 + 2000 },
    ]);
    const anon = new Client();
    const r = await anon.json<GameNoticeInfo[]>(`/api/game/${g.id}/notices`);
    expect(r.status).toBe(200);
    expect(r.body.map((n) => n.values[0])).toEqual(["new normal", "old normal", "C2", "T"]);
    const etag = r.res.headers.get("etag")!;
    expect(etag).toMatch(/^W\//);
    expect((await anon.fetch(`/api/game/${g.id}/notices`, { headers: { "if-none-match": etag } })).status).toBe(304);
    await client.json(`/api/edit/games/${g.id}/notices`, { method: "POST", body: { content: "newest" } });
    const changed = await anon.fetch(`/api/game/${g.id}/notices`, { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(((await changed.json()) as GameNoticeInfo[])[0]!.values).toEqual(["newest"]);
    expect((await anon.json<GameNoticeInfo[]>(`/api/game/${g.id}/notices?count=1&skip=1`)).body.map((n) => n.values[0])).toEqual(["new normal"]);
    expect((await anon.json(`/api/game/${g.id}/notices?skip=301`)).status).toBe(400);
    const all = await client.json<GameNoticeInfo[]>(`/api/edit/games/${g.id}/notices`);
    expect(all.body.map((n) => n.values[0])).toEqual(["newest", "C2", "new normal", "T", "old normal"]);
  });

  it("answers 10001 before the start and keeps notices readable after the end", async () => {
    const { client } = await newAdmin();
    const future = await createGame(client, { start: Date.now() + HOUR, end: Date.now() + 2 * HOUR });
    const r = await new Client().json<ErrorBody>(`/api/game/${future.id}/notices`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ title: "The game has not started yet", status: 10001 });
    const past = await createGame(client, { start: Date.now() - 2 * HOUR, end: Date.now() - HOUR, practiceMode: false });
    expect((await new Client().json(`/api/game/${past.id}/notices`)).status).toBe(200);
  });

  it("shows a hidden game's notices only to monitors, admins and its players", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin, { hidden: true, acceptWithoutReview: true });
    expect((await new Client().json(`/api/game/${g.id}/notices`)).status).toBe(401);
    const { client: stranger } = await newUser();
    expect((await stranger.json(`/api/game/${g.id}/notices`)).status).toBe(403);
    expect((await admin.json(`/api/game/${g.id}/notices`)).status).toBe(200);
    const { captain, team } = await teamWithMembers();
    expect((await join(captain.client, g.id, { teamId: team.id })).status).toBe(200);
    expect((await captain.client.json(`/api/game/${g.id}/notices`)).status).toBe(200);
    expect((await new Client().json(`/api/game/999999999/notices`)).status).toBe(404);
  });
});

describe("game keys", () => {
  it("makes a distinct key pair per game", async () => {
    const { client } = await newAdmin();
    const a = await createGame(client);
    const b = await createGame(client);
    expect(a.publicKey).not.toBe(b.publicKey);
    expect(a.teamHashSalt).toMatch(/^[0-9a-f]{64}$/);
    expect(a.teamHashSalt).not.toBe(b.teamHashSalt);
  });
});

describe("division lists against D1's 100 bound parameters", () => {
  const named = (n: number, prefix = "D") => Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}` }));

  it("creates a game with 26 divisions (more than 100 parameters in one row insert)", async () => {
    const { client } = await newAdmin();
    const title = `g26-${crypto.randomUUID().slice(0, 8)}`;
    const now = Date.now();
    const r = await client.json<GameInfo>("/api/edit/games", { method: "POST", body: { title, start: now, end: now + HOUR, divisions: named(26) } });
    expect(r.status).toBe(200);
    expect(r.body.divisions.map((d) => d.name)).toEqual(named(26).map((d) => d.name));
    expect(await db().select().from(games).where(eq(games.title, title)).all()).toHaveLength(1);
  });

  it("round-trips 100 divisions with challenge configs, then removes them all", async () => {
    const { client } = await newAdmin();
    const g = await createGame(client, { divisions: named(100) });
    expect(g.divisions).toHaveLength(100);
    const ids = (
      await db()
        .insert(challenges)
        .values([1, 2, 3].map((i) => ({ gameId: g.id, title: `c${i}`, type: "StaticAttachment" as const })))
        .returning({ id: challenges.id })
    ).map((c) => c.id);
    const configs = (i: number) => ids.map((challengeId, k) => ({ challengeId, permissions: i * 10 + k }));
    // Half kept (renamed, new configs), half new with configs.
    const list: DivisionInput[] = [
      ...g.divisions.slice(0, 50).map((d, i) => ({ id: d.id, name: `K${i}`, defaultPermissions: i, challengeConfigs: configs(i) })),
      ...Array.from({ length: 50 }, (_, i) => ({ name: `N${i}`, inviteCode: `n${i}`, challengeConfigs: configs(50 + i) })),
    ];
    const r = await updateGame(client, g.id, { title: "renamed", divisions: list });
    expect(r.status).toBe(200);
    expect(r.body.title).toBe("renamed");
    expect(r.body.divisions.map((d) => [d.name, d.inviteCode, d.challengeConfigs])).toEqual(list.map((d) => [d.name, d.inviteCode ?? "", d.challengeConfigs]));
    expect(r.body.divisions.slice(0, 50).map((d) => d.defaultPermissions)).toEqual(list.slice(0, 50).map((d) => d.defaultPermissions));
    expect((await client.json<GameInfo>(`/api/edit/games/${g.id}`)).body).toEqual(r.body);

    const cleared = await updateGame(client, g.id, { divisions: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.body.divisions).toEqual([]);
    expect(await db().select().from(divisions).where(eq(divisions.gameId, g.id)).all()).toEqual([]);
  });

  it("refuses a challenge listed twice in one division with its own message, writing nothing", async () => {
    const { client } = await newAdmin();
    const g = await createGame(client, { divisions: [{ name: "A" }] });
    const [ch] = await db().insert(challenges).values({ gameId: g.id, title: "c", type: "StaticAttachment" }).returning();
    const twice = [
      { challengeId: ch!.id, permissions: 1 },
      { challengeId: ch!.id, permissions: 2 },
    ];
    for (const list of [[{ id: g.divisions[0]!.id, name: "A", challengeConfigs: twice }], [{ id: g.divisions[0]!.id, name: "A" }, { name: "B", challengeConfigs: twice }]]) {
      const r = await updateGame(client, g.id, { title: "changed", divisions: list });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ title: expect.stringMatching(/same challenge more than once/) });
    }
    const zh = new Client({ lang: "zh-CN" });
    zh.cookie = client.cookie;
    const r = await zh.json<ErrorBody>(`/api/edit/games/${g.id}`, { method: "PUT", body: { divisions: [{ name: "B", challengeConfigs: twice }] } });
    expect(r.body.title).toMatch(/重复的题目/);
    expect((await client.json<GameInfo>(`/api/edit/games/${g.id}`)).body).toEqual(g);
    expect(await db().select().from(divisionChallengeConfigs).where(eq(divisionChallengeConfigs.challengeId, ch!.id)).all()).toEqual([]);
  });
});

describe("OpenAPI", () => {
  it("documents the game and edit calls", async () => {
    const r = await new Client().json<{ paths: Record<string, Record<string, { requestBody?: unknown }>> }>("/api/openapi.json");
    expect(r.status).toBe(200);
    expect(r.body.paths["/api/edit/games"]?.post?.requestBody).toBeTruthy();
    expect(Object.keys(r.body.paths)).toEqual(
      expect.arrayContaining(["/api/game", "/api/game/{id}", "/api/game/{id}/notices", "/api/edit/games/{id}/notices/{nid}", "/api/admin/participation/{id}/{status}"]),
    );
  });
});
