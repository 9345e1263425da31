import { type AnyColumn, and, asc, count, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import { z } from "zod";
import { AppError, badRequest, conflict, notFound } from "~/core/errors";
import { ROLES, type Role } from "~/core/enums";
import { hasErrorKey, type Translate } from "~/core/i18n/translator";
import { foldText, isAsciiHint } from "~/core/text-fold";
import { emailSchema, passwordSchema, profileUpdateSchema, userNameSchema } from "~/core/schemas/account";
import type { ArrayResponse } from "~/core/schemas/team";
import { teamNameSchema } from "~/core/schemas/team";
import { generateInviteToken } from "~/core/team-invite";
import { describeIssue, firstIssue } from "~/core/validation";
import { generatePassword, hashPassword } from "../auth/password";
import { avatarUrl, forgetCachedUser, revokeAllSessions } from "../auth/session";
import type { Db } from "../db/client";
import { teamMembers, teams, type User, users } from "../db/schema";
import { releaseFile } from "../storage/files";
import { getProfile } from "./accounts";
import { isLockInForce } from "./teams";

/** Admin user management (api.md §7, rules.md §14). */

export const ADMIN_USER_SEARCH_MAX = 30;
/** One scrypt hash a row (≈ 0.18 s here, up to 0.8 s on a loaded machine): a call stays well under a minute (DECISIONS.md). */
export const ADMIN_USER_BATCH_MAX = 60;

export const adminUserUpdateSchema = profileUpdateSchema.extend({
  email: emailSchema.nullish(),
  emailConfirmed: z.boolean().nullish(),
  role: z.enum(ROLES).nullish(),
  /**
   * The role the caller last saw (optional): when the stored role is another, the edit is refused with 409 and
   * nothing changes — a stale list's Unban cannot demote a user another admin promoted meanwhile.
   */
  expectedRole: z.enum(ROLES).nullish(),
});
export type AdminUserUpdateInput = z.infer<typeof adminUserUpdateSchema>;

const optionalString = z.string().max(1024).nullish();

/** The shape of the batch list (checked before anything is written); row contents are checked per row. */
export const batchCreateSchema = z
  .array(
    z.object({
      userName: z.string().max(1024),
      password: z.string().max(1024),
      email: z.string().max(1024),
      realName: optionalString,
      stdNumber: optionalString,
      phone: optionalString,
      teamName: optionalString,
    }),
  )
  .min(1)
  .max(ADMIN_USER_BATCH_MAX);
export type BatchCreateInput = z.infer<typeof batchCreateSchema>;

const batchRowSchema = z.object({
  userName: userNameSchema,
  password: passwordSchema,
  email: emailSchema,
  realName: profileUpdateSchema.shape.realName,
  stdNumber: profileUpdateSchema.shape.stdNumber,
  phone: profileUpdateSchema.shape.phone,
  teamName: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), teamNameSchema.nullish()),
});

/** UserInfoModel (api.md §4). */
export interface UserInfo {
  id: string;
  userName: string;
  realName: string;
  stdNumber: string;
  phone: string;
  bio: string;
  registerTimeUtc: number;
  lastVisitedUtc: number;
  ip: string;
  email: string;
  avatar: string | null;
  role: (typeof ROLES)[number];
  emailConfirmed: boolean;
}

export interface BatchRowResult {
  userName: string;
  /** "created", "updated", or the row's localised error. */
  result: string;
}

export interface AdminUserDeps {
  db: Db;
  now: number;
}

const key = (s: string) => s.trim().toLowerCase();

function isUniqueViolation(err: unknown): boolean {
  const text = String((err as { cause?: unknown })?.cause ?? err);
  return /UNIQUE constraint failed/i.test(text);
}

function toUserInfo(u: User): UserInfo {
  return {
    id: u.id,
    userName: u.userName,
    realName: u.realName,
    stdNumber: u.stdNumber,
    phone: u.phone,
    bio: u.bio,
    registerTimeUtc: u.registerTime,
    lastVisitedUtc: u.lastVisitedTime,
    ip: u.lastVisitedIp,
    email: u.email,
    avatar: avatarUrl(u.avatarHash),
    role: u.role,
    emailConfirmed: u.emailConfirmed,
  };
}

async function requireUser(db: Db, userId: string): Promise<User> {
  const u = await db.select().from(users).where(eq(users.id, userId)).get();
  if (!u) throw notFound("admin.user_not_found");
  return u;
}

