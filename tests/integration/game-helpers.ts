import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { sha256Hex } from "~/.server/auth/session";
import { games, participationMembers, participations, teamMembers, users } from "~/.server/db/schema";
import type { GameInfo } from "~/core/schemas/game";
import type { TeamInfo } from "~/core/schemas/team";
import { generateTeamTokenKeys, signTeamToken } from "~/core/team-token";
import { Client, db, newUser, unique } from "./helpers";

export type ErrorBody = { title: string; status: number };
export const HOUR = 3_600_000;

export async function newAdmin() {
  const admin = await newUser();
  await db().update(users).set({ role: "Admin" }).where(eq(users.userName, admin.userName));
  return admin;
}

export async function userIdOf(client: Client): Promise<string> {
  return (await client.json<{ userId: string }>("/api/account/profile")).body.userId;
}

/** A game through the API; by default running (started an hour ago, ends in an hour). */
export async function createGame(admin: Client, fields: Record<string, unknown> = {}): Promise<GameInfo> {
  const now = Date.now();
  const r = await admin.json<GameInfo>("/api/edit/games", {
    method: "POST",
    body: { title: unique("game"), start: now - HOUR, end: now + HOUR, ...fields },
  });
  if (r.status !== 200) throw new Error(`create game failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function updateGame(admin: Client, id: number, fields: Record<string, unknown>) {
  return admin.json<GameInfo>(`/api/edit/games/${id}`, { method: "PUT", body: fields });
}

export async function createTeam(client: Client, name = unique("t").slice(0, 20)): Promise<TeamInfo> {
  const r = await client.json<TeamInfo>("/api/team", { method: "POST", body: { name } });
  if (r.status !== 200) throw new Error(`create team failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A captain with a team and `n` more members who joined by invite code. */
export async function teamWithMembers(n = 0) {
  const captain = await newUser();
  const team = await createTeam(captain.client);
  const code = (await captain.client.json<string>(`/api/team/${team.id}/invite`)).body;
  const members = [];
  for (let i = 0; i < n; i++) {
    const m = await newUser();
    const r = await m.client.json("/api/team/accept", { method: "POST", body: code });
    if (r.status !== 200) throw new Error(`accept failed: ${r.status}`);
    members.push({ ...m, id: await userIdOf(m.client) });
  }
  return { captain: { ...captain, id: await userIdOf(captain.client) }, team, code, members };
}

/** A game written straight to the database in `window`, and the team's participation in it with `status`. */
export async function enterGame(teamId: number, status: "Accepted" | "Pending" | "Rejected" | "Suspended", window: { start: number; end: number }) {
  const keys = await generateTeamTokenKeys();
  const [game] = await db()
    .insert(games)
    .values({ title: unique("game"), startTime: window.start, endTime: window.end, writeupDeadline: window.end, publicKey: keys.publicKey, privateKey: keys.privateKey })
    .returning({ id: games.id });
  const [p] = await db()
    .insert(participations)
    .values({ gameId: game!.id, teamId, status, token: await signTeamToken(keys.privateKey, teamId) })
    .returning({ id: participations.id });
  return { gameId: game!.id, participationId: p!.id, keys };
}

/** The team's members' ids, sorted. */
export async function memberIds(teamId: number): Promise<string[]> {
  const rows = await db().select({ userId: teamMembers.userId }).from(teamMembers).where(eq(teamMembers.teamId, teamId));
  return rows.map((r) => r.userId).sort();
}

/** The user's registration rows for the participation (none once they left the team or were removed). */
export async function registrationsOf(participationId: number, userId: string) {
  return db()
    .select()
    .from(participationMembers)
    .where(and(eq(participationMembers.participationId, participationId), eq(participationMembers.userId, userId)));
}

export async function join(client: Client, gameId: number, body: Record<string, unknown>) {
  return client.json<ErrorBody>(`/api/game/${gameId}`, { method: "POST", body });
}

export const room = (gameId: number) => env.GAME_ROOM.get(env.GAME_ROOM.idFromName(`game:${gameId}`));

// ── Fixtures: players are seeded straight into D1 (no password hashing), each with a session cookie. ──

export interface Player {
  client: Client;
  userId: string;
  userName: string;
  teamId: number;
  teamName: string;
  participationId: number;
}

export async function seedPlayers(gameId: number, n: number, opts: { divisionId?: number | null; status?: string } = {}): Promise<Player[]> {
  const now = Date.now();
  const players: Player[] = [];
  const stmts: D1PreparedStatement[] = [];
  const tag = unique("s");
  for (let i = 0; i < n; i++) {
    const userId = crypto.randomUUID();
    const userName = `${tag}_${i}`.slice(-15);
    const teamName = `T${tag}${i}`.slice(-20);
    const sessionId = `${userId}-session`;
    players.push({ client: new Client(), userId, userName, teamId: 0, teamName, participationId: 0 });
    (players[i]!.client as Client).cookie = `flagstaff_session=${sessionId}`;
    stmts.push(
      env.DB.prepare(
        "INSERT INTO users (id, user_name, user_name_key, email, email_key, password_hash, security_stamp, register_time, email_confirmed) VALUES (?1, ?2, lower(?2), ?3, lower(?3), 'x', 'x', ?4, 1)",
      ).bind(userId, userName, `${userId}@example.com`, now),
      env.DB.prepare("INSERT INTO sessions (id_hash, user_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)").bind(await sha256Hex(sessionId), userId, now, now + 86_400_000),
      env.DB.prepare("INSERT INTO teams (name, captain_id, invite_token) VALUES (?1, ?2, 'tok')").bind(teamName, userId),
      env.DB.prepare("INSERT INTO team_members (team_id, user_id) SELECT id, ?1 FROM teams WHERE captain_id = ?1").bind(userId),
      env.DB.prepare("INSERT INTO participations (game_id, team_id, division_id, status, token) SELECT ?1, id, ?3, ?4, 'token-' || id FROM teams WHERE captain_id = ?2").bind(
        gameId,
        userId,
        opts.divisionId ?? null,
        opts.status ?? "Accepted",
      ),
      env.DB.prepare("INSERT INTO participation_members (participation_id, game_id, user_id) SELECT p.id, ?1, ?2 FROM participations p JOIN teams t ON t.id = p.team_id WHERE t.captain_id = ?2 AND p.game_id = ?1").bind(gameId, userId),
      env.DB.prepare(
        "INSERT INTO game_instances (participation_id, challenge_id) SELECT p.id, c.id FROM participations p JOIN teams t ON t.id = p.team_id JOIN challenges c ON c.game_id = p.game_id AND c.is_enabled = 1 WHERE t.captain_id = ?2 AND p.game_id = ?1 ON CONFLICT DO NOTHING",
      ).bind(gameId, userId),
    );
  }
  for (let i = 0; i < stmts.length; i += 140) await env.DB.batch(stmts.slice(i, i + 140));
  const rows = await env.DB.prepare("SELECT t.captain_id AS u, t.id AS team, p.id AS p FROM participations p JOIN teams t ON t.id = p.team_id WHERE p.game_id = ?1").bind(gameId).all<{ u: string; team: number; p: number }>();
  const byUser = new Map(rows.results.map((r) => [r.u, r]));
  for (const p of players) {
    const r = byUser.get(p.userId)!;
    p.teamId = r.team;
    p.participationId = r.p;
  }
  await room(gameId).refresh(gameId, "participations");
  return players;
}
