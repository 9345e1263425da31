import { and, count, eq, inArray, not, sql } from "drizzle-orm";
import { GamePermission, type ParticipationStatus } from "~/core/enums";
import { badRequest, conflict, forbidden, notFound } from "~/core/errors";
import { expectedInviteCode, keepsDivision } from "~/core/game/join";
import { assertJoinable } from "~/core/game/phase";
import type { JoinGameInput, ParticipationInfo, ParticipationMemberInfo, ReviewStatus } from "~/core/schemas/game";
import { signTeamToken } from "~/core/team-token";
import { avatarUrl } from "../auth/session";
import type { Db } from "../db/client";
import {
  challenges,
  type Division,
  divisions,
  gameInstances,
  participationMembers,
  participations,
  teamMembers,
  teams,
  type User,
  users,
  writeups,
} from "../db/schema";
import { releaseFile } from "../storage/files";
import { callerRegistration, playingMembers, stillInTeam } from "./game-access";
import { requireGame } from "./games";

export interface ParticipationDeps {
  db: Db;
  now: number;
}

/** Whether a division needs review: a game accepting without review, or a division lacking RequireReview, does not. */
function initialStatus(acceptWithoutReview: boolean, division: Division | null): ParticipationStatus {
  if (acceptWithoutReview) return "Accepted";
  if (division && (division.defaultPermissions & GamePermission.RequireReview) === 0) return "Accepted";
  return "Pending";
}

/**
 * Effects of acceptance (rules.md §2): the team is locked and has one instance per enabled challenge (its
 * flag is attached lazily on first open).
 */
function acceptanceWrites(db: Db, participationId: number, gameId: number, teamId: number) {
  return [
    db.update(teams).set({ locked: true }).where(eq(teams.id, teamId)),
    db
      .insert(gameInstances)
      .select(
        db
          .select({
            // Every column in table order (drizzle's insert-select); a null id takes the next rowid.
            id: sql<number>`null`.as("id"),
            participationId: sql<number>`${participationId}`.as("participation_id"),
            challengeId: challenges.id,
            flagId: sql<number | null>`null`.as("flag_id"),
            flag: sql<string | null>`null`.as("flag"),
            lastContainerOperation: sql<number>`0`.as("last_container_operation"),
          })
          .from(challenges)
          // Nothing for a participation gone meanwhile (its team deleted): no FOREIGN KEY failure.
          .where(and(eq(challenges.gameId, gameId), eq(challenges.isEnabled, true), sql`exists (select 1 from ${participations} where id = ${participationId})`)),
      )
      .onConflictDoNothing(),
  ] as const;
}

async function runAcceptance(db: Db, participationId: number, gameId: number, teamId: number): Promise<void> {
  const [lock, instances] = acceptanceWrites(db, participationId, gameId, teamId);
  await db.batch([lock, instances]);
}

/**
 * POST game/{id}: registers the caller with one of their teams, checking in the order of rules.md §2.
 */
export async function joinGame(deps: ParticipationDeps, userId: string, gameId: number, input: JoinGameInput): Promise<ParticipationStatus> {
  // Members of one team joining at once all see the same participation (or none); whoever loses the write
  // joins again and is added to the participation that won, as if it had been there all along.
  for (let attempt = 1; ; attempt++) {
    const status = await tryJoinGame(deps, userId, gameId, input);
    if (status) return status;
    if (attempt >= 3) throw badRequest("game.already_joined");
  }
}