/**
 * Newest first; users registered at the same moment (one batch import) by user name, as people read a list,
 * not by their random ids.
 */
const USER_ORDER = [desc(users.registerTime), asc(users.userNameKey)] as const;

export async function listUsers(db: Db, page: { count: number; skip: number }): Promise<ArrayResponse<UserInfo>> {
  const [rows, total] = await Promise.all([
    db.select().from(users).orderBy(...USER_ORDER).limit(page.count).offset(page.skip).all(),
    db.select({ n: count() }).from(users).get(),
  ]);
  const data = rows.map(toUserInfo);
  return { data, length: data.length, total: total?.n ?? 0 };
}

/** Users whose user name, email, real name or student number contains the hint (case-insensitive); ≤ 30. */
export async function searchUsers(db: Db, hint: string): Promise<ArrayResponse<UserInfo>> {
  const order = USER_ORDER;
  if (!isAsciiHint(hint)) {
    // SQLite folds ASCII letters only: "ÜMLAUT" would miss "Ümlaut". Such a hint is compared here, over the
    // searched columns of every user, and the rows found are read by id.
    const wanted = foldText(hint);
    const all = await db.select({ id: users.id, userNameKey: users.userNameKey, emailKey: users.emailKey, realName: users.realName, stdNumber: users.stdNumber }).from(users).orderBy(...order).all();
    const ids = all.filter((u) => [u.userNameKey, u.emailKey, u.realName, u.stdNumber].some((text) => foldText(text ?? "").includes(wanted))).map((u) => u.id);
    const shown = ids.slice(0, ADMIN_USER_SEARCH_MAX);
    const rows = shown.length > 0 ? await db.select().from(users).where(inArray(users.id, shown)).orderBy(...order).all() : [];
    const data = rows.map(toUserInfo);
    return { data, length: data.length, total: ids.length };
  }
  const pattern = `%${hint.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const like = (col: AnyColumn) => sql`lower(${col}) like ${pattern} escape '\\'`;
  const where = or(like(users.userNameKey), like(users.emailKey), like(users.realName), like(users.stdNumber));
  const [rows, total] = await Promise.all([
    db.select().from(users).where(where).orderBy(...order).limit(ADMIN_USER_SEARCH_MAX).all(),
    db.select({ n: count() }).from(users).where(where).get(),
  ]);
  const data = rows.map(toUserInfo);
  return { data, length: data.length, total: total?.n ?? 0 };
}

export async function getUserProfile(db: Db, userId: string) {
  await requireUser(db, userId);
  return getProfile(db, userId);
}

async function assertFree(db: Db, field: "userName" | "email", value: string, exceptId?: string): Promise<void> {
  const col = field === "userName" ? users.userNameKey : users.emailKey;
  const where = exceptId ? and(eq(col, key(value)), ne(users.id, exceptId)) : eq(col, key(value));
  const taken = await db.select({ id: users.id }).from(users).where(where).get();
  if (taken) throw badRequest(field === "userName" ? "account.username_taken" : "account.email_taken");
}

/** The fields of an admin edit, as PUT admin/users names them. */
export type AdminUserField = Exclude<keyof AdminUserUpdateInput, undefined | "expectedRole">;

/**
 * Edits a user. Banning or deactivating rotates the security stamp and revokes every session at once (the
 * caller closes their live sockets too: `revoked`). Returns the user, the role they had and the fields whose
 * value changed. An admin cannot change their own role nor deactivate their own account. `expectedRole`
 * (optional, the role the caller's page showed): when the stored role is another, nothing is written and the
 * call is refused with 409, checked again in the UPDATE itself.
 */
export async function updateUser(
  { db }: AdminUserDeps,
  actorId: string,
  userId: string,
  input: AdminUserUpdateInput,
): Promise<{ user: UserInfo; previousRole: Role; changed: AdminUserField[]; revoked: boolean }> {
  const user = await requireUser(db, userId);
  const expected = input.expectedRole ?? null;
  if (expected !== null && user.role !== expected) throw conflict("user.role_changed");
  const patch: Partial<typeof users.$inferInsert> = {};
  const changed: AdminUserField[] = [];
  if (input.userName != null && input.userName !== user.userName) {
    await assertFree(db, "userName", input.userName, userId);
    patch.userName = input.userName;
    patch.userNameKey = key(input.userName);
    changed.push("userName");
  }
  if (input.email != null && input.email !== user.email) {
    await assertFree(db, "email", input.email, userId);
    patch.email = input.email;
    patch.emailKey = key(input.email);
    changed.push("email");
  }
  for (const field of ["realName", "stdNumber", "phone", "bio"] as const) {
    const value = input[field];
    if (value != null && value !== user[field]) {
      patch[field] = value;
      changed.push(field);
    }
  }
  if (input.role != null && input.role !== user.role) {
    if (userId === actorId) throw badRequest("admin.cannot_change_own_role");
    patch.role = input.role;
    changed.push("role");
  }
  if (input.emailConfirmed != null && input.emailConfirmed !== user.emailConfirmed) {
    if (userId === actorId && !input.emailConfirmed) throw badRequest("admin.cannot_deactivate_self");
    patch.emailConfirmed = input.emailConfirmed;
    changed.push("emailConfirmed");
  }
  const banning = patch.role === "Banned";
  const deactivating = patch.emailConfirmed === false;
  // Like a ban, deactivation takes effect at once: no session of the account keeps working.
  const revoked = banning || deactivating;
  if (revoked) patch.securityStamp = crypto.randomUUID();
  if (Object.keys(patch).length > 0) {
    // The check above again, in the write itself (D1 holds no read across statements): a role changed since
    // matches no row, and nothing is written.
    const where = expected === null ? eq(users.id, userId) : and(eq(users.id, userId), eq(users.role, expected));
    let written: number;
    try {
      written = (await db.update(users).set(patch).where(where).run()).meta.changes ?? 0;
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest("account.username_or_email_taken");
      throw err;
    }
    if (written === 0) {
      await requireUser(db, userId);
      if (expected !== null) throw conflict("user.role_changed");
    }
  }
  forgetCachedUser(userId);
  if (revoked) await revokeAllSessions(db, userId);
  return { user: toUserInfo(await requireUser(db, userId)), previousRole: user.role, changed, revoked };
}

/** Deletes a user (not oneself, not a team captain); memberships and sessions go with them. Returns their role. */
export async function deleteUser(deps: { db: Db; bucket: R2Bucket }, actorId: string, userId: string): Promise<Role> {
  const { db } = deps;
  if (userId === actorId) throw badRequest("admin.cannot_delete_self");
  const { role } = await requireUser(db, userId);
  const owned = await db.select({ id: teams.id }).from(teams).where(eq(teams.captainId, userId)).get();
  if (owned) throw badRequest("admin.user_is_captain");
  let gone: { avatarHash: string | null } | undefined;
  try {
    gone = await db.delete(users).where(eq(users.id, userId)).returning({ avatarHash: users.avatarHash }).get();
    forgetCachedUser(userId);
  } catch (err) {
    // A team created by this user in the meantime: the captain foreign key refuses the delete.
    if (/FOREIGN KEY constraint failed/i.test(String((err as { cause?: unknown })?.cause ?? err))) {
      throw badRequest("admin.user_is_captain");
    }
    throw err;
  }
  if (!gone) throw notFound("admin.user_not_found");
  await releaseFile(deps, gone.avatarHash);
  return role;
}

/** Sets a random 16-character password, rotates the security stamp and revokes every session. Returns it and the user's role. */
export async function resetPassword(db: Db, userId: string): Promise<{ password: string; role: Role }> {
  const { role } = await requireUser(db, userId);
  const password = generatePassword(16);
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(password), securityStamp: crypto.randomUUID() })
    .where(eq(users.id, userId))
    .run();
  await revokeAllSessions(db, userId);
  return { password, role };
}

type BatchRow = z.infer<typeof batchRowSchema>;

/**
 * Creates the row's user (active) or, when the user name exists, updates its fields and resets its password.
 * A user of that name created meanwhile by a concurrent import is updated instead (one more pass).
 */
async function upsertRow(db: Db, row: BatchRow, now: number, retried = false): Promise<{ id: string; created: boolean }> {
  const existing = await db.select().from(users).where(eq(users.userNameKey, key(row.userName))).get();
  await assertFree(db, "email", row.email, existing?.id);
  const passwordHash = await hashPassword(row.password);
  const fields = {
    email: row.email,
    emailKey: key(row.email),
    passwordHash,
    securityStamp: crypto.randomUUID(),
    emailConfirmed: true,
    ...(row.realName != null ? { realName: row.realName } : {}),
    ...(row.stdNumber != null ? { stdNumber: row.stdNumber } : {}),
    ...(row.phone != null ? { phone: row.phone } : {}),
  };
  try {
    if (existing) {
      await db.update(users).set(fields).where(eq(users.id, existing.id)).run();
      await revokeAllSessions(db, existing.id);
      return { id: existing.id, created: false };
    }
    const id = crypto.randomUUID();
    await db.insert(users).values({ id, userName: row.userName, userNameKey: key(row.userName), registerTime: now, ...fields });
    return { id, created: true };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    if (!existing && !retried) return upsertRow(db, row, now, true);
    throw badRequest("account.username_or_email_taken");
  }
}

/**
 * Puts the user into the team named `teamName`: the existing team of that name (oldest first), else a new
 * team captained by this user (the first row naming it). A user may captain only one team. Resolves with
 * the team the user was added to, null when they were in it already.
 */
export async function joinTeamByName(db: Db, userId: string, teamName: string, now: number, created: Map<string, number>): Promise<number | null> {
  let teamId = created.get(teamName);
  if (teamId === undefined) {
    const found = await db.select({ id: teams.id }).from(teams).where(eq(teams.name, teamName)).orderBy(asc(teams.id)).get();
    teamId = found?.id;
  }
  if (teamId === undefined) {
    const owned = await db.select({ id: teams.id }).from(teams).where(eq(teams.captainId, userId)).get();
    if (owned) throw badRequest("team.already_captain");
    let inserted: { id: number }[];
    try {
      // Only while no team has the name: concurrent imports naming the same new team make one team.
      inserted = await db.all<{ id: number }>(sql`insert into ${teams} (name, captain_id, invite_token)
        select ${teamName}, ${userId}, ${generateInviteToken()}
        where not exists (select 1 from ${teams} where name = ${teamName})
        returning id`);
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest("team.already_captain");
      throw err;
    }
    if (inserted.length > 0) {
      teamId = inserted[0]!.id;
      created.set(teamName, teamId);
      await db.insert(teamMembers).values({ teamId, userId }).onConflictDoNothing().run();
      return teamId;
    }
    const named = await db.select({ id: teams.id }).from(teams).where(eq(teams.name, teamName)).orderBy(asc(teams.id)).get();
    // Deleted again in between: start over (create it, or join the one made meanwhile).
    if (!named) return joinTeamByName(db, userId, teamName, now, created);
    teamId = named.id;
  }
  created.set(teamName, teamId);
  const member = await db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    .get();
  if (member) return null;
  if (await isLockInForce(db, teamId, now)) throw badRequest("team.locked");
  await db.insert(teamMembers).values({ teamId, userId }).onConflictDoNothing().run();
  return teamId;
}

/**
 * Batch creation (api.md §7). The list's shape was validated by the route (empty or malformed → 400,
 * nothing written); each row is then checked and applied on its own and reported as created, updated or
 * its localised error. `revoked`: the users updated, whose password was reset and sessions revoked;
 * `joined`: the users put into a team (one who had left it after playing plays for it again).
 */
export async function batchCreateUsers(
  { db, now }: AdminUserDeps,
  rows: BatchCreateInput,
  t: Translate,
): Promise<{ results: BatchRowResult[]; revoked: string[]; joined: { userId: string; teamId: number }[] }> {
  const results: BatchRowResult[] = [];
  const revoked: string[] = [];
  const joined: { userId: string; teamId: number }[] = [];
  const createdTeams = new Map<string, number>();
  for (const raw of rows) {
    const userName = raw.userName.trim();
    const parsed = batchRowSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = firstIssue(parsed.error.issues);
      results.push({ userName, result: issue ? describeIssue(issue, t, hasErrorKey, raw) : t("validation.invalid") });
      continue;
    }
    const row = parsed.data;
    try {
      const { id, created } = await upsertRow(db, row, now);
      if (!created) revoked.push(id);
      let result = created ? "created" : "updated";
      if (row.teamName) {
        try {
          const teamId = await joinTeamByName(db, id, row.teamName, now, createdTeams);
          if (teamId !== null) joined.push({ userId: id, teamId });
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          result = t("admin.batch_team_failed", { team: row.teamName, reason: t(err.code, err.params) });
        }
      }
      results.push({ userName: row.userName, result });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      results.push({ userName: row.userName, result: t(err.code, err.params) });
    }
  }
  return { results, revoked, joined };
}
