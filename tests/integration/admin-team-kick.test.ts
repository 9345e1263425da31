import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { games, participationMembers, participations, teamMembers, users } from "~/.server/db/schema";
import type { TeamInfo } from "~/core/schemas/team";
import { generateTeamTokenKeys, signTeamToken } from "~/core/team-token";
import { Client, db, newUser } from "./helpers";

// POST /api/admin/teams/{id}/kick/{userId}: an admin removes a member with the captain's kick (DECISIONS.md).

type ErrorBody = { title: string; status: number };
const HOUR = 3_600_000;

async function userId(client: Client): Promise<string> {
  return (await client.json<{ userId: string }>("/api/account/profile")).body.userId;
}

async function newAdmin() {
  const admin = await newUser();
  await db().update(users).set({ role: "Admin" }).where(eq(users.userName, admin.userName));
  return admin;
}

/** A captain with a team and `n` members who joined by code. */
async function teamWithMembers(n: number) {
  const captain = await newUser();
  const created = await captain.client.json<TeamInfo>("/api/team", { method: "POST", body: { name: `Kick ${captain.userName}`.slice(0, 20) } });
  expect(created.status).toBe(200);
  const team = created.body;
  const code = (await captain.client.json<string>(`/api/team/${team.id}/invite`)).body;
  const members = [];
  for (let i = 0; i < n; i++) {
    const m = await newUser();
    expect((await m.client.json("/api/team/accept", { method: "POST", body: code })).status).toBe(200);
    members.push({ ...m, id: await userId(m.client) });
  }
  return { captain: { ...captain, id: await userId(captain.client) }, team, members };
}

/** A game in the given window and the team's participation in it. */
async function enterGame(teamId: number, status: "Accepted" | "Pending", window: { start: number; end: number }) {
  const keys = await generateTeamTokenKeys();
  const [game] = await db()
    .insert(games)
    .values({ title: "Admin kick", startTime: window.start, endTime: window.end, writeupDeadline: window.end, publicKey: keys.publicKey, privateKey: keys.privateKey })
    .returning({ id: games.id });
  const [p] = await db()
    .insert(participations)
    .values({ gameId: game!.id, teamId, status, token: await signTeamToken(keys.privateKey, teamId) })
    .returning({ id: participations.id });
  return { gameId: game!.id, participationId: p!.id };
}

async function memberIds(teamId: number): Promise<string[]> {
  const rows = await db().select({ userId: teamMembers.userId }).from(teamMembers).where(eq(teamMembers.teamId, teamId));
  return rows.map((r) => r.userId).sort();
}

const kick = (client: Client, teamId: number, user: string) => client.json<TeamInfo & ErrorBody>(`/api/admin/teams/${teamId}/kick/${user}`, { method: "POST" });

