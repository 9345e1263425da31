import { eq } from "drizzle-orm";
import { users } from "~/.server/db/schema";
import type { GameInfo } from "~/core/schemas/game";
import type { TeamInfo } from "~/core/schemas/team";
import { type Client, db, newUser, unique } from "./helpers";

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
  return { captain: { ...captain, id: await userIdOf(captain.client) }, team, members };
}

export async function join(client: Client, gameId: number, body: Record<string, unknown>) {
  return client.json<ErrorBody>(`/api/game/${gameId}`, { method: "POST", body });
}
