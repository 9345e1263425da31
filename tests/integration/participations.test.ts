import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { strFromU8, unzipSync } from "fflate";
import { joinGame } from "~/.server/services/participations";
import { kickMember, leaveTeam } from "~/.server/services/teams";
import { challenges, gameInstances, participationMembers, participations, teamMembers as teamMembersTable, teams } from "~/.server/db/schema";
import type { DetailedGameInfo, ParticipationInfo } from "~/core/schemas/game";
import { parseTeamToken, parsePublicKey, verifyTeamToken } from "~/core/team-token";
import { createGame, createTeam, type ErrorBody, HOUR, join, newAdmin, room, teamWithMembers, updateGame } from "./game-helpers";
import { Client, db, newUser } from "./helpers";

async function participationOf(gameId: number, teamId: number) {
  return db()
    .select()
    .from(participations)
    .where(and(eq(participations.gameId, gameId), eq(participations.teamId, teamId)))
    .get();
}

async function review(admin: Client, id: number, status: string, body?: unknown) {
  return admin.json<ErrorBody>(`/api/admin/participation/${id}/${status}`, { method: "PUT", body });
}

async function statusOf(client: Client, gameId: number) {
  return (await client.json<DetailedGameInfo>(`/api/game/${gameId}`)).body.status;
}