describe("admin removes a team member", () => {
  it("removes a member and their registration as the captain's kick does; the member's team list no longer has the team; logged", async () => {
    const admin = await newAdmin();
    const { captain, team, members } = await teamWithMembers(2);
    const [a, b] = members as [(typeof members)[0], (typeof members)[0]];
    const { participationId, gameId } = await enterGame(team.id, "Pending", { start: Date.now() + HOUR, end: Date.now() + 2 * HOUR });
    await db().insert(participationMembers).values({ participationId, gameId, userId: a.id });
    expect((await a.client.json<TeamInfo[]>("/api/team")).body.map((t) => t.id)).toEqual([team.id]);

    const kicked = await kick(admin.client, team.id, a.id);
    expect(kicked.status).toBe(200);
    expect(kicked.body.id).toBe(team.id);
    expect(kicked.body.members.map((m) => m.id).sort()).toEqual([captain.id, b.id].sort());
    expect(await memberIds(team.id)).toEqual([captain.id, b.id].sort());
    const registered = await db()
      .select()
      .from(participationMembers)
      .where(and(eq(participationMembers.participationId, participationId), eq(participationMembers.userId, a.id)));
    expect(registered).toEqual([]);
    // The kicked user's own view: no team; the public team view lists the others only.
    expect((await a.client.json<TeamInfo[]>("/api/team")).body).toEqual([]);
    expect((await new Client().json<TeamInfo>(`/api/team/${team.id}`)).body.members.map((m) => m.id).sort()).toEqual([captain.id, b.id].sort());
    // A second kick finds no such member.
    expect((await kick(admin.client, team.id, a.id)).body).toEqual({ title: "This user is not a member of the team", status: 404 });

    const english = `${a.userName} removed from team ${team.name} (#${team.id})`;
    let logged: { msg: string; key?: string; params?: unknown } | undefined;
    for (let i = 0; i < 50 && !logged; i++) {
      const listed = await admin.client.json<{ msg: string; key?: string; params?: unknown }[]>("/api/admin/logs?count=100");
      logged = listed.body.find((r) => r.msg === english);
      if (!logged) await new Promise((r) => setTimeout(r, 100));
    }
    expect(logged).toMatchObject({ key: "teamMemberRemoved", params: { user: a.userName, team: team.name, id: team.id } });
  });

  it("is for admins only: the captain and a member get 403 and nobody leaves", async () => {
    const { captain, team, members } = await teamWithMembers(2);
    const [a, b] = members as [(typeof members)[0], (typeof members)[0]];
    expect((await kick(captain.client, team.id, a.id)).status).toBe(403);
    expect((await kick(b.client, team.id, a.id)).status).toBe(403);
    expect((await kick(new Client(), team.id, a.id)).status).toBe(401);
    expect(await memberIds(team.id)).toEqual([captain.id, a.id, b.id].sort());
  });

  it("refuses the captain, a user not in the team and an unknown team", async () => {
    const admin = await newAdmin();
    const { captain, team, members } = await teamWithMembers(1);
    const captainRefused = await kick(admin.client, team.id, captain.id);
    expect(captainRefused.body).toEqual({
      title: "The captain cannot be removed from the team; delete the team instead, or have the captain transfer captaincy first",
      status: 400,
    });
    const stranger = await newUser();
    expect((await kick(admin.client, team.id, await userId(stranger.client))).body).toEqual({ title: "This user is not a member of the team", status: 404 });
    expect((await kick(admin.client, team.id, "no-such-user")).body).toEqual({ title: "This user is not a member of the team", status: 404 });
    expect((await kick(admin.client, 99_999_999, members[0]!.id)).body).toEqual({ title: "The team does not exist", status: 404 });
    expect(await memberIds(team.id)).toEqual([captain.id, members[0]!.id].sort());
  });

  it("refuses while the team's lock is in force, telling the admin to unlock first; removes once unlocked", async () => {
    const admin = await newAdmin();
    const { captain, team, members } = await teamWithMembers(1);
    const a = members[0]!;
    await enterGame(team.id, "Accepted", { start: Date.now() - HOUR, end: Date.now() + HOUR });
    expect((await admin.client.json(`/api/admin/teams/${team.id}`, { method: "PUT", body: { locked: true } })).status).toBe(200);
    const refused = await kick(admin.client, team.id, a.id);
    expect(refused.body).toEqual({ title: "The team is locked while it plays an approved game; unlock the team first to remove a member", status: 400 });
    expect(await memberIds(team.id)).toEqual([captain.id, a.id].sort());
    // The same lock holds for the captain's kick, with the captain's message.
    expect((await captain.client.json<ErrorBody>(`/api/team/${team.id}/kick/${a.id}`, { method: "POST" })).body.title).toBe(
      "The team is locked while it plays an approved game; members cannot change until the game ends",
    );

    expect((await admin.client.json(`/api/admin/teams/${team.id}`, { method: "PUT", body: { locked: false } })).status).toBe(200);
    const kicked = await kick(admin.client, team.id, a.id);
    expect(kicked.status).toBe(200);
    expect(kicked.body.members.map((m) => m.id)).toEqual([captain.id]);
  });

  it("answers in the caller's language", async () => {
    const admin = await newAdmin();
    const { captain, team } = await teamWithMembers(0);
    for (const [lang, title] of [
      ["ja-JP", "キャプテンをチームから外すことはできません。チームを削除するか、先にキャプテンを譲渡してもらってください"],
      ["zh-CN", "不能将队长移出队伍；请删除队伍，或先由队长转让队长身份"],
    ] as const) {
      const r = await admin.client.json<ErrorBody>(`/api/admin/teams/${team.id}/kick/${captain.id}`, { method: "POST", headers: { "Accept-Language": lang } });
      expect(r.body).toEqual({ title, status: 400 });
    }
  });
});
