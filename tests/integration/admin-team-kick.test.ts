import { describe, expect, it } from "vitest";
import { participationMembers } from "~/.server/db/schema";
import type { TeamInfo } from "~/core/schemas/team";
import { enterGame, type ErrorBody, HOUR, memberIds, newAdmin, registrationsOf, teamWithMembers, userIdOf } from "./game-helpers";
import { Client, db, newUser } from "./helpers";

// POST /api/admin/teams/{id}/kick/{userId}: an admin removes a member with the captain's kick (DECISIONS.md).

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
    expect(await registrationsOf(participationId, a.id)).toEqual([]);
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
    expect((await kick(admin.client, team.id, await userIdOf(stranger.client))).body).toEqual({ title: "This user is not a member of the team", status: 404 });
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
