import { and, count, desc, eq, inArray, or, sql } from "drizzle-orm";
import { badRequest, forbidden, notFound, unauthorized } from "~/core/errors";
import type { AdminTeamUpdateInput, ArrayResponse, MyTeamInfo, TeamCreateInput, TeamInfo, TeamUpdateInput } from "~/core/schemas/team";
import { ADMIN_TEAM_SEARCH_MAX } from "~/core/schemas/team";
import { formatInviteCode, generateInviteToken, parseInviteCode } from "~/core/team-invite";
import { parsePublicKey, parseTeamToken, verifyTeamToken } from "~/core/team-token";
import { foldText, isAsciiHint } from "~/core/text-fold";
import { avatarUrl } from "../auth/session";
import { inChunks } from "../db/chunks";
import { gamesOfTeam } from "./room";
import type { Db } from "../db/client";
import { games, participationMembers, participations, type Team, teamMembers, teams, trafficCaptures, users, writeups } from "../db/schema";
import { IMAGE_LIMIT, releaseFile, storeUpload } from "../storage/files";

export interface TeamDeps {
  db: Db;
  now: number;
}

export interface TeamStorageDeps extends TeamDeps {
  bucket: R2Bucket;
}

/** Deleting a team: its containers would outlive their rows (they go by cascade), so they are destroyed first. */
export interface TeamRemovalDeps extends TeamStorageDeps {
  /** Destroys the team's live containers (containers.ts); called once the deletion is allowed, before it. */
  destroyContainers: (teamId: number) => Promise<unknown>;
}

/** What a team's deletion takes with it by cascade that lives in storage too: writeups and traffic captures. */
interface StoredFilesOfTeam {
  writeupHashes: string[];
  captureKeys: string[];
}

async function storedFilesOfTeam(db: Db, teamId: number): Promise<StoredFilesOfTeam> {
  const ofTeam = db.select({ id: participations.id }).from(participations).where(eq(participations.teamId, teamId));
  const [written, captured] = await Promise.all([
    db.select({ hash: writeups.fileHash }).from(writeups).where(inArray(writeups.participationId, ofTeam)).all(),
    db.select({ key: trafficCaptures.r2Key }).from(trafficCaptures).where(inArray(trafficCaptures.participationId, ofTeam)).all(),
  ]);
  return { writeupHashes: written.map((r) => r.hash), captureKeys: captured.map((r) => r.key) };
}

/** Once the team's rows are gone: its writeups' files lose a reference, its captures are removed. */
async function releaseStoredFiles({ db, bucket }: Pick<TeamStorageDeps, "db" | "bucket">, stored: StoredFilesOfTeam): Promise<void> {
  for (const hash of stored.writeupHashes) await releaseFile({ db, bucket }, hash);
  await inChunks(stored.captureKeys, async (part) => {
    await bucket.delete(part);
    return part;
  });
}

function isUniqueViolation(err: unknown): boolean {
  const text = String((err as { cause?: unknown })?.cause ?? err);
  return /UNIQUE constraint failed/i.test(text);
}

/**
 * SQL condition "the team lock is in force" (rules.md §2): the team is locked and has an Accepted
 * participation in a game that has not ended. A Suspended one holds the lock too: otherwise a banned
 * team's members could leave (or hand over captaincy and leave) and come back to the game with a new team.
 * Used both to diagnose and inside conditional writes, so a lock set concurrently is still honoured.
 */
const lockInForce = (teamId: number | typeof teams.id, now: number) => sql`exists (
  select 1 from ${teams} t
  where t.id = ${teamId} and t.locked = 1 and exists (
    select 1 from ${participations} p join ${games} g on g.id = p.game_id
    where p.team_id = t.id and p.status in ('Accepted', 'Suspended') and g.end_time > ${now}
  )
)`;

/** Whether the team's lock is in force (rules.md §2: locked, and Accepted or Suspended in a game not ended). */
export async function isLockInForce(db: Db, teamId: number, now: number): Promise<boolean> {
  const row = await db.get<{ v: number }>(sql`select ${lockInForce(teamId, now)} as v`);
  return Boolean(row?.v);
}

/**
 * SQL condition "the team has results": Accepted or Suspended in a game that has started. Its solves,
 * bloods and records stand on that game's board, lists and exports; a captain's disbanding would take them
 * along (by cascade), so only an admin deletes such a team.
 */