/** One pass of joinGame; null when a concurrent join of the same team changed its participation first. */
async function tryJoinGame({ db, now }: ParticipationDeps, userId: string, gameId: number, input: JoinGameInput): Promise<ParticipationStatus | null> {
  const game = await requireGame(db, gameId);
  assertJoinable({ startTime: game.startTime, endTime: game.endTime, practiceMode: game.practiceMode }, now);

  const myTeams = await db.select({ teamId: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, userId)).all();
  if (myTeams.length === 0) throw badRequest("game.no_team");
  if (!myTeams.some((m) => m.teamId === input.teamId)) throw badRequest("game.not_team_member");

  const existing = await db
    .select()
    .from(participations)
    .where(and(eq(participations.gameId, gameId), eq(participations.teamId, input.teamId)))
    .get();
  if (existing?.status === "Suspended") throw forbidden("game.banned");

  const divisionRows = await db.select().from(divisions).where(eq(divisions.gameId, gameId)).all();
  const joinable = divisionRows.filter((d) => (d.defaultPermissions & GamePermission.JoinGame) !== 0);
  let division: Division | null = null;
  if (existing && keepsDivision(existing.status)) {
    // A member joining a team already registered joins in the team's division (or none): a division sent
    // is not a choice here, and the code asked is that of the team's division (the game page says so).
    division = divisionRows.find((d) => d.id === existing.divisionId) ?? null;
  } else if (input.divisionId != null) {
    division = joinable.find((d) => d.id === input.divisionId) ?? null;
    if (!division) throw badRequest("game.division_unknown");
  } else if (joinable.length > 0) {
    throw badRequest("game.division_required");
  }

  const expectedCode = expectedInviteCode(game.inviteCode, division);
  if (expectedCode) {
    const given = (input.inviteCode ?? "").trim();
    if (!given) throw badRequest("game.invite_code_required");
    if (given !== expectedCode) throw badRequest("game.invite_code_incorrect");
  }

  const registered = await db
    .select({ participationId: participationMembers.participationId })
    .from(participationMembers)
    .where(and(eq(participationMembers.gameId, gameId), eq(participationMembers.userId, userId)))
    .get();
  if (registered && registered.participationId !== existing?.id) throw badRequest("game.already_in_other_team");
  if (registered && existing && existing.status !== "Rejected") throw badRequest("game.already_joined");

  // The limit counts the members who play: one who left the team keeps a registration (teams.ts
  // removeMember) but no longer takes a place, so the team can bring in someone else.
  if (game.teamMemberCountLimit > 0 && existing && !registered) {
    const members = await db
      .select({ n: count() })
      .from(participationMembers)
      .innerJoin(participations, eq(participations.id, participationMembers.participationId))
      .where(and(eq(participationMembers.participationId, existing.id), stillInTeam))
      .get();
    if ((members?.n ?? 0) >= game.teamMemberCountLimit) throw badRequest("game.member_limit");
  }

  const status = existing && existing.status !== "Rejected" ? existing.status : initialStatus(game.acceptWithoutReview, division);
  let participationId: number;
  if (!existing) {
    const token = await signTeamToken(game.privateKey, input.teamId);
    const created = await db
      .insert(participations)
      .values({ gameId, teamId: input.teamId, divisionId: division?.id ?? null, status, token })
      .onConflictDoNothing()
      .returning({ id: participations.id })
      .get();
    if (!created) return null;
    participationId = created.id;
  } else {
    participationId = existing.id;
    if (existing.status === "Rejected") {
      const updated = await db
        .update(participations)
        .set({ status, divisionId: division?.id ?? null })
        .where(and(eq(participations.id, existing.id), eq(participations.status, "Rejected")))
        .returning({ id: participations.id })
        .get();
      if (!updated) return null;
    }
  }

  if (!registered) {
    // The insert re-checks what a concurrent request may have changed since the reads above: the member
    // limit, the caller's membership (a leave or kick in between would otherwise leave a registration in a
    // team they are no longer in) and the participation itself (another member's leave drops an empty one).
    const limit = game.teamMemberCountLimit;
    const inserted = await db.all<{ user_id: string }>(sql`insert into ${participationMembers} (participation_id, game_id, user_id)
      select ${participationId}, ${gameId}, ${userId}
      where (${limit} = 0 or ${playingMembers(participationId, input.teamId)} < ${limit})
        and exists (select 1 from ${teamMembers} where team_id = ${input.teamId} and user_id = ${userId})
        and exists (select 1 from ${participations} where id = ${participationId})
      on conflict do nothing returning user_id`);
    if (inserted.length === 0) {
      const again = await db
        .select({ participationId: participationMembers.participationId })
        .from(participationMembers)
        .where(and(eq(participationMembers.gameId, gameId), eq(participationMembers.userId, userId)))
        .get();
      if (again && again.participationId !== participationId) throw badRequest("game.already_in_other_team");
      if (!again) {
        await dropIfEmpty(db, participationId);
        const member = await db
          .select({ teamId: teamMembers.teamId })
          .from(teamMembers)
          .where(and(eq(teamMembers.teamId, input.teamId), eq(teamMembers.userId, userId)))
          .get();
        if (!member) throw badRequest("game.not_team_member");
        const stillThere = await db.select({ id: participations.id }).from(participations).where(eq(participations.id, participationId)).get();
        if (!stillThere) return null;
        throw badRequest("game.member_limit");
      }
    }
  }
  if (status === "Accepted") {
    await runAcceptance(db, participationId, gameId, input.teamId);
    // The team may have been deleted meanwhile (its participation with it): the caller then has no team.
    const kept = await db.select({ id: participations.id }).from(participations).where(eq(participations.id, participationId)).get();
    if (!kept) {
      const member = await db.select({ teamId: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, userId)).get();
      if (!member) throw badRequest("game.no_team");
      return null;
    }
  }
  return status;
}

