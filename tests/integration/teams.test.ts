import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { games, participationMembers, participations, teams } from "~/.server/db/schema";
import type { ArrayResponse, MyTeamInfo, TeamInfo } from "~/core/schemas/team";
import { generateTeamTokenKeys, signTeamToken } from "~/core/team-token";
import { renewInviteCode } from "~/.server/services/teams";
import { enterGame, type ErrorBody, HOUR, memberIds, newAdmin, registrationsOf, teamWithMembers, userIdOf } from "./game-helpers";
import { Client, db, newUser } from "./helpers";

async function createTeam(client: Client, name = "Red Team", bio?: string) {
  const r = await client.json<TeamInfo>("/api/team", { method: "POST", body: { name, bio } });
  if (r.status !== 200) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function inviteCode(client: Client, teamId: number): Promise<string> {
  return (await client.json<string>(`/api/team/${teamId}/invite`)).body;
}

const running = () => ({ start: Date.now() - HOUR, end: Date.now() + HOUR });

describe("create and read teams", () => {
  it("creates a team with the caller as captain and member, readable by anyone", async () => {
    const { client, userName } = await newUser();
    const team = await createTeam(client, "  Blue Fox  ", "we hack");
    expect(team).toMatchObject({ name: "Blue Fox", bio: "we hack", avatar: null, locked: false });
    expect(team.members).toEqual([expect.objectContaining({ userName, captain: true, avatar: null })]);

    const mine = await client.json<TeamInfo[]>("/api/team");
    expect(mine.body.map((t) => t.id)).toEqual([team.id]);
    const publicView = await new Client().json<TeamInfo>(`/api/team/${team.id}`);
    expect(publicView.status).toBe(200);
    expect(publicView.body.name).toBe("Blue Fox");
  });

  it("lets a user own only one team", async () => {
    const { client } = await newUser();
    await createTeam(client);
    const again = await client.json<ErrorBody>("/api/team", { method: "POST", body: { name: "Second" } });
    expect(again.body).toEqual({ title: "You already own a team; a user may captain only one team", status: 400 });
    expect((await client.json<TeamInfo[]>("/api/team")).body).toHaveLength(1);
  });

  it("settles concurrent creations by one user to a single team", async () => {
    const { client } = await newUser();
    const results = await Promise.all([1, 2, 3].map((i) => client.json("/api/team", { method: "POST", body: { name: `T${i}` } })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expect([400, 429]).toContain(r.status);
    expect((await client.json<TeamInfo[]>("/api/team")).body).toHaveLength(1);
  });

  it("refuses bad names and bios with localised messages", async () => {
    const { client } = await newUser({ lang: "ja-JP" });
    const long = await client.json<ErrorBody>("/api/team", { method: "POST", body: { name: "x".repeat(21) } });
    expect(long.body).toEqual({ title: "チーム名は 1～20 文字で入力してください", status: 400 });
    const blank = await client.json<ErrorBody>("/api/team", { method: "POST", body: { name: "   " } });
    expect(blank.status).toBe(400);
    const bio = await client.json<ErrorBody>("/api/team", { method: "POST", body: { name: "ok", bio: "b".repeat(73) } });
    expect(bio.body).toEqual({ title: "チームの紹介は 72 文字以内で入力してください", status: 400 });
    expect((await client.json<TeamInfo[]>("/api/team")).body).toEqual([]);
  });

  it("answers 404 for unknown or malformed team ids and 401 without a session", async () => {
    const { client } = await newUser();
    expect((await client.json<ErrorBody>("/api/team/99999999")).body).toEqual({ title: "The team does not exist", status: 404 });
    expect((await client.json("/api/team/abc")).status).toBe(404);
    expect((await new Client().json("/api/team", { method: "POST", body: { name: "x" } })).status).toBe(401);
  });

  it("lets only the captain edit, keeping omitted fields", async () => {
    const { captain, team, members } = await teamWithMembers(1);
    const edited = await captain.client.json<TeamInfo>(`/api/team/${team.id}`, { method: "PUT", body: { bio: "new bio", name: null } });
    expect(edited.body).toMatchObject({ name: team.name, bio: "new bio" });
    const byMember = await members[0]!.client.json<ErrorBody>(`/api/team/${team.id}`, { method: "PUT", body: { name: "Hijack" } });
    expect(byMember.body).toEqual({ title: "Only the team captain can do this", status: 403 });
    const tooLong = await captain.client.json(`/api/team/${team.id}`, { method: "PUT", body: { name: "y".repeat(21) } });
    expect(tooLong.status).toBe(400);
    expect((await new Client().json<TeamInfo>(`/api/team/${team.id}`)).body.name).toBe(team.name);
  });
});

describe("invite codes", () => {
  it("joins by code; refuses malformed, stale, foreign and repeated codes", async () => {
    const captain = await newUser();
    const team = await createTeam(captain.client, "Has:Colon");
    const code = await inviteCode(captain.client, team.id);
    expect(code).toMatch(new RegExp(`^Has:Colon:${team.id}:[0-9a-f]{32}$`));

    const joiner = await newUser();
    for (const bad of ["", "nonsense", `Has:Colon:${team.id}:ABC`, `x:${team.id}:${"0".repeat(31)}`]) {
      const r = await joiner.client.json<ErrorBody>("/api/team/accept", { method: "POST", body: bad });
      expect(r.body).toEqual({ title: "Wrong invite code: it must end with “:{team id}:{32 hex characters}”", status: 400 });
    }
    const notString = await joiner.client.json("/api/team/accept", { method: "POST", body: { code } });
    expect(notString.status).toBe(400);
    const unknown = await joiner.client.json("/api/team/accept", { method: "POST", body: `x:99999999:${"a".repeat(32)}` });
    expect(unknown.status).toBe(404);
    const wrongToken = await joiner.client.json<ErrorBody>("/api/team/accept", { method: "POST", body: `x:${team.id}:${"a".repeat(32)}` });
    expect(wrongToken.body).toEqual({ title: "Incorrect team invitation code", status: 400 });
    // The form shows these at its code field: the body (the code alone) is named `inviteCode`.
    expect(wrongToken.res.headers.get("x-error-field")).toBe("inviteCode");
    const tooLong = await joiner.client.json<ErrorBody>("/api/team/accept", { method: "POST", body: "x".repeat(300) });
    expect([tooLong.status, tooLong.res.headers.get("x-error-field")]).toEqual([400, "inviteCode"]);

    expect((await joiner.client.json("/api/team/accept", { method: "POST", body: code })).status).toBe(200);
    const again = await joiner.client.json<ErrorBody>("/api/team/accept", { method: "POST", body: code });
    expect(again.body).toEqual({ title: "You are already a member of this team", status: 400 });
    expect(again.res.headers.get("x-error-field")).toBeNull();
    const info = await joiner.client.json<TeamInfo[]>("/api/team");
    expect(info.body[0]!.members.map((m) => [m.userName, m.captain])).toEqual([
      [captain.userName, true],
      [joiner.userName, false],
    ]);

    // Renewal: the old code stops working, the new one works.
    const renewed = await captain.client.json<string>(`/api/team/${team.id}/invite`, { method: "PUT" });
    expect(renewed.body).not.toBe(code);
    expect(await inviteCode(captain.client, team.id)).toBe(renewed.body);
    const late = await newUser();
    const stale = await late.client.json<ErrorBody>("/api/team/accept", { method: "POST", body: code });
    expect(stale.body).toEqual({ title: "Incorrect team invitation code", status: 400 });
    expect((await late.client.json("/api/team/accept", { method: "POST", body: renewed.body })).status).toBe(200);
  });

  it("shows and renews the code for the captain only", async () => {
    const { team, members } = await teamWithMembers(1);
    expect((await members[0]!.client.json(`/api/team/${team.id}/invite`)).status).toBe(403);
    expect((await members[0]!.client.json(`/api/team/${team.id}/invite`, { method: "PUT" })).status).toBe(403);
    const { client: stranger } = await newUser();
    expect((await stranger.json(`/api/team/${team.id}/invite`)).status).toBe(403);
    expect((await stranger.json(`/api/team/99999999/invite`)).status).toBe(404);
  });

  it("of two renewals at once, both answer the code that works", async () => {
    const captain = await newUser();
    const team = await createTeam(captain.client);
    const before = await inviteCode(captain.client, team.id);
    const id = (await captain.client.json<{ userId: string }>("/api/account/profile")).body.userId;
    const answers = await Promise.all([renewInviteCode(db(), id, team.id), renewInviteCode(db(), id, team.id)]);
    const current = await inviteCode(captain.client, team.id);
    expect(current).not.toBe(before);
    expect(answers).toEqual([current, current]);
    const joiner = await newUser();
    expect((await joiner.client.json("/api/team/accept", { method: "POST", body: answers[0] })).status).toBe(200);
  });

  it("adds each of many concurrent joiners exactly once, even when one user races themself", async () => {
    const captain = await newUser();
    const team = await createTeam(captain.client);
    const code = await inviteCode(captain.client, team.id);
    const joiners = await Promise.all(Array.from({ length: 6 }, () => newUser()));
    const doubled = joiners[0]!;
    const results = await Promise.all([
      ...joiners.map((j) => j.client.json("/api/team/accept", { method: "POST", body: code })),
      doubled.client.json("/api/team/accept", { method: "POST", body: code }),
      doubled.client.json("/api/team/accept", { method: "POST", body: code }),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(6);
    expect(results.filter((r) => r.status === 400)).toHaveLength(2);
    expect(await memberIds(team.id)).toHaveLength(7);
  });
});

describe("captain actions", () => {
  it("kicks a member (and their registrations for this team), never the captain", async () => {
    const { captain, team, members } = await teamWithMembers(2);
    const [a, b] = members as [(typeof members)[0], (typeof members)[0]];
    const { participationId, gameId } = await enterGame(team.id, "Pending", { start: Date.now() + HOUR, end: Date.now() + 2 * HOUR });
    await db().insert(participationMembers).values({ participationId, gameId, userId: a.id });

    const byMember = await b.client.json(`/api/team/${team.id}/kick/${a.id}`, { method: "POST" });
    expect(byMember.status).toBe(403);
    const kickCaptain = await captain.client.json<ErrorBody>(`/api/team/${team.id}/kick/${captain.id}`, { method: "POST" });
    expect(kickCaptain.body).toEqual({ title: "The captain cannot be removed from the team", status: 400 });
    const stranger = await newUser();
    const notMember = await captain.client.json<ErrorBody>(`/api/team/${team.id}/kick/${await userIdOf(stranger.client)}`, { method: "POST" });
    expect(notMember.body).toEqual({ title: "This user is not a member of the team", status: 404 });

    const kicked = await captain.client.json<TeamInfo>(`/api/team/${team.id}/kick/${a.id}`, { method: "POST" });
    expect(kicked.status).toBe(200);
    expect(kicked.body.members.map((m) => m.id).sort()).toEqual([captain.id, b.id].sort());
    expect(await registrationsOf(participationId, a.id)).toEqual([]);
    expect((await a.client.json<TeamInfo[]>("/api/team")).body).toEqual([]);
  });

  it("drops a Pending or Rejected registration left without registered members; an Accepted one stays", async () => {
    const { captain, team, members } = await teamWithMembers(3);
    const [a, b, c] = members as [(typeof members)[0], (typeof members)[0], (typeof members)[0]];
    const later = { start: Date.now() + HOUR, end: Date.now() + 2 * HOUR };
    const pending = await enterGame(team.id, "Pending", later);
    const rejected = await enterGame(team.id, "Rejected", later);
    const accepted = await enterGame(team.id, "Accepted", { start: Date.now() - 2 * HOUR, end: Date.now() - HOUR });
    await db().insert(participationMembers).values([
      { participationId: pending.participationId, gameId: pending.gameId, userId: a.id },
      { participationId: pending.participationId, gameId: pending.gameId, userId: b.id },
      { participationId: rejected.participationId, gameId: rejected.gameId, userId: c.id },
      { participationId: accepted.participationId, gameId: accepted.gameId, userId: c.id },
    ]);
    const left = async () => (await db().select({ id: participations.id }).from(participations).where(eq(participations.teamId, team.id))).map((r) => r.id).sort();
    const all = [pending.participationId, rejected.participationId, accepted.participationId].sort();

    // One registered member remains: the registration stays.
    expect((await a.client.json(`/api/team/${team.id}/leave`, { method: "POST" })).status).toBe(200);
    expect(await left()).toEqual(all);
    expect((await captain.client.json(`/api/team/${team.id}/kick/${b.id}`, { method: "POST" })).status).toBe(200);
    expect(await left()).toEqual([rejected.participationId, accepted.participationId].sort());
    // The ended game's Accepted registration is the team's result: it stays without members.
    expect((await c.client.json(`/api/team/${team.id}/leave`, { method: "POST" })).status).toBe(200);
    expect(await left()).toEqual([accepted.participationId]);
  });

  it("lets members leave but not the captain; non-members get 404", async () => {
    const { captain, team, members } = await teamWithMembers(1);
    const captainLeaves = await captain.client.json<ErrorBody>(`/api/team/${team.id}/leave`, { method: "POST" });
    expect(captainLeaves.body).toEqual({
      title: "The captain cannot leave the team; transfer captaincy or disband the team instead",
      status: 400,
    });
    expect((await members[0]!.client.json(`/api/team/${team.id}/leave`, { method: "POST" })).status).toBe(200);
    expect((await members[0]!.client.json(`/api/team/${team.id}/leave`, { method: "POST" })).status).toBe(404);
    expect(await memberIds(team.id)).toEqual([captain.id]);
  });

  it("transfers captaincy to a member only, and not to someone who already owns a team", async () => {
    const { captain, team, members } = await teamWithMembers(2);
    const [a, b] = members as [(typeof members)[0], (typeof members)[0]];
    const outsider = await newUser();
    const toOutsider = await captain.client.json<ErrorBody>(`/api/team/${team.id}/transfer`, {
      method: "PUT",
      body: { newCaptainId: await userIdOf(outsider.client) },
    });
    expect(toOutsider.body).toEqual({ title: "The new captain must be a member of the team", status: 400 });

    await createTeam(b.client, "B's own");
    const toOwner = await captain.client.json<ErrorBody>(`/api/team/${team.id}/transfer`, { method: "PUT", body: { newCaptainId: b.id } });
    expect(toOwner.body).toEqual({ title: "The new captain already owns a team", status: 400 });
    expect((await a.client.json(`/api/team/${team.id}/transfer`, { method: "PUT", body: { newCaptainId: a.id } })).status).toBe(403);
    expect((await captain.client.json(`/api/team/${team.id}/transfer`, { method: "PUT", body: {} })).status).toBe(400);

    const moved = await captain.client.json<TeamInfo>(`/api/team/${team.id}/transfer`, { method: "PUT", body: { newCaptainId: a.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.members.find((m) => m.captain)?.id).toBe(a.id);
    // The old captain is an ordinary member now and may leave.
    expect((await captain.client.json(`/api/team/${team.id}/invite`)).status).toBe(403);
    expect((await captain.client.json(`/api/team/${team.id}/leave`, { method: "POST" })).status).toBe(200);
  });

  it("disbands a team (captain only) and frees the captain to create another", async () => {
    const { captain, team, members } = await teamWithMembers(1);
    expect((await members[0]!.client.json(`/api/team/${team.id}`, { method: "DELETE" })).status).toBe(403);
    expect((await captain.client.json(`/api/team/${team.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await new Client().json(`/api/team/${team.id}`)).status).toBe(404);
    expect(await memberIds(team.id)).toEqual([]);
    await createTeam(captain.client, "Again");
  });
});

describe("team lock", () => {
  const LOCKED = "The team is locked while it plays an approved game; members cannot change until the game ends";

  it("refuses kick, leave, transfer, disband and joining while locked and approved into a game that has not ended", async () => {
    const { captain, team, code, members } = await teamWithMembers(2);
    const [a, b] = members as [(typeof members)[0], (typeof members)[0]];
    const admin = await newAdmin();
    const { gameId } = await enterGame(team.id, "Accepted", running());
    expect((await admin.client.json(`/api/admin/teams/${team.id}`, { method: "PUT", body: { locked: true } })).status).toBe(200);

    const calls = [
      captain.client.json<ErrorBody>(`/api/team/${team.id}/kick/${a.id}`, { method: "POST" }),
      b.client.json<ErrorBody>(`/api/team/${team.id}/leave`, { method: "POST" }),
      captain.client.json<ErrorBody>(`/api/team/${team.id}/transfer`, { method: "PUT", body: { newCaptainId: a.id } }),
      captain.client.json<ErrorBody>(`/api/team/${team.id}`, { method: "DELETE" }),
      (await newUser()).client.json<ErrorBody>("/api/team/accept", { method: "POST", body: code }),
    ];
    for (const r of await Promise.all(calls)) expect(r.body).toEqual({ title: LOCKED, status: 400 });
    expect(await memberIds(team.id)).toHaveLength(3);
    expect((await new Client().json<TeamInfo>(`/api/team/${team.id}`)).body.locked).toBe(true);
    const mine = async () => (await captain.client.json<MyTeamInfo[]>("/api/team")).body.find((t) => t.id === team.id);
    expect(await mine()).toMatchObject({ locked: true, lockInForce: true });

    // Once the game has ended the lock no longer holds.
    await db().update(games).set({ startTime: Date.now() - 2 * HOUR, endTime: Date.now() - HOUR }).where(eq(games.id, gameId));
    expect(await mine()).toMatchObject({ locked: true, lockInForce: false });
    expect((await b.client.json(`/api/team/${team.id}/leave`, { method: "POST" })).status).toBe(200);
  });

  it("holds for a suspended team too, so its members cannot leave and come back with another team", async () => {
    const { captain, team, members } = await teamWithMembers(2);
    const [a, b] = members as [(typeof members)[0], (typeof members)[0]];
    const admin = await newAdmin();
    const { gameId } = await enterGame(team.id, "Suspended", running());
    expect((await admin.client.json(`/api/admin/teams/${team.id}`, { method: "PUT", body: { locked: true } })).status).toBe(200);
    const calls = [
      b.client.json<ErrorBody>(`/api/team/${team.id}/leave`, { method: "POST" }),
      captain.client.json<ErrorBody>(`/api/team/${team.id}/kick/${a.id}`, { method: "POST" }),
      captain.client.json<ErrorBody>(`/api/team/${team.id}/transfer`, { method: "PUT", body: { newCaptainId: a.id } }),
    ];
    for (const r of await Promise.all(calls)) expect(r.body).toEqual({ title: LOCKED, status: 400 });
    expect((await captain.client.json<MyTeamInfo[]>("/api/team")).body.find((t) => t.id === team.id)).toMatchObject({ lockInForce: true });
    await db().update(games).set({ startTime: Date.now() - 2 * HOUR, endTime: Date.now() - HOUR }).where(eq(games.id, gameId));
    expect((await b.client.json(`/api/team/${team.id}/leave`, { method: "POST" })).status).toBe(200);
  });

  it("does not hold for a locked team without an accepted participation, nor after an admin unlock", async () => {
    const { captain, team, members } = await teamWithMembers(2);
    const admin = await newAdmin();
    await enterGame(team.id, "Rejected", running());
    await admin.client.json(`/api/admin/teams/${team.id}`, { method: "PUT", body: { locked: true } });
    expect((await captain.client.json(`/api/team/${team.id}/kick/${members[0]!.id}`, { method: "POST" })).status).toBe(200);

    const other = await teamWithMembers(1);
    await enterGame(other.team.id, "Accepted", running());
    await admin.client.json(`/api/admin/teams/${other.team.id}`, { method: "PUT", body: { locked: true } });
    expect((await other.members[0]!.client.json(`/api/team/${other.team.id}/leave`, { method: "POST" })).status).toBe(400);
    await admin.client.json(`/api/admin/teams/${other.team.id}`, { method: "PUT", body: { locked: false } });
    expect((await other.members[0]!.client.json(`/api/team/${other.team.id}/leave`, { method: "POST" })).status).toBe(200);
  });

  it("refuses a captain's disbanding of a team with results in a game, and says what blocks it in GET team", async () => {
    const { captain, team } = await teamWithMembers(0);
    const mine = async () => (await captain.client.json<MyTeamInfo[]>("/api/team")).body.find((t) => t.id === team.id);
    expect(await mine()).toMatchObject({ lockInForce: false, disbandBlockedBy: null });
    // Accepted in a game that has not started: no results yet.
    const { gameId } = await enterGame(team.id, "Accepted", { start: Date.now() + HOUR, end: Date.now() + 2 * HOUR });
    expect(await mine()).toMatchObject({ disbandBlockedBy: null });
    await db().update(games).set({ startTime: Date.now() - HOUR }).where(eq(games.id, gameId));
    expect(await mine()).toMatchObject({ disbandBlockedBy: "running" });
    await db().update(games).set({ startTime: Date.now() - 2 * HOUR, endTime: Date.now() - HOUR }).where(eq(games.id, gameId));
    expect(await mine()).toMatchObject({ disbandBlockedBy: "results" });
    const r = await captain.client.json<ErrorBody>(`/api/team/${team.id}`, { method: "DELETE" });
    expect(r.body).toEqual({ title: "This team has taken part in a game and its results stay on that game's scoreboard; only an admin can delete it", status: 400 });
    const zh = await captain.client.json<ErrorBody>(`/api/team/${team.id}`, { method: "DELETE", headers: { "accept-language": "zh-CN" } });
    expect(zh.body.title).toBe("该队伍已参加过比赛，其成绩会保留在该比赛的排行榜上；只有管理员可以删除它");
    expect((await new Client().json(`/api/team/${team.id}`)).status).toBe(200);
    // A suspended team's records stay too; a rejected one has none.
    await db().update(participations).set({ status: "Suspended" }).where(eq(participations.teamId, team.id));
    expect(await mine()).toMatchObject({ disbandBlockedBy: "results" });
    await db().update(participations).set({ status: "Rejected" }).where(eq(participations.teamId, team.id));
    expect(await mine()).toMatchObject({ disbandBlockedBy: null });
    expect((await captain.client.json(`/api/team/${team.id}`, { method: "DELETE" })).status).toBe(200);
  });

  it("refuses to disband an unlocked team that is in a running game, with a clear message", async () => {
    const { captain, team } = await teamWithMembers(0);
    await enterGame(team.id, "Accepted", running());
    const r = await captain.client.json<ErrorBody>(`/api/team/${team.id}`, { method: "DELETE" });
    expect(r.body).toEqual({ title: "This team is taking part in a running game and cannot be disbanded until the game ends", status: 400 });
    expect((await new Client().json(`/api/team/${team.id}`)).status).toBe(200);
  });
});

describe("team avatar", () => {
  const png = () =>
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
  const form = (bytes: Uint8Array<ArrayBuffer>, type: string) => {
    const fd = new FormData();
    fd.append("file", new File([bytes], "a.png", { type }));
    return fd;
  };

  it("stores an image by content for the captain and serves it", async () => {
    const { captain, team, members } = await teamWithMembers(1);
    const r = await captain.client.json<string>(`/api/team/${team.id}/avatar`, { method: "PUT", raw: form(png(), "image/png") });
    expect(r.status).toBe(200);
    expect(r.body).toMatch(/^\/assets\/[0-9a-f]{64}\/avatar$/);
    expect((await new Client().json<TeamInfo>(`/api/team/${team.id}`)).body.avatar).toBe(r.body);
    const asset = await new Client().fetch(r.body);
    expect(asset.status).toBe(200);
    expect(new Uint8Array(await asset.arrayBuffer())).toEqual(png());

    expect((await members[0]!.client.json(`/api/team/${team.id}/avatar`, { method: "PUT", raw: form(png(), "image/png") })).status).toBe(403);
  });

  it("refuses non-images (whatever their declared type), empty and oversize files", async () => {
    const { captain, team } = await teamWithMembers(0);
    const text = new TextEncoder().encode("<svg onload=alert(1)>");
    const bad = await captain.client.json<ErrorBody>(`/api/team/${team.id}/avatar`, { method: "PUT", raw: form(text, "image/png") });
    expect(bad.body).toEqual({ title: "Please check file format and size", status: 400 });
    const empty = await captain.client.json(`/api/team/${team.id}/avatar`, { method: "PUT", raw: form(new Uint8Array(), "image/png") });
    expect(empty.status).toBe(400);
    const big = new Uint8Array(3 * 1024 * 1024 + 1);
    big.set(png());
    const oversize = await captain.client.json(`/api/team/${team.id}/avatar`, { method: "PUT", raw: form(big, "image/png") });
    expect(oversize.status).toBe(400);
    expect((await new Client().json<TeamInfo>(`/api/team/${team.id}`)).body.avatar).toBeNull();
  });
});

describe("team token verification", () => {
  it("accepts a token signed with the game's key, 401 under another key, 400 when malformed", async () => {
    const game = await generateTeamTokenKeys();
    const other = await generateTeamTokenKeys();
    const teamToken = await signTeamToken(game.privateKey, 42);
    const c = new Client();
    expect((await c.json("/api/team/verify", { method: "POST", body: { teamToken, publicKey: game.publicKey } })).status).toBe(200);
    const wrongKey = await c.json<ErrorBody>("/api/team/verify", { method: "POST", body: { teamToken, publicKey: other.publicKey } });
    expect(wrongKey.body).toEqual({ title: "The team token signature is invalid", status: 401 });
    const malformed = await c.json("/api/team/verify", { method: "POST", body: { teamToken: "42:xyz", publicKey: game.publicKey } });
    expect(malformed.status).toBe(400);
    const badKey = await c.json("/api/team/verify", { method: "POST", body: { teamToken, publicKey: "AAAA" } });
    expect(badKey.status).toBe(400);
  });
});

describe("admin team management", () => {
  it("is for admins only", async () => {
    const { client } = await newUser();
    expect((await client.json("/api/admin/teams")).status).toBe(403);
    expect((await client.json("/api/admin/teams/search?hint=x", { method: "POST" })).status).toBe(403);
    expect((await new Client().json("/api/admin/teams")).status).toBe(401);
  });

  it("pages, searches, edits and deletes teams", async () => {
    const admin = await newAdmin();
    const marker = `Zq${Date.now().toString(36).slice(-6)}`;
    const created = [];
    for (let i = 0; i < 3; i++) created.push((await teamWithMembers(0)).team);
    for (const [i, t] of created.entries()) {
      expect((await admin.client.json(`/api/admin/teams/${t.id}`, { method: "PUT", body: { name: `${marker}_${i}` } })).status).toBe(200);
    }

    const page = await admin.client.json<ArrayResponse<TeamInfo>>("/api/admin/teams?count=2&skip=0");
    expect(page.body.length).toBe(2);
    expect(page.body.data).toHaveLength(2);
    expect(page.body.total).toBeGreaterThanOrEqual(3);
    expect((await admin.client.json("/api/admin/teams?count=501")).status).toBe(400);

    const found = await admin.client.json<ArrayResponse<TeamInfo>>(`/api/admin/teams/search?hint=${marker.toLowerCase()}`, { method: "POST" });
    expect(found.body.data.map((t) => t.id).sort()).toEqual(created.map((t) => t.id).sort());
    expect(found.body.total).toBe(3);
    const byId = await admin.client.json<ArrayResponse<TeamInfo>>(`/api/admin/teams/search?hint=${created[0]!.id}`, { method: "POST" });
    expect(byId.body.data.map((t) => t.id)).toContain(created[0]!.id);
    const wildcard = await admin.client.json<ArrayResponse<TeamInfo>>(`/api/admin/teams/search?hint=${marker}%25`, { method: "POST" });
    expect(wildcard.body.total).toBe(0);
    // Letters beyond ASCII match whatever their case (SQLite's LIKE folds ASCII only).
    expect((await admin.client.json(`/api/admin/teams/${created[2]!.id}`, { method: "PUT", body: { name: `Zürich${marker}` } })).status).toBe(200);
    for (const hint of [`ZÜRICH${marker}`, `zürich${marker.toLowerCase()}`, `Zürich${marker}`]) {
      const folded = await admin.client.json<ArrayResponse<TeamInfo>>(`/api/admin/teams/search?hint=${encodeURIComponent(hint)}`, { method: "POST" });
      expect(folded.body, hint).toMatchObject({ total: 1, data: [expect.objectContaining({ id: created[2]!.id })] });
    }

    const edited = await admin.client.json<TeamInfo>(`/api/admin/teams/${created[0]!.id}`, {
      method: "PUT",
      body: { bio: "edited by admin", locked: true },
    });
    expect(edited.body).toMatchObject({ bio: "edited by admin", locked: true, name: `${marker}_0` });
    expect((await admin.client.json(`/api/admin/teams/${created[0]!.id}`, { method: "PUT", body: { name: "" } })).status).toBe(400);
    expect((await admin.client.json(`/api/admin/teams/99999999`, { method: "PUT", body: { bio: "x" } })).status).toBe(404);

    expect((await admin.client.json(`/api/admin/teams/${created[1]!.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await admin.client.json(`/api/admin/teams/${created[1]!.id}`, { method: "DELETE" })).status).toBe(404);
    expect(await db().select().from(teams).where(eq(teams.id, created[1]!.id))).toEqual([]);
  });
});