const hasResults = (teamId: number | typeof teams.id, now: number) => sql`exists (
  select 1 from ${participations} p join ${games} g on g.id = p.game_id
  where p.team_id = ${teamId} and p.status in ('Accepted', 'Suspended') and g.start_time <= ${now}
)`;

/** SQL condition "the team takes part in a game now running (any status but Rejected)". */
const inRunningGame = (teamId: number | typeof teams.id, now: number) => sql`exists (
  select 1 from ${participations} p join ${games} g on g.id = p.game_id
  where p.team_id = ${teamId} and p.status <> 'Rejected' and g.start_time <= ${now} and g.end_time > ${now}
)`;

/** A team that takes part in a game now running (any status but Rejected). */
async function isInRunningGame(db: Db, teamId: number, now: number): Promise<boolean> {
  const row = await db.get<{ v: number }>(sql`select ${inRunningGame(teamId, now)} as v`);
  return Boolean(row?.v);
}

async function requireTeam(db: Db, teamId: number): Promise<Team> {
  const team = await db.select().from(teams).where(eq(teams.id, teamId)).get();
  if (!team) throw notFound("team.not_found");
  return team;
}

function requireCaptain(team: Team, userId: string): void {
  if (team.captainId !== userId) throw forbidden("team.captain_only");
}

async function isMember(db: Db, teamId: number, userId: string): Promise<boolean> {
  const row = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    .get();
  return Boolean(row);
}

async function assertLockNotInForce(db: Db, teamId: number, now: number): Promise<void> {
  if (await isLockInForce(db, teamId, now)) throw badRequest("team.locked");
}

/** TeamInfoModel of each team, members read in one query a chunk of teams; the captain is listed first. */
async function toTeamInfos(db: Db, rows: Team[]): Promise<TeamInfo[]> {
  if (rows.length === 0) return [];
  const members = await inChunks(
    rows.map((r) => r.id),
    (teamIds) =>
      db
        .select({
          teamId: teamMembers.teamId,
          id: users.id,
          userName: users.userName,
          bio: users.bio,
          avatarHash: users.avatarHash,
        })
        .from(teamMembers)
        .innerJoin(users, eq(users.id, teamMembers.userId))
        .where(inArray(teamMembers.teamId, teamIds))
        .orderBy(users.userNameKey)
        .all(),
  );
  return rows.map((team) => ({
    id: team.id,
    name: team.name,
    bio: team.bio,
    avatar: avatarUrl(team.avatarHash),
    locked: team.locked,
    members: members
      .filter((m) => m.teamId === team.id)
      .map((m) => ({ id: m.id, userName: m.userName, bio: m.bio, avatar: avatarUrl(m.avatarHash), captain: m.id === team.captainId }))
      .sort((a, b) => Number(b.captain) - Number(a.captain)),
  }));
}

async function toTeamInfo(db: Db, team: Team): Promise<TeamInfo> {
  const [info] = await toTeamInfos(db, [team]);
  return info!;
}

export async function getTeamInfo(db: Db, teamId: number): Promise<TeamInfo> {
  return toTeamInfo(db, await requireTeam(db, teamId));
}

/** The teams the user belongs to (captain or member), each with whether its lock is in force now and what keeps it from being disbanded. */
export async function listMyTeams(db: Db, userId: string, now: number): Promise<MyTeamInfo[]> {
  const rows = await db
    .select({
      team: teams,
      lockInForce: sql<number>`${lockInForce(teams.id, now)}`,
      running: sql<number>`${inRunningGame(teams.id, now)}`,
      results: sql<number>`${hasResults(teams.id, now)}`,
    })
    .from(teams)
    .innerJoin(teamMembers, eq(teamMembers.teamId, teams.id))
    .where(eq(teamMembers.userId, userId))
    .orderBy(teams.id)
    .all();
  const infos = await toTeamInfos(
    db,
    rows.map((r) => r.team),
  );
  return infos.map((info, i) => {
    const row = rows[i]!;
    const disbandBlockedBy = row.lockInForce ? "locked" : row.running ? "running" : row.results ? "results" : null;
    return { ...info, lockInForce: Boolean(row.lockInForce), disbandBlockedBy };
  });
}