async function dropIfEmpty(db: Db, participationId: number): Promise<void> {
  await db
    .delete(participations)
    .where(
      and(
        eq(participations.id, participationId),
        sql`not exists (select 1 from ${participationMembers} where participation_id = ${participationId})`,
        inArray(participations.status, ["Pending", "Rejected"]),
      ),
    )
    .run();
}

/**
 * DELETE game/{id}: leaves a game, only while Pending or Rejected; when the last registered member leaves,
 * the participation goes, and its writeup file is released. A member who left the team keeps the
 * registration of a game the team played (teams.ts removeMember): it records who played for the team, and
 * is not theirs to withdraw — they are told so (`game.left_team_record`), not to wait for a review.
 */
export async function leaveGame({ db, bucket }: ParticipationDeps & { bucket: R2Bucket }, userId: string, gameId: number): Promise<void> {
  await requireGame(db, gameId);
  const row = await callerRegistration(db, gameId, userId);
  if (!row) throw badRequest("game.not_joined");
  if (row.status !== "Pending" && row.status !== "Rejected") throw badRequest(row.playing ? "game.leave_refused" : "game.left_team_record");
  // A Rejected team may have uploaded a writeup while it was Accepted: its row goes with the participation.
  const writeup = await db.select({ hash: writeups.fileHash }).from(writeups).where(eq(writeups.participationId, row.id)).get();
  const [gone, removed] = await db.batch([
    db
      .delete(participationMembers)
      .where(
        and(
          eq(participationMembers.participationId, row.id),
          eq(participationMembers.userId, userId),
          sql`exists (select 1 from ${participations} where id = ${row.id} and status in ('Pending', 'Rejected'))`,
        ),
      )
      .returning({ userId: participationMembers.userId }),
    db
      .delete(participations)
      .where(
        and(
          eq(participations.id, row.id),
          inArray(participations.status, ["Pending", "Rejected"]),
          sql`not exists (select 1 from ${participationMembers} where participation_id = ${row.id})`,
        ),
      )
      .returning({ id: participations.id }),
  ]);
  if (gone.length === 0) throw badRequest("game.leave_refused");
  if (removed.length > 0 && writeup) await releaseFile({ db, bucket }, writeup.hash);
}

function toMemberInfo(user: User): ParticipationMemberInfo {
  return {
    userId: user.id,
    userName: user.userName,
    email: user.email,
    bio: user.bio,
    phone: user.phone,
    realName: user.realName,
    stdNumber: user.stdNumber,
    avatar: avatarUrl(user.avatarHash),
    role: user.role,
  };
}

/**
 * GET game/{id}/participations (Admin): every team with its members and registered members, and the
 * registered members who have left the team since (they stay in the game's crew of that team).
 */