describe("joining a game", () => {
  it("needs a signed-in user with a team they belong to", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin);
    expect((await new Client().json(`/api/game/${g.id}`, { method: "POST", body: { teamId: 1 } })).status).toBe(401);
    const { client: lonely } = await newUser();
    const none = await join(lonely, g.id, { teamId: 1 });
    expect(none.status).toBe(400);
    expect(none.body.title).toMatch(/need a team/);
    const other = await teamWithMembers();
    await createTeam(lonely);
    const notMine = await join(lonely, g.id, { teamId: other.team.id });
    expect(notMine.status).toBe(400);
    expect(notMine.body.title).toBe("You are not a member of this team");
    expect((await join(lonely, 999999999, { teamId: other.team.id })).status).toBe(404);
    expect((await join(lonely, g.id, {})).status).toBe(400);
  });

  it("creates a Pending participation with a verifiable team token", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin);
    const { captain, team } = await teamWithMembers();
    const r = await join(captain.client, g.id, { teamId: team.id });
    expect(r.status).toBe(200);
    expect(r.body.title).toMatch(/waiting for review/);
    const p = (await participationOf(g.id, team.id))!;
    expect(p.status).toBe("Pending");
    const token = parseTeamToken(p.token)!;
    expect(token.teamId).toBe(team.id);
    expect(await verifyTeamToken(token, parsePublicKey(g.publicKey)!)).toBe(true);
    expect(await statusOf(captain.client, g.id)).toBe("Pending");
    const twice = await join(captain.client, g.id, { teamId: team.id });
    expect(twice.status).toBe(400);
    expect(twice.body.title).toBe("You have already joined this game");
  });

  it("registers both members of a team joining at the same moment", async () => {
    const { client: admin } = await newAdmin();
    for (const acceptWithoutReview of [false, true]) {
      const g = await createGame(admin, { acceptWithoutReview });
      const { captain, team, members } = await teamWithMembers(2);
      const everyone = [captain, ...members];
      const results = await Promise.all(everyone.map((u) => join(u.client, g.id, { teamId: team.id })));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      const p = (await participationOf(g.id, team.id))!;
      expect(p.status).toBe(acceptWithoutReview ? "Accepted" : "Pending");
      const regs = await db().select().from(participationMembers).where(eq(participationMembers.gameId, g.id)).all();
      expect(regs.map((r) => [r.participationId, r.userId]).sort()).toEqual(everyone.map((u) => [p.id, u.id]).sort());
    }
  });

  it("registers both members when their joins interleave in the service", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin);
    const { captain, team, members } = await teamWithMembers(1);
    const now = Date.now();
    const statuses = await Promise.all([captain, members[0]!].map((u) => joinGame({ db: db(), now }, u.id, g.id, { teamId: team.id })));
    expect(statuses).toEqual(["Pending", "Pending"]);
    const p = (await participationOf(g.id, team.id))!;
    const regs = await db().select().from(participationMembers).where(eq(participationMembers.gameId, g.id)).all();
    expect(regs.map((r) => [r.participationId, r.userId]).sort()).toEqual([[p.id, captain.id], [p.id, members[0]!.id]].sort());
  });

  it("never keeps the registration of a member who leaves or is kicked while joining", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin);
    for (const how of ["leave", "kick"] as const) {
      const { captain, team, members } = await teamWithMembers(1);
      const joining = members[0]!;
      expect((await join(captain.client, g.id, { teamId: team.id })).status).toBe(200);
      const deps = { db: db(), bucket: env.FILES, now: Date.now() };
      const removal = how === "leave" ? leaveTeam(deps, joining.id, team.id) : kickMember(deps, captain.id, team.id, joining.id);
      const [joined, removed] = await Promise.allSettled([joinGame(deps, joining.id, g.id, { teamId: team.id }), removal]);
      expect(removed.status, how).toBe("fulfilled");
      if (joined.status === "rejected") expect(String((joined.reason as Error).message), how).toMatch(/not_team_member/);
      // Only the captain stays registered, and the one who left can join with a team of their own.
      const p = (await participationOf(g.id, team.id))!;
      const regs = await db().select().from(participationMembers).where(eq(participationMembers.participationId, p.id)).all();
      expect(regs.map((r) => r.userId), how).toEqual([captain.id]);
      const own = await createTeam(joining.client);
      expect((await join(joining.client, g.id, { teamId: own.id })).status, how).toBe(200);
    }
  });

  it("starts over when another member's leave drops the participation the join just made", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin);
    const { team, members } = await teamWithMembers(2);
    const [joining, leaving] = members as [(typeof members)[number], (typeof members)[number]];
    const deps = { db: db(), bucket: env.FILES, now: Date.now() };
    // The other member leaves right before the registration is written: the participation the join made,
    // still without members, goes with that leave (as an empty Pending one does).
    let left = false;
    const racing = new Proxy(deps.db, {
      get(target, prop, receiver) {
        if (prop !== "all" || left) return Reflect.get(target, prop, receiver);
        return async (query: Parameters<typeof target.all>[0]) => {
          left = true;
          await leaveTeam(deps, leaving.id, team.id);
          return target.all(query);
        };
      },
    });
    expect(await joinGame({ ...deps, db: racing }, joining.id, g.id, { teamId: team.id })).toBe("Pending");
    expect(left).toBe(true);
    const p = (await participationOf(g.id, team.id))!;
    const regs = await db().select().from(participationMembers).where(eq(participationMembers.participationId, p.id)).all();
    expect(regs.map((r) => r.userId)).toEqual([joining.id]);
  });

  it("answers a join whose team is deleted just before its acceptance with 'no team', not a FOREIGN KEY failure", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin, { acceptWithoutReview: true });
    // An enabled challenge: the acceptance prepares its instance for the (gone) participation.
    const c = (await admin.json<{ id: number }>(`/api/edit/games/${g.id}/challenges`, { method: "POST", body: { title: "c", category: "Web", type: "StaticAttachment" } })).body;
    await admin.json(`/api/edit/games/${g.id}/challenges/${c.id}/flags`, { method: "POST", body: [{ flag: "flag{x}" }] });
    expect((await admin.json(`/api/edit/games/${g.id}/challenges/${c.id}`, { method: "PUT", body: { isEnabled: true } })).status).toBe(200);
    const { captain, team } = await teamWithMembers(0);
    const deps = { db: db(), now: Date.now() };
    // The team's deletion lands between the registration and the acceptance's writes.
    let deleted = false;
    const racing = new Proxy(deps.db, {
      get(target, prop, receiver) {
        if (prop !== "batch" || deleted) return Reflect.get(target, prop, receiver);
        return async (...args: Parameters<typeof target.batch>) => {
          deleted = true;
          await target.delete(teams).where(eq(teams.id, team.id)).run();
          return target.batch(...args);
        };
      },
    });
    await expect(joinGame({ ...deps, db: racing }, captain.id, g.id, { teamId: team.id })).rejects.toMatchObject({ code: "game.no_team" });
    expect(deleted).toBe(true);
    expect(await participationOf(g.id, team.id)).toBeUndefined();
    expect(await db().select().from(gameInstances).where(eq(gameInstances.challengeId, c.id)).all()).toEqual([]);
  });

  it("accepts at once without review, locks the team and prepares instances", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin, { acceptWithoutReview: true });
    const [ch] = await db().insert(challenges).values({ gameId: g.id, title: "c", type: "StaticAttachment", isEnabled: true }).returning();
    await db().insert(challenges).values({ gameId: g.id, title: "off", type: "StaticAttachment", isEnabled: false });
    const { captain, team, members } = await teamWithMembers(1);
    const r = await join(captain.client, g.id, { teamId: team.id });
    expect(r.status).toBe(200);
    const p = (await participationOf(g.id, team.id))!;
    expect(p.status).toBe("Accepted");
    expect((await db().select().from(teams).where(eq(teams.id, team.id)).get())!.locked).toBe(true);
    const inst = await db().select().from(gameInstances).where(eq(gameInstances.participationId, p.id)).all();
    expect(inst.map((i) => i.challengeId)).toEqual([ch!.id]);
    // The lock is in force: the captain cannot kick, the member cannot leave the team.
    const kick = await captain.client.json<ErrorBody>(`/api/team/${team.id}/kick/${members[0]!.id}`, { method: "POST" });
    expect(kick.status).toBe(400);
    expect(kick.body.title).toMatch(/locked/);
    // A second member joins the accepted participation.
    expect((await join(members[0]!.client, g.id, { teamId: team.id })).status).toBe(200);
    const regs = await db().select().from(participationMembers).where(eq(participationMembers.participationId, p.id)).all();
    expect(regs).toHaveLength(2);
    expect(await statusOf(members[0]!.client, g.id)).toBe("Accepted");
    expect((await new Client().json<DetailedGameInfo>(`/api/game/${g.id}`)).body.teamCount).toBe(1);
  });

  it("enforces the game's invitation code", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin, { inviteCode: "s3cret" });
    const { captain, team } = await teamWithMembers();
    const empty = await join(captain.client, g.id, { teamId: team.id });
    expect(empty.status).toBe(400);
    expect(empty.body.title).toBe("Invitation code cannot be empty");
    const ja = new Client({ lang: "ja-JP" });
    ja.cookie = captain.client.cookie;
    expect((await join(ja, g.id, { teamId: team.id, inviteCode: "" })).body.title).toBe("招待コードを入力してください");
    const wrong = await join(captain.client, g.id, { teamId: team.id, inviteCode: "nope" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.title).toBe("Incorrect team invitation code");
    expect((await join(captain.client, g.id, { teamId: team.id, inviteCode: "s3cret" })).status).toBe(200);
  });

  it("requires a joinable division and uses its code instead of the game's", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin, {
      inviteCode: "game-code",
      divisions: [
        { name: "Students", inviteCode: "stu-code" },
        { name: "Open" },
        { name: "Invited only", defaultPermissions: 2147483647 - 1 },
        // Without RequireReview: accepted at once.
        { name: "Auto", defaultPermissions: 2147483647 - 4 },
      ],
    });
    const [students, open, invited, auto] = g.divisions;
    const { captain, team } = await teamWithMembers();
    const need = await join(captain.client, g.id, { teamId: team.id, inviteCode: "game-code" });
    expect(need.status).toBe(400);
    expect(need.body.title).toBe("Please choose a division");
    expect((await join(captain.client, g.id, { teamId: team.id, divisionId: 999999999, inviteCode: "game-code" })).body.title).toMatch(/division does not exist/);
    expect((await join(captain.client, g.id, { teamId: team.id, divisionId: invited!.id, inviteCode: "game-code" })).status).toBe(400);
    expect((await join(captain.client, g.id, { teamId: team.id, divisionId: students!.id, inviteCode: "game-code" })).body.title).toBe("Incorrect team invitation code");
    expect((await join(captain.client, g.id, { teamId: team.id, divisionId: students!.id, inviteCode: "stu-code" })).status).toBe(200);
    expect((await participationOf(g.id, team.id))!.divisionId).toBe(students!.id);

    const second = await teamWithMembers();
    expect((await join(second.captain.client, g.id, { teamId: second.team.id, divisionId: open!.id, inviteCode: "stu-code" })).status).toBe(400);
    expect((await join(second.captain.client, g.id, { teamId: second.team.id, divisionId: open!.id, inviteCode: "game-code" })).status).toBe(200);
    expect((await participationOf(g.id, second.team.id))!.status).toBe("Pending");

    const third = await teamWithMembers();
    expect((await join(third.captain.client, g.id, { teamId: third.team.id, divisionId: auto!.id, inviteCode: "game-code" })).status).toBe(200);
    expect((await participationOf(g.id, third.team.id))!.status).toBe("Accepted");
  });

  it("lets a later member join in the team's division, asking the code the game page names for that team", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin, {
      inviteCode: "game-code",
      divisions: [{ name: "Students", inviteCode: "stu-code" }, { name: "Open" }, { name: "Closed", defaultPermissions: 0 }],
    });
    const [students, open, closed] = g.divisions;
    const { captain, team, members } = await teamWithMembers(2);
    const detailOf = async (client: Client) => (await client.json<DetailedGameInfo>(`/api/game/${g.id}`)).body;
    expect((await detailOf(members[0]!.client)).teamParticipations).toEqual([]);
    expect((await join(captain.client, g.id, { teamId: team.id, divisionId: students!.id, inviteCode: "stu-code" })).status).toBe(200);
    expect((await detailOf(members[0]!.client)).teamParticipations).toEqual([{ teamId: team.id, division: students!.id, status: "Pending", inviteCodeRequired: true, members: 1 }]);
    // Only the caller's own teams are named.
    expect((await detailOf((await newUser()).client)).teamParticipations).toEqual([]);
    expect((await detailOf(new Client())).teamParticipations).toEqual([]);

    // A division sent is no choice: the team's stands, and its code is the one asked.
    const otherCode = await join(members[0]!.client, g.id, { teamId: team.id, divisionId: open!.id, inviteCode: "game-code" });
    expect(otherCode.body.title).toBe("Incorrect team invitation code");
    expect(otherCode.res.headers.get("x-error-field")).toBe("inviteCode");
    expect((await join(members[0]!.client, g.id, { teamId: team.id, divisionId: closed!.id, inviteCode: "stu-code" })).status).toBe(200);
    expect((await join(members[1]!.client, g.id, { teamId: team.id, inviteCode: "stu-code" })).status).toBe(200);
    expect((await participationOf(g.id, team.id))!.divisionId).toBe(students!.id);
    expect((await detailOf(members[1]!.client)).status).toBe("Pending");

    // A team registered without a division (none was open then): its members give the game's code.
    const late = await teamWithMembers(1);
    const g2 = await createGame(admin, { inviteCode: "game-code" });
    expect((await join(late.captain.client, g2.id, { teamId: late.team.id, inviteCode: "game-code" })).status).toBe(200);
    const withDivision = await updateGame(admin, g2.id, { divisions: [{ name: "Students", inviteCode: "stu-code" }] });
    const added = withDivision.body.divisions[0]!;
    const lateDetail = (await late.members[0]!.client.json<DetailedGameInfo>(`/api/game/${g2.id}`)).body;
    expect(lateDetail.teamParticipations).toEqual([{ teamId: late.team.id, division: null, status: "Pending", inviteCodeRequired: true, members: 1 }]);
    expect((await join(late.members[0]!.client, g2.id, { teamId: late.team.id, divisionId: added.id, inviteCode: "stu-code" })).status).toBe(400);
    expect((await join(late.members[0]!.client, g2.id, { teamId: late.team.id, divisionId: added.id, inviteCode: "game-code" })).status).toBe(200);
    expect((await participationOf(g2.id, late.team.id))!.divisionId).toBeNull();
  });

  it("refuses joining with a second team and over the member limit", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin, { teamMemberCountLimit: 2 });
    const first = await teamWithMembers(2);
    expect((await join(first.captain.client, g.id, { teamId: first.team.id })).status).toBe(200);
    expect((await join(first.members[0]!.client, g.id, { teamId: first.team.id })).status).toBe(200);
    const over = await join(first.members[1]!.client, g.id, { teamId: first.team.id });
    expect(over.status).toBe(400);
    expect(over.body.title).toMatch(/member limit/);
    // members[1] also belongs to another team, which may join; then members[0] cannot join with it.
    const other = await createTeam(first.members[1]!.client);
    expect((await join(first.members[1]!.client, g.id, { teamId: other.id })).status).toBe(200);
    const code = (await first.members[1]!.client.json<string>(`/api/team/${other.id}/invite`)).body;
    expect((await first.members[0]!.client.json("/api/team/accept", { method: "POST", body: code })).status).toBe(200);
    const twice = await join(first.members[0]!.client, g.id, { teamId: other.id });
    expect(twice.status).toBe(400);
    expect(twice.body.title).toMatch(/another team/);
  });

  it("names in the game detail what the Join dialog refuses before asking: the team's members and status, the caller's team", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin, { teamMemberCountLimit: 2 });
    const first = await teamWithMembers(2);
    const detailOf = async (client: Client) => (await client.json<DetailedGameInfo>(`/api/game/${g.id}`)).body;
    expect((await detailOf(first.members[1]!.client)).teamId).toBeNull();
    expect((await detailOf(new Client())).teamId).toBeNull();
    expect((await join(first.captain.client, g.id, { teamId: first.team.id })).status).toBe(200);
    expect((await join(first.members[0]!.client, g.id, { teamId: first.team.id })).status).toBe(200);
    // The team's registered members fill the limit: a third member sees it before asking.
    const third = await detailOf(first.members[1]!.client);
    expect(third.teamParticipations).toEqual([{ teamId: first.team.id, division: null, status: "Pending", inviteCodeRequired: false, members: 2 }]);
    expect(third.teamId).toBeNull();
    expect(third.limit).toBe(2);
    // The caller's own team, whatever its status (a Rejected one is no longer in teamParticipations).
    expect((await detailOf(first.captain.client)).teamId).toBe(first.team.id);
    const p = (await participationOf(g.id, first.team.id))!;
    expect((await review(admin, p.id, "Rejected")).status).toBe(200);
    const rejected = await detailOf(first.captain.client);
    expect(rejected.status).toBe("Rejected");
    expect(rejected.teamId).toBe(first.team.id);
    expect(rejected.teamParticipations).toEqual([]);
    // Suspended: every member's detail says so, also one not registered.
    expect((await review(admin, p.id, "Suspended")).status).toBe(200);
    expect((await detailOf(first.members[1]!.client)).teamParticipations).toEqual([
      { teamId: first.team.id, division: null, status: "Suspended", inviteCodeRequired: false, members: 2 },
    ]);
  });

  it("lets a rejected team re-apply and bans a suspended one", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin);
    const { captain, team } = await teamWithMembers();
    await join(captain.client, g.id, { teamId: team.id });
    const p = (await participationOf(g.id, team.id))!;
    expect((await review(admin, p.id, "rejected")).status).toBe(200);
    expect(await statusOf(captain.client, g.id)).toBe("Rejected");
    expect((await join(captain.client, g.id, { teamId: team.id })).status).toBe(200);
    expect(await statusOf(captain.client, g.id)).toBe("Pending");
    expect((await review(admin, p.id, "SUSPENDED")).status).toBe(200);
    const banned = await join(captain.client, g.id, { teamId: team.id });
    expect(banned.status).toBe(403);
    expect(banned.body.title).toBe("You have been banned");
  });

  it("follows the game phases: join before the start and after the end only in practice mode", async () => {
    const { client: admin } = await newAdmin();
    const now = Date.now();
    const future = await createGame(admin, { start: now + HOUR, end: now + 2 * HOUR });
    const practice = await createGame(admin, { start: now - 2 * HOUR, end: now - HOUR });
    const closed = await createGame(admin, { start: now - 2 * HOUR, end: now - HOUR, practiceMode: false });
    const { captain, team } = await teamWithMembers();
    expect((await join(captain.client, future.id, { teamId: team.id })).status).toBe(200);
    expect((await join(captain.client, practice.id, { teamId: team.id })).status).toBe(200);
    const ended = await join(captain.client, closed.id, { teamId: team.id });
    expect(ended.status).toBe(400);
    expect(ended.body).toEqual({ title: "The game has ended", status: 10002 });
    // Turning practice mode off closes the ended game too.
    await updateGame(admin, practice.id, { practiceMode: false });
    const other = await teamWithMembers();
    expect((await join(other.captain.client, practice.id, { teamId: other.team.id })).body.status).toBe(10002);
  });
});