/** Creates a team captained by the user; the unique captain index settles concurrent creations. */
export async function createTeam({ db }: TeamDeps, userId: string, input: TeamCreateInput): Promise<TeamInfo> {
  const owned = await db.select({ id: teams.id }).from(teams).where(eq(teams.captainId, userId)).get();
  if (owned) throw badRequest("team.already_captain");
  try {
    await db.batch([
      db.insert(teams).values({ name: input.name, bio: input.bio ?? "", captainId: userId, inviteToken: generateInviteToken() }),
      db
        .insert(teamMembers)
        .select(sql`select id, ${userId} from ${teams} where captain_id = ${userId}`)
        .onConflictDoNothing(),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest("team.already_captain");
    throw err;
  }
  const team = await db.select().from(teams).where(eq(teams.captainId, userId)).get();
  return toTeamInfo(db, team!);
}

export async function updateTeam({ db }: TeamDeps, userId: string, teamId: number, input: TeamUpdateInput): Promise<TeamInfo> {
  const team = await requireTeam(db, teamId);
  requireCaptain(team, userId);
  const set: Partial<Pick<Team, "name" | "bio">> = {};
  if (input.name != null) set.name = input.name;
  if (input.bio != null) set.bio = input.bio;
  if (Object.keys(set).length > 0) await db.update(teams).set(set).where(eq(teams.id, teamId)).run();
  return getTeamInfo(db, teamId);
}

/** Disbands the team: captain only, never while locked or taking part in a running game. */
/** Disbands a team; returns the games it had joined (their rooms must rebuild: its submissions went with it). */
export async function deleteTeam({ db, now, bucket, destroyContainers }: TeamRemovalDeps, userId: string, teamId: number): Promise<number[]> {
  const team = await requireTeam(db, teamId);
  requireCaptain(team, userId);
  await assertLockNotInForce(db, teamId, now);
  if (await isInRunningGame(db, teamId, now)) throw badRequest("team.in_running_game");
  const results = await db.get<{ v: number }>(sql`select ${hasResults(teamId, now)} as v`);
  if (results?.v) throw badRequest("team.has_results");
  const games = await gamesOfTeam(db, teamId);
  // A game that has ended in practice mode still runs containers.
  await destroyContainers(teamId);
  const stored = await storedFilesOfTeam(db, teamId);
  const gone = await db
    .delete(teams)
    .where(and(eq(teams.id, teamId), eq(teams.captainId, userId), sql`not ${lockInForce(teamId, now)}`))
    .returning({ avatarHash: teams.avatarHash })
    .get();
  if (!gone) throw badRequest("team.locked");
  await releaseFile({ db, bucket }, gone.avatarHash);
  await releaseStoredFiles({ db, bucket }, stored);
  return games;
}

export async function getInviteCode(db: Db, userId: string, teamId: number): Promise<string> {
  const team = await requireTeam(db, teamId);
  requireCaptain(team, userId);
  return formatInviteCode(team.name, team.id, team.inviteToken);
}

/**
 * Replaces the invite token: codes handed out before stop working. The token is written only over the one
 * read, while the caller is still captain: of two renewals at once, the later finds the token already
 * replaced and answers with that one, so no caller is handed a code that was overwritten meanwhile.
 */
export async function renewInviteCode(db: Db, userId: string, teamId: number): Promise<string> {
  const team = await requireTeam(db, teamId);
  requireCaptain(team, userId);
  const renewed = await db
    .update(teams)
    .set({ inviteToken: generateInviteToken() })
    .where(and(eq(teams.id, teamId), eq(teams.inviteToken, team.inviteToken), eq(teams.captainId, userId)))
    .returning({ name: teams.name, token: teams.inviteToken })
    .get();
  if (renewed) return formatInviteCode(renewed.name, teamId, renewed.token);
  return getInviteCode(db, userId, teamId);
}

/**
 * Joins the team of an invite code. The insert is conditional on the token and the lock and idempotent per
 * (team, user), so concurrent accepts of one code add each user exactly once.
 */
export async function acceptInvite({ db, now }: TeamDeps, userId: string, code: string): Promise<TeamInfo> {
  const parsed = parseInviteCode(code);
  if (!parsed) throw badRequest("team.invite_malformed");
  const team = await requireTeam(db, parsed.teamId);
  if (team.inviteToken !== parsed.token) throw badRequest("team.invite_incorrect");
  if (await isMember(db, team.id, userId)) throw badRequest("team.already_member");
  await assertLockNotInForce(db, team.id, now);
  const inserted = await db.all<{ team_id: number }>(sql`insert into ${teamMembers} (team_id, user_id)
    select id, ${userId} from ${teams}
    where id = ${team.id} and invite_token = ${parsed.token} and not ${lockInForce(team.id, now)}
    on conflict do nothing returning team_id`);
  if (inserted.length === 0) {
    if (await isMember(db, team.id, userId)) throw badRequest("team.already_member");
    if (await isLockInForce(db, team.id, now)) throw badRequest("team.locked");
    throw badRequest("team.invite_incorrect");
  }
  return getTeamInfo(db, team.id);
}

/**
 * Removes a non-captain member, and their registrations in this team's games, unless the lock is in force.
 * A registration in a participation with results (Accepted or Suspended in a game that has started) stays:
 * the member played that game for this team, stays in its crew, and joins it with no other team (rules.md
 * §2), but no longer plays for the team (every player check also asks for the team membership). A Pending
 * or Rejected registration left without registered members goes, as when the last member leaves the game,
 * with its writeup's file. Returns false when nothing was removed (the caller diagnoses why).
 */
async function removeMember({ db, bucket, now }: TeamStorageDeps, teamId: number, userId: string): Promise<boolean> {
  const guard = sql`not ${lockInForce(teamId, now)}
    and ${userId} <> (select captain_id from ${teams} where id = ${teamId})`;
  const open = and(eq(participations.teamId, teamId), inArray(participations.status, ["Pending", "Rejected"]));
  // A Rejected team may have uploaded a writeup while it was Accepted.
  const written = await db
    .select({ participationId: writeups.participationId, hash: writeups.fileHash })
    .from(writeups)
    .innerJoin(participations, eq(participations.id, writeups.participationId))
    .where(open)
    .all();
  const [, removed, dropped] = await db.batch([
    db
      .delete(participationMembers)
      .where(
        and(
          eq(participationMembers.userId, userId),
          sql`${participationMembers.participationId} in (
            select p.id from ${participations} p join ${games} g on g.id = p.game_id
            where p.team_id = ${teamId} and not (p.status in ('Accepted', 'Suspended') and g.start_time <= ${now})
          )`,
          sql`exists (select 1 from ${teamMembers} where team_id = ${teamId} and user_id = ${userId})`,
          guard,
        ),
      ),
    db
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId), guard))
      .returning({ userId: teamMembers.userId }),
    db
      .delete(participations)
      .where(and(open, sql`not exists (select 1 from ${participationMembers} m where m.participation_id = ${participations.id})`))
      .returning({ id: participations.id }),
  ]);
  const droppedIds = new Set(dropped.map((r) => r.id));
  for (const w of written) if (droppedIds.has(w.participationId)) await releaseFile({ db, bucket }, w.hash);
  return removed.length > 0;
}

