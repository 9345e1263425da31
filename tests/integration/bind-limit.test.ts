import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { games, trafficCaptures } from "~/.server/db/schema";
import type { GameInfo, ParticipationInfo } from "~/core/schemas/game";
import type { ArrayResponse, TeamInfo } from "~/core/schemas/team";
import { createGame, newAdmin } from "./game-helpers";
import { db, unique } from "./helpers";

// D1 binds at most 100 parameters per statement: every list below is larger than that, seeded straight
// through the binding (one statement a table) because the API would take minutes to build it.
const { DB } = env as unknown as { DB: D1Database };
const COUNT = 150;
const seq = (n: number) => `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ${n})`;

/** `n` teams named `{prefix}{i}`, each of a captain `{prefix}{i}a` and a member `{prefix}{i}b`. */
async function seedTeams(prefix: string, n = COUNT): Promise<void> {
  await DB.batch([
    DB.prepare(
      `${seq(n)} INSERT INTO users (id, user_name, user_name_key, email, email_key, password_hash, security_stamp, register_time)
       SELECT ?1 || i || r, ?1 || i || r, ?1 || i || r, ?1 || i || r || '@example.com', ?1 || i || r || '@example.com', 'x', 'x', 0
       FROM seq, (SELECT 'a' AS r UNION ALL SELECT 'b')`,
    ).bind(prefix),
    DB.prepare(`${seq(n)} INSERT INTO teams (name, captain_id, invite_token) SELECT ?1 || i, ?1 || i || 'a', 'x' FROM seq`).bind(prefix),
    DB.prepare(
      `INSERT INTO team_members (team_id, user_id) SELECT t.id, u.id FROM teams t JOIN users u ON u.id IN (t.name || 'a', t.name || 'b')
       WHERE t.name GLOB ?1 || '*'`,
    ).bind(prefix),
  ]);
}

/** Every team of the prefix joins the game (Accepted) with both its users registered. */
async function seedParticipations(gameId: number, prefix: string): Promise<void> {
  await DB.batch([
    DB.prepare(`INSERT INTO participations (game_id, team_id, status, token) SELECT ?1, id, 'Accepted', 'x' FROM teams WHERE name GLOB ?2 || '*'`).bind(gameId, prefix),
    DB.prepare(
      `INSERT INTO participation_members (participation_id, game_id, user_id)
       SELECT p.id, p.game_id, m.user_id FROM participations p JOIN team_members m ON m.team_id = p.team_id WHERE p.game_id = ?1`,
    ).bind(gameId),
  ]);
}

/** `n` challenges of the game, traffic capture on; returns their ids in order. */
async function seedChallenges(gameId: number, n = COUNT): Promise<number[]> {
  const { results } = await DB.prepare(
    `${seq(n)} INSERT INTO challenges (game_id, title, type, enable_traffic_capture) SELECT ?1, 'c' || i, 'StaticContainer', 1 FROM seq RETURNING id`,
  )
    .bind(gameId)
    .all<{ id: number }>();
  return results.map((r) => r.id).sort((a, b) => a - b);
}