describe("leaving a game", () => {
  it("is allowed while Pending or Rejected and removes the participation with its last member", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin);
    const { captain, team, members } = await teamWithMembers(1);
    const notJoined = await captain.client.json<ErrorBody>(`/api/game/${g.id}`, { method: "DELETE" });
    expect(notJoined.status).toBe(400);
    expect(notJoined.body.title).toBe("You have not joined this game");
    await join(captain.client, g.id, { teamId: team.id });
    await join(members[0]!.client, g.id, { teamId: team.id });
    expect((await captain.client.json(`/api/game/${g.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await statusOf(captain.client, g.id)).toBe("Unsubmitted");
    const p = (await participationOf(g.id, team.id))!;
    expect(p).toBeTruthy();
    await review(admin, p.id, "Rejected");
    expect((await members[0]!.client.json(`/api/game/${g.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await participationOf(g.id, team.id)).toBeUndefined();
  });

  it("is refused once Accepted or Suspended", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin);
    const { captain, team } = await teamWithMembers();
    await join(captain.client, g.id, { teamId: team.id });
    const p = (await participationOf(g.id, team.id))!;
    await review(admin, p.id, "Accepted");
    const refused = await captain.client.json<ErrorBody>(`/api/game/${g.id}`, { method: "DELETE" });
    expect(refused.status).toBe(400);
    expect(refused.body.title).toMatch(/pending or rejected/);
    await review(admin, p.id, "Suspended");
    expect((await captain.client.json(`/api/game/${g.id}`, { method: "DELETE" })).status).toBe(400);
  });
});