async function diagnoseRemoval(db: Db, teamId: number, userId: string): Promise<never> {
  const team = await requireTeam(db, teamId);
  if (team.captainId === userId) throw badRequest("team.captain_cannot_leave");
  if (!(await isMember(db, teamId, userId))) throw notFound("team.user_not_member");
  // The only condition left is the lock, possibly set between the check and the write.
  throw badRequest("team.locked");
}

/** Who removes a member: the team's captain, or an admin (whose refusals name what the admin can do instead). */
type Kicker = { by: "captain"; captainId: string } | { by: "admin" };

/** The keys of a kick's refusals: the captain cannot be removed; the lock is in force. */
const KICK_REFUSALS = {
  captain: { captain: "team.cannot_kick_captain", locked: "team.locked" },
  admin: { captain: "team.admin_cannot_kick_captain", locked: "team.admin_kick_locked" },
} as const;

/** Removes a member for the captain or an admin: the same rules (not the captain, a member, the lock) and writes. */
async function kick(deps: TeamStorageDeps, kicker: Kicker, teamId: number, userId: string): Promise<TeamInfo> {
  const { db, now } = deps;
  const refusal = KICK_REFUSALS[kicker.by];
  const team = await requireTeam(db, teamId);
  if (kicker.by === "captain") requireCaptain(team, kicker.captainId);
  if (userId === team.captainId) throw badRequest(refusal.captain);
  if (!(await isMember(db, teamId, userId))) throw notFound("team.user_not_member");
  if (await isLockInForce(db, teamId, now)) throw badRequest(refusal.locked);
  if (!(await removeMember(deps, teamId, userId))) {
    const current = await requireTeam(db, teamId);
    if (current.captainId === userId) throw badRequest(refusal.captain);
    if (!(await isMember(db, teamId, userId))) throw notFound("team.user_not_member");
    // The only condition left is the lock, possibly set between the check and the write.
    throw badRequest(refusal.locked);
  }
  return getTeamInfo(db, teamId);
}