export async function listParticipations(db: Db, gameId: number): Promise<ParticipationInfo[]> {
  await requireGame(db, gameId);
  const rows = await db
    .select({ p: participations, team: teams })
    .from(participations)
    .innerJoin(teams, eq(teams.id, participations.teamId))
    .where(eq(participations.gameId, gameId))
    .orderBy(participations.id)
    .all();
  if (rows.length === 0) return [];
  // A subquery, not the list of team ids: D1 binds at most 100 parameters and a game has more teams.
  const teamsOfGame = db.select({ id: participations.teamId }).from(participations).where(eq(participations.gameId, gameId));
  const [members, registered, departed] = await Promise.all([
    db
      .select({ teamId: teamMembers.teamId, user: users })
      .from(teamMembers)
      .innerJoin(users, eq(users.id, teamMembers.userId))
      .where(inArray(teamMembers.teamId, teamsOfGame))
      .orderBy(users.userNameKey)
      .all(),
    db
      .select({ participationId: participationMembers.participationId, userId: participationMembers.userId })
      .from(participationMembers)
      .where(eq(participationMembers.gameId, gameId))
      .all(),
    db
      .select({ participationId: participationMembers.participationId, user: users })
      .from(participationMembers)
      .innerJoin(participations, eq(participations.id, participationMembers.participationId))
      .innerJoin(users, eq(users.id, participationMembers.userId))
      .where(and(eq(participationMembers.gameId, gameId), not(stillInTeam)))
      .orderBy(users.userNameKey)
      .all(),
  ]);
  return rows.map(({ p, team }) => ({
    id: p.id,
    team: {
      id: team.id,
      locked: team.locked,
      captainId: team.captainId,
      name: team.name,
      bio: team.bio,
      avatar: avatarUrl(team.avatarHash),
      members: members.filter((m) => m.teamId === team.id).map(({ user }) => toMemberInfo(user)),
    },
    registeredMembers: registered.filter((r) => r.participationId === p.id).map((r) => r.userId),
    formerMembers: departed.filter((r) => r.participationId === p.id).map(({ user }) => toMemberInfo(user)),
    divisionId: p.divisionId,
    status: p.status,
  }));
}

/**
 * PUT admin/participation/{id}/{status}: sets the review status and optionally the division (of the same
 * game). Accepted locks the team and prepares its challenge instances. `expectedStatus` (optional, the status
 * the caller's page showed): when the stored status is another, nothing is written and the call is refused
 * with 409, so a stale tab's decision never replaces one made meanwhile (a Reject lifting a Suspension).
 */
/** The participation a review changed: its game and team, for the admin log to name them. */
export interface ReviewedParticipation {
  gameId: number;
  teamId: number;
  teamName: string;
}

export async function reviewParticipation(
  { db }: ParticipationDeps,
  participationId: number,
  change: { status?: ReviewStatus | null; divisionId?: number | null; expectedStatus?: ParticipationStatus | null },
): Promise<ReviewedParticipation> {
  const p = await db.select().from(participations).where(eq(participations.id, participationId)).get();
  if (!p) throw notFound("participation.not_found");
  const team = await db.select({ name: teams.name }).from(teams).where(eq(teams.id, p.teamId)).get();
  const reviewed: ReviewedParticipation = { gameId: p.gameId, teamId: p.teamId, teamName: team?.name ?? "" };
  const expected = change.expectedStatus ?? null;
  if (expected !== null && p.status !== expected) throw conflict("participation.status_changed");
  const set: { status?: ParticipationStatus; divisionId?: number } = {};
  if (change.status) set.status = change.status;
  if (change.divisionId != null) {
    const division = await db
      .select({ id: divisions.id })
      .from(divisions)
      .where(and(eq(divisions.id, change.divisionId), eq(divisions.gameId, p.gameId)))
      .get();
    if (!division) throw badRequest("game.division_unknown");
    set.divisionId = division.id;
  }
  if (Object.keys(set).length === 0) return reviewed;
  // The check above again, in the write itself (D1 holds no read across statements): a status changed since
  // sets NULL into the NOT NULL column, so the statement fails, and with it the batch it leads (the
  // acceptance's lock and instances).
  const values = expected === null ? set : { ...set, status: sql`case when ${participations.status} = ${expected} then ${set.status ?? participations.status} end` };
  const update = db.update(participations).set(values).where(eq(participations.id, participationId));
  try {
    if (set.status === "Accepted") {
      const [lock, instances] = acceptanceWrites(db, p.id, p.gameId, p.teamId);
      await db.batch([update, lock, instances]);
    } else {
      await update.run();
    }
  } catch (err) {
    if (expected !== null && /NOT NULL constraint failed: participations\.status/i.test(String((err as { cause?: unknown })?.cause ?? err))) {
      throw conflict("participation.status_changed");
    }
    throw err;
  }
  return reviewed;
}