describe("admin review", () => {
  it("lists participations with members and registered members (Admin only)", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin, { divisions: [{ name: "D" }] });
    const { captain, team, members } = await teamWithMembers(1);
    await join(captain.client, g.id, { teamId: team.id, divisionId: g.divisions[0]!.id });
    expect((await captain.client.json(`/api/game/${g.id}/participations`)).status).toBe(403);
    const r = await admin.json<ParticipationInfo[]>(`/api/game/${g.id}/participations`);
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(1);
    const [row] = r.body;
    expect(row).toMatchObject({
      status: "Pending",
      divisionId: g.divisions[0]!.id,
      registeredMembers: [captain.id],
      team: { id: team.id, name: team.name, locked: false, captainId: captain.id },
    });
    expect(row!.team.members.map((m) => m.userId).sort()).toEqual([captain.id, members[0]!.id].sort());
    expect(row!.team.members[0]).toHaveProperty("email");
    expect((await admin.json(`/api/game/999999999/participations`)).status).toBe(404);
  });

  it("answers an unchanged participation list 304 to its ETag, and changes the ETag with any field of it", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin);
    const { captain, team, members } = await teamWithMembers(1);
    await join(captain.client, g.id, { teamId: team.id });
    const path = `/api/game/${g.id}/participations`;
    const read = async (etag?: string) => {
      const res = await admin.fetch(path, { headers: etag ? { "if-none-match": etag } : {} });
      return { status: res.status, text: await res.text(), etag: res.headers.get("etag"), cacheControl: res.headers.get("cache-control") };
    };
    const first = await read();
    expect(first).toMatchObject({ status: 200, cacheControl: "private, no-cache" });
    expect(first.etag).toMatch(/^W\//);
    // The review page's 10-s refresh of an unchanged list: no body.
    expect(await read(first.etag!)).toMatchObject({ status: 304, text: "", etag: first.etag });

    // A member's own details (not the participation) are in the answer too.
    expect((await members[0]!.client.json("/api/account/update", { method: "PUT", body: { phone: "+1 555 0199" } })).status).toBe(200);
    const profileChanged = await read(first.etag!);
    expect(profileChanged.status).toBe(200);
    expect(profileChanged.text).toContain("+1 555 0199");
    expect(profileChanged.etag).not.toBe(first.etag);

    const p = (await participationOf(g.id, team.id))!;
    expect((await review(admin, p.id, "Accepted")).status).toBe(200);
    const reviewed = await read(profileChanged.etag!);
    expect(reviewed.status).toBe(200);
    expect(reviewed.etag).not.toBe(profileChanged.etag);
    expect(await read(reviewed.etag!)).toMatchObject({ status: 304 });
    // Another admin's If-None-Match of the same list is just as good (the tag is of the body).
    const { client: other } = await newAdmin();
    expect((await other.fetch(path, { headers: { "if-none-match": reviewed.etag! } })).status).toBe(304);
  });

  it("accepts, rejects, suspends, changes the division and validates input", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin, { divisions: [{ name: "A" }, { name: "B" }] });
    const otherGame = await createGame(admin, { divisions: [{ name: "X" }] });
    const { captain, team } = await teamWithMembers();
    await join(captain.client, g.id, { teamId: team.id, divisionId: g.divisions[0]!.id });
    const p = (await participationOf(g.id, team.id))!;
    expect((await review(admin, p.id, "Unsubmitted")).status).toBe(400);
    expect((await review(admin, p.id, "bogus")).body).toEqual({ title: "Unknown parameter: the participation status must be Accepted, Rejected, Suspended or Pending", status: 400 });
    expect((await review(admin, 999999999, "Accepted")).status).toBe(404);
    expect((await review(admin, p.id, "Accepted", { divisionId: otherGame.divisions[0]!.id })).status).toBe(400);
    expect((await participationOf(g.id, team.id))!.status).toBe("Pending");
    expect((await review(captain.client, p.id, "Accepted")).status).toBe(403);

    expect((await review(admin, p.id, "accepted", { divisionId: g.divisions[1]!.id })).status).toBe(200);
    const after = (await participationOf(g.id, team.id))!;
    expect(after).toMatchObject({ status: "Accepted", divisionId: g.divisions[1]!.id });
    expect((await db().select().from(teams).where(eq(teams.id, team.id)).get())!.locked).toBe(true);

    const variant = await admin.json(`/api/admin/participation/${p.id}`, { method: "PUT", body: { status: "Rejected", divisionId: g.divisions[0]!.id } });
    expect(variant.status).toBe(200);
    expect((await participationOf(g.id, team.id))!).toMatchObject({ status: "Rejected", divisionId: g.divisions[0]!.id });
    expect((await admin.json(`/api/admin/participation/${p.id}`, { method: "PUT", body: { status: "nope" } })).status).toBe(400);
    expect((await admin.json(`/api/admin/participation/${p.id}`, { method: "PUT", body: { divisionId: g.divisions[1]!.id } })).status).toBe(200);
    expect((await participationOf(g.id, team.id))!).toMatchObject({ status: "Rejected", divisionId: g.divisions[1]!.id });
  });

  it("lets a hidden game's accepted players see it live, others not", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin, { hidden: true });
    const { captain, team } = await teamWithMembers();
    await join(captain.client, g.id, { teamId: team.id });
    expect((await captain.client.fetch(`/hub/game/${g.id}`, { headers: { upgrade: "websocket" } })).status).toBe(403);
    const p = (await participationOf(g.id, team.id))!;
    await review(admin, p.id, "Accepted");
    const res = await captain.client.fetch(`/hub/game/${g.id}`, { headers: { upgrade: "websocket" } });
    expect(res.status).toBe(101);
    res.webSocket!.accept();
    res.webSocket!.close(1000);
  });
});