export async function kickMember(deps: TeamStorageDeps, captainId: string, teamId: number, userId: string): Promise<TeamInfo> {
  return kick(deps, { by: "captain", captainId }, teamId, userId);
}

/**
 * An admin removes a member (not the captain): the captain's kick, its rules and writes, without the captain
 * check. Returns the team as after the captain's kick, and the removed user's name (for the admin log).
 */
export async function adminKickMember(deps: TeamStorageDeps, teamId: number, userId: string): Promise<{ team: TeamInfo; userName: string }> {
  const user = await deps.db.select({ userName: users.userName }).from(users).where(eq(users.id, userId)).get();
  const team = await kick(deps, { by: "admin" }, teamId, userId);
  return { team, userName: user?.userName ?? userId };
}

export async function leaveTeam(deps: TeamStorageDeps, userId: string, teamId: number): Promise<void> {
  const { db, now } = deps;
  const team = await requireTeam(db, teamId);
  if (!(await isMember(db, teamId, userId))) throw notFound("team.user_not_member");
  if (team.captainId === userId) throw badRequest("team.captain_cannot_leave");
  await assertLockNotInForce(db, teamId, now);
  if (!(await removeMember(deps, teamId, userId))) await diagnoseRemoval(db, teamId, userId);
}

/** Hands captaincy to another member; the unique captain index refuses a user who already owns a team. */
export async function transferCaptain({ db, now }: TeamDeps, userId: string, teamId: number, newCaptainId: string): Promise<TeamInfo> {
  const team = await requireTeam(db, teamId);
  requireCaptain(team, userId);
  if (newCaptainId === userId) throw badRequest("team.already_captain_of_this");
  if (!(await isMember(db, teamId, newCaptainId))) throw badRequest("team.new_captain_not_member");
  const owned = await db.select({ id: teams.id }).from(teams).where(eq(teams.captainId, newCaptainId)).get();
  if (owned) throw badRequest("team.new_captain_owns_team");
  await assertLockNotInForce(db, teamId, now);
  let changed: { id: number } | undefined;
  try {
    changed = await db
      .update(teams)
      .set({ captainId: newCaptainId })
      .where(
        and(
          eq(teams.id, teamId),
          eq(teams.captainId, userId),
          sql`exists (select 1 from ${teamMembers} where team_id = ${teamId} and user_id = ${newCaptainId})`,
          sql`not ${lockInForce(teamId, now)}`,
        ),
      )
      .returning({ id: teams.id })
      .get();
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest("team.new_captain_owns_team");
    throw err;
  }
  if (!changed) {
    const current = await requireTeam(db, teamId);
    requireCaptain(current, userId);
    if (!(await isMember(db, teamId, newCaptainId))) throw badRequest("team.new_captain_not_member");
    throw badRequest("team.locked");
  }
  return getTeamInfo(db, teamId);
}

/** Stores a new avatar (an image by content, ≤ 3 MB) and releases the old one. Returns its URL. */
export async function updateTeamAvatar(deps: TeamStorageDeps, userId: string, teamId: number, file: unknown): Promise<string> {
  const team = await requireTeam(deps.db, teamId);
  requireCaptain(team, userId);
  const stored = await storeUpload(deps, file, { kind: "image", limit: IMAGE_LIMIT, name: "avatar" });
  const previous = await deps.db
    .update(teams)
    .set({ avatarHash: stored.hash })
    .where(eq(teams.id, teamId))
    .returning({ id: teams.id })
    .get();
  if (!previous) {
    await releaseFile(deps, stored.hash);
    throw notFound("team.not_found");
  }
  if (team.avatarHash && team.avatarHash !== stored.hash) await releaseFile(deps, team.avatarHash);
  else if (team.avatarHash === stored.hash) await releaseFile(deps, stored.hash);
  return avatarUrl(stored.hash)!;
}