describe("lists longer than D1's 100 bound parameters", () => {
  it("GET game/{id}/participations returns every team with its members", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin);
    const prefix = unique("bp");
    await seedTeams(prefix);
    await seedParticipations(g.id, prefix);
    const r = await admin.json<ParticipationInfo[]>(`/api/game/${g.id}/participations`);
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(COUNT);
    for (const p of r.body) {
      expect(p.status).toBe("Accepted");
      expect(p.team.members.map((m) => m.userName)).toEqual([`${p.team.name}a`, `${p.team.name}b`]);
      expect(p.registeredMembers.sort()).toEqual([`${p.team.name}a`, `${p.team.name}b`]);
    }
  });

  it("GET admin/teams lists a page of 500 teams with their members", async () => {
    const { client: admin } = await newAdmin();
    const prefix = unique("bt");
    await seedTeams(prefix);
    const r = await admin.json<ArrayResponse<TeamInfo>>("/api/admin/teams?count=500");
    expect(r.status).toBe(200);
    const ours = r.body.data.filter((t) => t.name.startsWith(prefix));
    expect(ours).toHaveLength(COUNT);
    for (const t of ours) expect(t.members.map((m) => m.userName).sort()).toEqual([`${t.name}a`, `${t.name}b`]);
  });

  it("GET edit/games lists a page of games holding more than 100 divisions", async () => {
    const { client: admin } = await newAdmin();
    const template = await createGame(admin);
    const title = unique("bg");
    const n = 60;
    // Copies of the API-made game (a real key pair), starting far ahead so they lead the page.
    await DB.batch([
      DB.prepare(
        `${seq(n)} INSERT INTO games (title, start_time, end_time, writeup_deadline, public_key, private_key)
         SELECT ?1, 4000000000000 + i, 4000000000001 + i, 4000000000001 + i, public_key, private_key FROM seq, games WHERE games.id = ?2`,
      ).bind(title, template.id),
      DB.prepare(`INSERT INTO divisions (game_id, name) SELECT g.id, d.name FROM games g, (SELECT 'd1' AS name UNION ALL SELECT 'd2') d WHERE g.title = ?1`).bind(title),
    ]);
    const r = await admin.json<ArrayResponse<GameInfo>>("/api/edit/games?count=100");
    expect(r.status).toBe(200);
    const ours = r.body.data.filter((g) => g.title === title);
    expect(ours).toHaveLength(n);
    for (const g of ours) expect(g.divisions.map((d) => d.name)).toEqual(["d1", "d2"]);
  });

  it("PUT edit/games/{id} accepts a division configuring more than 100 challenges", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin);
    const ids = await seedChallenges(g.id);
    const challengeConfigs = ids.map((challengeId) => ({ challengeId, permissions: 1 }));
    const r = await admin.json<GameInfo>(`/api/edit/games/${g.id}`, { method: "PUT", body: { divisions: [{ name: "all", challengeConfigs }] } });
    expect(r.status).toBe(200);
    expect(r.body.divisions[0]!.challengeConfigs).toEqual(challengeConfigs);
  });

  it("GET game/games/{id}/captures counts the files of more than 100 capture challenges", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin);
    const ids = await seedChallenges(g.id);
    const r = await admin.json<{ id: number; count: number }[]>(`/api/game/games/${g.id}/captures`);
    expect(r.status).toBe(200);
    expect(r.body.map((c) => c.id)).toEqual(ids);
    expect(r.body.every((c) => c.count === 0)).toBe(true);
  });

  it("DELETE game/captures/{cid}/{tid}/all removes more than 100 files of a team", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin);
    const [cid] = await seedChallenges(g.id, 1);
    const prefix = unique("bc");
    await seedTeams(prefix, 1);
    await seedParticipations(g.id, prefix);
    const { pid } = (await DB.prepare("SELECT id AS pid FROM participations WHERE game_id = ?1").bind(g.id).first<{ pid: number }>())!;
    await DB.prepare(
      `${seq(COUNT)} INSERT INTO traffic_captures (challenge_id, participation_id, r2_key, file_name, size, created_at)
       SELECT ?1, ?2, 'capture/' || ?1 || '/' || ?2 || '/' || ?3 || i || '.pcap', ?3 || i || '.pcap', 1, i FROM seq`,
    )
      .bind(cid, pid, unique("f"))
      .run();
    const r = await admin.json(`/api/game/captures/${cid}/${pid}/all`, { method: "DELETE" });
    expect(r.status).toBe(200);
    expect(await db().select().from(trafficCaptures).where(eq(trafficCaptures.challengeId, cid!)).all()).toEqual([]);
  });

  it("DELETE edit/games/{id} deletes a game of more than 100 challenges", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin);
    await seedChallenges(g.id);
    const r = await admin.json(`/api/edit/games/${g.id}`, { method: "DELETE" });
    expect(r.status).toBe(200);
    expect(await db().select().from(games).where(eq(games.id, g.id)).get()).toBeUndefined();
  });
});