describe("leaving the team after playing a game", () => {
  async function makeChallenge(admin: Client, gameId: number, flag: string): Promise<number> {
    const created = await admin.json<{ id: number }>(`/api/edit/games/${gameId}/challenges`, { method: "POST", body: { title: "left", category: "Web", type: "StaticAttachment" } });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect((await admin.json(`/api/edit/games/${gameId}/challenges/${id}/flags`, { method: "POST", body: [{ flag }] })).status).toBe(200);
    expect((await admin.json(`/api/edit/games/${gameId}/challenges/${id}`, { method: "PUT", body: { isEnabled: true } })).status).toBe(200);
    return id;
  }

  const submitFlag = (client: Client, gameId: number, cid: number) =>
    client.json<number | ErrorBody>(`/api/game/${gameId}/challenges/${cid}`, { method: "POST", body: { flag: "flag{stay}" } });

  /** The same signed-in user asking in another language. */
  const speaking = (client: Client, lang: string) => Object.assign(new Client({ lang }), { cookie: client.cookie });

  async function participationsOf(admin: Client, gameId: number) {
    return (await admin.json<ParticipationInfo[]>(`/api/game/${gameId}/participations`)).body;
  }

  /** The whole text of the scoreboard sheet (shared strings and cells). */
  async function scoreboardSheetText(admin: Client, gameId: number): Promise<string> {
    const res = await admin.fetch(`/api/game/${gameId}/scoreboardsheet`);
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    return Object.entries(files)
      .filter(([name]) => name.startsWith("xl/"))
      .map(([, bytes]) => strFromU8(bytes))
      .join("\n");
  }

  /** Alpha (alice captain, bob member) accepted into a running practice-mode game; bob has solved its challenge. */
  async function playedGame(fields: Record<string, unknown> = {}) {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin, { acceptWithoutReview: true, practiceMode: true, ...fields });
    const cid = await makeChallenge(admin, g.id, "flag{stay}");
    const { captain: alice, team: alpha, members } = await teamWithMembers(1);
    const bob = members[0]!;
    for (const u of [alice, bob]) expect((await join(u.client, g.id, { teamId: alpha.id })).status).toBe(200);
    expect((await submitFlag(bob.client, g.id, cid)).status).toBe(200);
    await room(g.id).settle(g.id);
    return { admin, g, cid, alice, alpha, bob };
  }

  it("keeps the member registered with the team in that game, not playing for it, until they rejoin the team", async () => {
    const { admin, g, cid, alice, alpha, bob } = await playedGame();
    // Another game of the team, still waiting for review: bob's registration there goes as before.
    const later = await createGame(admin, { start: Date.now() + HOUR, end: Date.now() + 2 * HOUR });
    for (const u of [alice, bob]) expect((await join(u.client, later.id, { teamId: alpha.id })).status).toBe(200);
    // The game ends, and the team lock with it (rules.md §2): bob may leave.
    expect((await updateGame(admin, g.id, { end: Date.now() - 1 })).status).toBe(200);
    expect((await bob.client.json(`/api/team/${alpha.id}/leave`, { method: "POST" })).status).toBe(200);

    // Still registered through Alpha in the ended game: in the admin's list (as a member who left) and in the crew.
    const [played] = await participationsOf(admin, g.id);
    expect(played!.registeredMembers.sort()).toEqual([alice.id, bob.id].sort());
    expect(played!.team.members.map((m) => m.userId)).toEqual([alice.id]);
    expect(played!.formerMembers.map((m) => m.userName)).toEqual([bob.userName]);
    expect(await scoreboardSheetText(admin, g.id)).toContain(bob.userName);
    // The Pending registration went, the participation stays with alice.
    const [pending] = await participationsOf(admin, later.id);
    expect(pending!.registeredMembers).toEqual([alice.id]);
    expect(pending!.formerMembers).toEqual([]);

    // Bob plays in the game no more, and is told why.
    expect((await bob.client.json<DetailedGameInfo>(`/api/game/${g.id}`)).body).toMatchObject({ status: "Unsubmitted", teamId: null, teamName: null, leftTeamName: alpha.name });
    expect((await alice.client.json<DetailedGameInfo>(`/api/game/${g.id}`)).body).toMatchObject({ status: "Accepted", teamId: alpha.id, leftTeamName: null });
    expect((await submitFlag(bob.client, g.id, cid)).body).toEqual({ title: "You have left the team you played this game for, and no longer play in it", status: 403 });
    expect((await submitFlag(speaking(bob.client, "zh-CN"), g.id, cid)).body).toEqual({ title: "你已离开在此比赛中所属的队伍，不能再参与此比赛", status: 403 });
    expect((await bob.client.json<ErrorBody>(`/api/game/${g.id}/details`)).body.status).toBe(403);
    expect((await bob.client.json<ErrorBody>(`/api/game/${g.id}/challenges/${cid}`)).body).toEqual({
      title: "You have left the team you played this game for, and no longer play in it",
      status: 403,
    });
    expect((await bob.client.json(`/api/game/${g.id}/writeup`)).status).toBe(403);
    // Alice plays on.
    expect((await submitFlag(alice.client, g.id, cid)).status).toBe(200);
    expect((await alice.client.json(`/api/game/${g.id}/details`)).status).toBe(200);
    expect((await alice.client.json(`/api/game/${g.id}/writeup`)).status).toBe(200);
    // A hidden game's feed is for its players: not bob's any more.
    expect((await updateGame(admin, g.id, { hidden: true })).status).toBe(200);
    const feed = async (client: Client) => {
      const res = await client.fetch(`/hub/game/${g.id}`, { headers: { upgrade: "websocket" } });
      res.webSocket?.accept();
      res.webSocket?.close(1000);
      return res.status;
    };
    expect(await feed(bob.client)).toBe(403);
    expect(await feed(alice.client)).toBe(101);

    // One team per game (rules.md §2): bob's own team is refused in this game, not in the one he left.
    const delta = await createTeam(bob.client);
    expect((await join(bob.client, g.id, { teamId: delta.id })).body).toEqual({ title: "You have already joined this game with another team", status: 400 });
    expect((await join(speaking(bob.client, "ja-JP"), g.id, { teamId: delta.id })).body).toEqual({ title: "この大会には既に別のチームで参加しています", status: 400 });
    expect((await join(bob.client, later.id, { teamId: delta.id })).status).toBe(200);
    expect(await participationOf(g.id, delta.id)).toBeUndefined();

    // Back in Alpha, bob plays for it again.
    const code = (await alice.client.json<string>(`/api/team/${alpha.id}/invite`)).body;
    expect((await bob.client.json("/api/team/accept", { method: "POST", body: code })).status).toBe(200);
    expect((await bob.client.json<DetailedGameInfo>(`/api/game/${g.id}`)).body).toMatchObject({ status: "Accepted", teamId: alpha.id, leftTeamName: null });
    expect((await submitFlag(bob.client, g.id, cid)).status).toBe(200);
    expect(await feed(bob.client)).toBe(101);
    expect((await participationsOf(admin, g.id))[0]!.formerMembers).toEqual([]);
  });

  it("counts toward the member limit only the registered members still in the team: one who left makes room for another", async () => {
    const { admin, g, alice, alpha, bob } = await playedGame({ teamMemberCountLimit: 2 });
    expect((await updateGame(admin, g.id, { end: Date.now() - 1 })).status).toBe(200);
    expect((await bob.client.json(`/api/team/${alpha.id}/leave`, { method: "POST" })).status).toBe(200);
    const code = (await alice.client.json<string>(`/api/team/${alpha.id}/invite`)).body;
    const [carol, dave] = [await newUser(), await newUser()];
    for (const u of [carol, dave]) expect((await u.client.json("/api/team/accept", { method: "POST", body: code })).status).toBe(200);
    // What the Join dialog checks before Join: alice alone takes a place.
    const places = async (client: Client) => (await client.json<DetailedGameInfo>(`/api/game/${g.id}`)).body.teamParticipations.map((p) => [p.teamId, p.members]);
    expect(await places(carol.client)).toEqual([[alpha.id, 1]]);
    expect((await join(carol.client, g.id, { teamId: alpha.id })).status).toBe(200);
    // The limit is full again with alice and carol.
    expect(await places(dave.client)).toEqual([[alpha.id, 2]]);
    expect((await join(dave.client, g.id, { teamId: alpha.id })).body).toEqual({ title: "The team has reached this game's member limit", status: 400 });
    // Bob stays registered through Alpha (the crew), as a member who left.
    const [played] = await participationsOf(admin, g.id);
    const carolId = played!.team.members.find((m) => m.userName === carol.userName)!.userId;
    expect(played!.registeredMembers.sort()).toEqual([alice.id, bob.id, carolId].sort());
    expect(played!.formerMembers.map((m) => m.userName)).toEqual([bob.userName]);
  });

  it("answers a member who left and asks to leave the game that their registration stays as the record of the team's play", async () => {
    const { admin, g, alice, alpha, bob } = await playedGame();
    expect((await updateGame(admin, g.id, { end: Date.now() - 1 })).status).toBe(200);
    expect((await bob.client.json(`/api/team/${alpha.id}/leave`, { method: "POST" })).status).toBe(200);
    expect((await bob.client.json(`/api/game/${g.id}`, { method: "DELETE" })).body).toEqual({
      title: "You left the team you played this game for: your registration stays as a record of the team's play, and cannot be withdrawn",
      status: 400,
    });
    expect((await speaking(bob.client, "ja-JP").json(`/api/game/${g.id}`, { method: "DELETE" })).body).toEqual({
      title: "この大会に参加したチームを離れています。登録はチームの参加記録として残り、取り消すことはできません",
      status: 400,
    });
    expect((await participationsOf(admin, g.id))[0]!.registeredMembers.sort()).toEqual([alice.id, bob.id].sort());
    // A member who plays on is refused as before.
    expect((await alice.client.json<ErrorBody>(`/api/game/${g.id}`, { method: "DELETE" })).body.title).toBe("You can only leave while your registration is pending or rejected");
  });

  it("frees a member who left once the team is rejected: they see the rejection, may leave it and join with another team", async () => {
    const { admin, g, alice, alpha, bob } = await playedGame();
    expect((await updateGame(admin, g.id, { end: Date.now() - 1 })).status).toBe(200);
    expect((await bob.client.json(`/api/team/${alpha.id}/leave`, { method: "POST" })).status).toBe(200);
    expect((await bob.client.json<DetailedGameInfo>(`/api/game/${g.id}`)).body).toMatchObject({ status: "Unsubmitted", leftTeamName: alpha.name });
    const played = await participationOf(g.id, alpha.id);
    expect((await review(admin, played!.id, "Rejected")).status).toBe(200);
    // The rejected registration records no play: bob sees its status (the page offers Leave then), still as a
    // team he left (no "My team", no Apply again: the page's Join needs leftTeamName null).
    expect((await bob.client.json<DetailedGameInfo>(`/api/game/${g.id}`)).body).toMatchObject({ status: "Rejected", teamId: null, teamName: null, leftTeamName: alpha.name });
    expect(await statusOf(alice.client, g.id)).toBe("Rejected");
    expect((await bob.client.json(`/api/game/${g.id}`, { method: "DELETE" })).status).toBe(200);
    const bravo = await createTeam(bob.client);
    expect((await join(bob.client, g.id, { teamId: bravo.id })).status).toBe(200);
    expect(await statusOf(bob.client, g.id)).toBe("Accepted");
    // Alice keeps the rejected registration of the team she is still in.
    expect((await participationOf(g.id, alpha.id))?.status).toBe("Rejected");
  });

  it("tells a member who left, on the writeup calls too, that they left the team: public and hidden game, reading and uploading", async () => {
    const { admin, g, alice, alpha, bob } = await playedGame({ writeupRequired: true, writeupDeadline: Date.now() + 2 * HOUR });
    expect((await updateGame(admin, g.id, { end: Date.now() - 1 })).status).toBe(200);
    expect((await bob.client.json(`/api/team/${alpha.id}/leave`, { method: "POST" })).status).toBe(200);
    const pdf = () => {
      const body = new FormData();
      body.append("file", new File([new TextEncoder().encode("%PDF-1.4\n% left\n%%EOF\n")], "writeup.pdf", { type: "application/pdf" }));
      return body;
    };
    const en = { title: "You have left the team you played this game for, and no longer play in it", status: 403 };
    const ja = { title: "この大会で所属していたチームを離れたため、この大会ではもうプレイできません", status: 403 };
    for (const hidden of [false, true]) {
      expect((await updateGame(admin, g.id, { hidden })).status).toBe(200);
      // The game page is theirs to open, hidden or not (their registration stays).
      expect((await bob.client.json<DetailedGameInfo>(`/api/game/${g.id}`)).body).toMatchObject({ leftTeamName: alpha.name });
      expect((await bob.client.json(`/api/game/${g.id}/writeup`)).body).toEqual(en);
      expect((await speaking(bob.client, "ja-JP").json(`/api/game/${g.id}/writeup`)).body).toEqual(ja);
      expect((await bob.client.json(`/api/game/${g.id}/writeup`, { method: "POST", raw: pdf() })).body).toEqual(en);
      expect((await speaking(bob.client, "ja-JP").json(`/api/game/${g.id}/writeup`, { method: "POST", raw: pdf() })).body).toEqual(ja);
      // Alice plays on: she reads the team's writeup state.
      expect((await alice.client.json(`/api/game/${g.id}/writeup`)).status).toBe(200);
    }
    // Nothing was stored for the team by bob's uploads.
    expect((await alice.client.json<{ submitted: boolean }>(`/api/game/${g.id}/writeup`)).body.submitted).toBe(false);
    // An outsider to the hidden game still hears that the game does not exist.
    expect((await (await newUser()).client.json<ErrorBody>(`/api/game/${g.id}/writeup`)).status).toBe(404);
  });

  it("tells a member who left that they left the team when they read a hidden game's notices; a public game's stay open to them", async () => {
    const { admin, g, alice, alpha, bob } = await playedGame();
    // The game ends, and the team lock with it (rules.md §2): bob may leave.
    expect((await updateGame(admin, g.id, { end: Date.now() - 1, hidden: true })).status).toBe(200);
    expect((await bob.client.json(`/api/team/${alpha.id}/leave`, { method: "POST" })).status).toBe(200);
    const en = { title: "You have left the team you played this game for, and no longer play in it", status: 403 };
    const ja = { title: "この大会で所属していたチームを離れたため、この大会ではもうプレイできません", status: 403 };
    expect((await bob.client.json(`/api/game/${g.id}/notices`)).body).toEqual(en);
    expect((await speaking(bob.client, "ja-JP").json(`/api/game/${g.id}/notices`)).body).toEqual(ja);
    // Alice plays on; an outsider still hears the generic refusal.
    expect((await alice.client.json(`/api/game/${g.id}/notices`)).status).toBe(200);
    expect((await (await newUser()).client.json<ErrorBody>(`/api/game/${g.id}/notices`)).body).toEqual({ title: "Access denied", status: 403 });
    // A public game's notices are everyone's to read, bob's too.
    expect((await updateGame(admin, g.id, { hidden: false })).status).toBe(200);
    expect((await bob.client.json(`/api/game/${g.id}/notices`)).status).toBe(200);
  });

  it("lets a member who left play again when an admin's user import puts them back into the team", async () => {
    const { admin, g, cid, alpha, bob } = await playedGame();
    expect((await updateGame(admin, g.id, { end: Date.now() - 1 })).status).toBe(200);
    expect((await bob.client.json(`/api/team/${alpha.id}/leave`, { method: "POST" })).status).toBe(200);
    expect((await submitFlag(bob.client, g.id, cid)).status).toBe(403);
    const imported = await admin.json<{ userName: string; result: string }[]>("/api/admin/users", {
      method: "POST",
      body: [{ userName: bob.userName, password: "Bb345678", email: `${bob.userName}@example.com`, teamName: alpha.name }],
    });
    expect(imported.body).toEqual([{ userName: bob.userName, result: "updated" }]);
    // The import reset bob's password (and ended his sessions).
    const again = new Client();
    expect((await again.json("/api/account/login", { method: "POST", body: { userName: bob.userName, password: "Bb345678" } })).status).toBe(200);
    expect((await submitFlag(again, g.id, cid)).status).toBe(200);
  });

  it("refuses an admin's user import into a locked team that is suspended in a running game, as its members' own changes", async () => {
    const { admin, g, alpha } = await playedGame();
    const p = (await participationOf(g.id, alpha.id))!;
    await review(admin, p.id, "Suspended");
    const userName = `imp${Date.now().toString(36)}`.slice(0, 15);
    const imported = await admin.json<{ userName: string; result: string }[]>("/api/admin/users", {
      method: "POST",
      body: [{ userName, password: "Bb345678", email: `${userName}@example.com`, teamName: alpha.name }],
    });
    // The user is saved; the team refuses them, as it would refuse its own members' changes.
    expect(imported.body).toHaveLength(1);
    expect(imported.body[0]!.result).toContain("The team is locked while it plays an approved game");
    const members = await db().select().from(teamMembersTable).where(eq(teamMembersTable.teamId, alpha.id)).all();
    expect(members).toHaveLength(2);
  });

  it("keeps a kicked member's registration until an admin deletes the team, which takes it along", async () => {
    const { admin, g, cid, alice, alpha, bob } = await playedGame();
    expect((await updateGame(admin, g.id, { end: Date.now() - 1 })).status).toBe(200);
    expect((await alice.client.json(`/api/team/${alpha.id}/kick/${bob.id}`, { method: "POST" })).status).toBe(200);
    expect((await participationsOf(admin, g.id))[0]!.registeredMembers.sort()).toEqual([alice.id, bob.id].sort());
    expect((await submitFlag(bob.client, g.id, cid)).status).toBe(403);
    const delta = await createTeam(bob.client);
    expect((await join(bob.client, g.id, { teamId: delta.id })).status).toBe(400);

    // The team goes with its results and its registrations: bob is free in this game.
    expect((await admin.json(`/api/admin/teams/${alpha.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await participationsOf(admin, g.id)).toEqual([]);
    expect((await bob.client.json<DetailedGameInfo>(`/api/game/${g.id}`)).body).toMatchObject({ status: "Unsubmitted", teamId: null, leftTeamName: null });
    expect((await submitFlag(bob.client, g.id, cid)).body).toMatchObject({ status: 403, title: "You have not joined this game: join it with your team from the game's page" });
    expect((await join(bob.client, g.id, { teamId: delta.id })).status).toBe(200);
  });
});