/** POST team/verify: 400 when malformed, 401 when the signature does not verify under the key. */
export async function verifyToken(input: { teamToken: string; publicKey: string }): Promise<void> {
  const token = parseTeamToken(input.teamToken);
  const key = parsePublicKey(input.publicKey);
  if (!token || !key) throw badRequest("team.token_malformed");
  if (!(await verifyTeamToken(token, key))) throw unauthorized("team.token_invalid");
}

// ── Admin ────────────────────────────────────────────────────────────────────────────────────────────

export async function listTeams(db: Db, page: { count: number; skip: number }): Promise<ArrayResponse<TeamInfo>> {
  const [rows, total] = await Promise.all([
    db.select().from(teams).orderBy(desc(teams.id)).limit(page.count).offset(page.skip).all(),
    db.select({ n: count() }).from(teams).get(),
  ]);
  const data = await toTeamInfos(db, rows);
  return { data, length: data.length, total: total?.n ?? 0 };
}

/** Teams whose name contains the hint (case-insensitive) or whose id is the hint; at most 30. */
export async function searchTeams(db: Db, hint: string): Promise<ArrayResponse<TeamInfo>> {
  if (!isAsciiHint(hint)) {
    // SQLite's LIKE folds ASCII letters only ("ZÜRICH" would miss "Zürich"): such a hint is compared here.
    const wanted = foldText(hint);
    const all = await db.select({ id: teams.id, name: teams.name }).from(teams).orderBy(desc(teams.id)).all();
    const ids = all.filter((t) => foldText(t.name).includes(wanted)).map((t) => t.id);
    const shown = ids.slice(0, ADMIN_TEAM_SEARCH_MAX);
    const rows = shown.length > 0 ? await db.select().from(teams).where(inArray(teams.id, shown)).orderBy(desc(teams.id)).all() : [];
    const data = await toTeamInfos(db, rows);
    return { data, length: data.length, total: ids.length };
  }
  const pattern = `%${hint.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const id = /^\d{1,15}$/.test(hint) ? Number(hint) : -1;
  const where = or(sql`${teams.name} like ${pattern} escape '\\'`, eq(teams.id, id));
  const [rows, total] = await Promise.all([
    db.select().from(teams).where(where).orderBy(desc(teams.id)).limit(ADMIN_TEAM_SEARCH_MAX).all(),
    db.select({ n: count() }).from(teams).where(where).get(),
  ]);
  const data = await toTeamInfos(db, rows);
  return { data, length: data.length, total: total?.n ?? 0 };
}

export async function adminUpdateTeam(db: Db, teamId: number, input: AdminTeamUpdateInput): Promise<TeamInfo> {
  await requireTeam(db, teamId);
  const set: Partial<Pick<Team, "name" | "bio" | "locked">> = {};
  if (input.name != null) set.name = input.name;
  if (input.bio != null) set.bio = input.bio;
  if (input.locked != null) set.locked = input.locked;
  if (Object.keys(set).length > 0) await db.update(teams).set(set).where(eq(teams.id, teamId)).run();
  return getTeamInfo(db, teamId);
}

/** Deletes a team whatever its state (its participations go with it). */
/** Deletes a team (admin); returns the games it had joined, like `deleteTeam`. */
export async function adminDeleteTeam({ db, bucket, destroyContainers }: Omit<TeamRemovalDeps, "now">, teamId: number): Promise<number[]> {
  const games = await gamesOfTeam(db, teamId);
  await destroyContainers(teamId);
  const stored = await storedFilesOfTeam(db, teamId);
  const gone = await db.delete(teams).where(eq(teams.id, teamId)).returning({ avatarHash: teams.avatarHash }).get();
  if (!gone) throw notFound("team.not_found");
  await releaseFile({ db, bucket }, gone.avatarHash);
  await releaseStoredFiles({ db, bucket }, stored);
  return games;
}
