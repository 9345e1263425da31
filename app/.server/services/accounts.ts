import { and, eq, or } from "drizzle-orm";
import { AppError, badRequest, unauthorized } from "~/core/errors";
import type { RegisterStatus } from "~/core/enums";
import type { ChangePasswordInput, LoginInput, ProfileUpdateInput, RegisterInput } from "~/core/schemas/account";
import { generatePassword, getDecoyHash, hashPassword, verifyPassword } from "../auth/password";
import { avatarUrl, createSession, forgetCachedUser, revokeAllSessions } from "../auth/session";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import { getPlatformConfig } from "./config";
import { MAIL_TOKEN_TTL_MS } from "./mail-tokens";

export interface ServiceDeps {
  db: Db;
  now: number;
}

const key = (s: string) => s.trim().toLowerCase();
const newStamp = () => crypto.randomUUID();

/** True when the email's domain is allowed by the comma-separated whitelist ("" = no restriction). */
export function isEmailDomainAllowed(email: string, whitelist: string): boolean {
  const domains = whitelist
    .split(",")
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
  if (domains.length === 0) return true;
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  return domains.includes(domain);
}

function isUniqueViolation(err: unknown): boolean {
  const text = String((err as { cause?: unknown })?.cause ?? err);
  return /UNIQUE constraint failed/i.test(text);
}

async function assertNameAndEmailFree(db: Db, userName: string | null, email: string | null, exceptId?: string) {
  if (userName !== null) {
    const taken = await db.select({ id: users.id }).from(users).where(eq(users.userNameKey, key(userName))).get();
    if (taken && taken.id !== exceptId) throw badRequest("account.username_taken");
  }
  if (email !== null) {
    const taken = await db.select({ id: users.id }).from(users).where(eq(users.emailKey, key(email))).get();
    if (taken && taken.id !== exceptId) throw badRequest("account.email_taken");
  }
}

export interface NewUser {
  userName: string;
  email: string;
  password: string;
  role?: "User" | "Monitor" | "Admin";
  emailConfirmed: boolean;
  language?: string;
}

/** Inserts a user after checking name and email are free; a racing duplicate still fails cleanly. */
export async function insertUser(db: Db, input: NewUser, now: number): Promise<string> {
  await assertNameAndEmailFree(db, input.userName, input.email);
  const id = crypto.randomUUID();
  try {
    await db.insert(users).values({
      id,
      userName: input.userName,
      userNameKey: key(input.userName),
      email: input.email,
      emailKey: key(input.email),
      emailConfirmed: input.emailConfirmed,
      passwordHash: await hashPassword(input.password),
      securityStamp: newStamp(),
      role: input.role ?? "User",
      language: input.language ?? "en-US",
      registerTime: now,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest("account.username_or_email_taken");
    throw err;
  }
  return id;
}

export interface RegisterOutcome {
  status: RegisterStatus;
  userId: string;
  /** Set when the user was signed in (LoggedIn). */
  sessionId: string | null;
}

/**
 * A registration waiting for its verification mail does not hold its name and email for ever: one whose
 * link has expired (never confirmed, never signed in) gives them up to a new registration, and so does a
 * waiting one registered again with the same name, email and password (its owner lost the mail: the new
 * registration sends a new link; someone else, not knowing the password, cannot replace it). Otherwise a
 * lost mail, or someone registering another person's address, would keep both taken with no way out.
 */
async function releaseUnconfirmedHolders(db: Db, input: { userName: string; email: string; password: string }, now: number): Promise<void> {
  const { userName, email } = input;
  const waiting = and(eq(users.emailConfirmed, false), eq(users.lastVisitedTime, 0), eq(users.role, "User"));
  const holders = await db
    .select({ id: users.id, userNameKey: users.userNameKey, emailKey: users.emailKey, registerTime: users.registerTime, passwordHash: users.passwordHash })
    .from(users)
    .where(and(or(eq(users.userNameKey, key(userName)), eq(users.emailKey, key(email))), waiting))
    .all();
  for (const holder of holders) {
    const expired = holder.registerTime <= now - MAIL_TOKEN_TTL_MS;
    const again = !expired && holder.userNameKey === key(userName) && holder.emailKey === key(email) && (await verifyPassword(input.password, holder.passwordHash));
    if (!expired && !again) continue;
    try {
      await db.delete(users).where(and(eq(users.id, holder.id), waiting)).run();
      forgetCachedUser(holder.id);
    } catch {
      // Something refers to the account by foreign key meanwhile: it keeps its name, and the usual "taken" follows.
    }
  }
}

export async function register(
  { db, now }: ServiceDeps,
  input: RegisterInput,
  meta: { language: string },
): Promise<RegisterOutcome> {
  const { accountPolicy } = await getPlatformConfig(db, now);
  if (!accountPolicy.allowRegister) throw badRequest("account.register_disabled");
  if (!isEmailDomainAllowed(input.email, accountPolicy.emailDomainList)) {
    throw badRequest("account.email_domain_not_allowed", { domains: accountPolicy.emailDomainList });
  }
  const emailConfirmationRequired = accountPolicy.emailConfirmationRequired;
  const active = !emailConfirmationRequired && accountPolicy.activeOnRegister;
  if (emailConfirmationRequired) await releaseUnconfirmedHolders(db, input, now);
  const userId = await insertUser(
    db,
    { userName: input.userName, email: input.email, password: input.password, emailConfirmed: active, language: meta.language },
    now,
  );
  if (emailConfirmationRequired) return { status: "EmailConfirmationRequired", userId, sessionId: null };
  if (!active) return { status: "AdminConfirmationRequired", userId, sessionId: null };
  return { status: "LoggedIn", userId, sessionId: await createSession(db, userId, now) };
}

/** Signs in by user name or email. The password is always hashed so timing does not reveal who exists. */
/**
 * Signs in by user name or email. `beforeGuess` is told which account the name stands for (its id, or the
 * name itself when there is none) before the password is checked: a sign-in limit counted on it allows
 * as many guesses whichever of the account's names is used.
 */
export async function login(
  { db, now }: ServiceDeps,
  input: LoginInput,
  beforeGuess: (account: string) => void = () => {},
): Promise<{ userId: string; userName: string; sessionId: string }> {
  const k = key(input.userName);
  const user = await db
    .select({ id: users.id, userName: users.userName, passwordHash: users.passwordHash, role: users.role, emailConfirmed: users.emailConfirmed })
    .from(users)
    .where(or(eq(users.userNameKey, k), eq(users.emailKey, k)))
    .get();
  beforeGuess(user ? `id:${user.id}` : `name:${k}`);
  const ok = await verifyPassword(input.password, user?.passwordHash ?? (await getDecoyHash()));
  if (!user || !ok) throw unauthorized("account.wrong_credentials");
  if (user.role === "Banned") throw unauthorized("account.banned");
  if (!user.emailConfirmed) throw unauthorized("account.not_activated");
  return { userId: user.id, userName: user.userName, sessionId: await createSession(db, user.id, now) };
}

export async function getProfile(db: Db, userId: string) {
  const u = await db.select().from(users).where(eq(users.id, userId)).get();
  if (!u) throw unauthorized();
  return {
    userId: u.id,
    userName: u.userName,
    email: u.email,
    bio: u.bio,
    phone: u.phone,
    realName: u.realName,
    stdNumber: u.stdNumber,
    avatar: avatarUrl(u.avatarHash),
    role: u.role,
  };
}

export async function updateProfile({ db }: ServiceDeps, userId: string, input: ProfileUpdateInput): Promise<void> {
  const patch: Partial<typeof users.$inferInsert> = {};
  if (input.userName != null) {
    await assertNameAndEmailFree(db, input.userName, null, userId);
    patch.userName = input.userName;
    patch.userNameKey = key(input.userName);
  }
  if (input.bio != null) patch.bio = input.bio;
  if (input.realName != null) patch.realName = input.realName;
  if (input.stdNumber != null) patch.stdNumber = input.stdNumber;
  if (input.phone != null) patch.phone = input.phone;
  if (Object.keys(patch).length === 0) return;
  try {
    await db.update(users).set(patch).where(eq(users.id, userId)).run();
    forgetCachedUser(userId);
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest("account.username_taken");
    throw err;
  }
}

/**
 * Checks the old password, stores the new one, rotates the security stamp and revokes every session. The
 * write is made only over the password it checked: of two changes at once the second is refused as a
 * wrong old password (it no longer is the current one), rather than answered 200 and written over.
 */
export async function changePassword({ db }: ServiceDeps, userId: string, input: ChangePasswordInput): Promise<void> {
  const u = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).get();
  if (!u) throw unauthorized();
  if (!(await verifyPassword(input.old, u.passwordHash))) throw badRequest("account.wrong_old_password");
  const changed = await db
    .update(users)
    .set({ passwordHash: await hashPassword(input.new), securityStamp: newStamp() })
    .where(and(eq(users.id, userId), eq(users.passwordHash, u.passwordHash)))
    .returning({ id: users.id })
    .get();
  if (!changed) throw badRequest("account.wrong_old_password");
  await revokeAllSessions(db, userId);
}

/** Whether any account has the Admin role. */
export async function hasAdmin(db: Db): Promise<boolean> {
  return (await db.select({ id: users.id }).from(users).where(eq(users.role, "Admin")).limit(1).get()) !== undefined;
}

/**
 * Creates the first admin when none exists (called once at server start). Returns the credentials to
 * print, or null when an admin already exists.
 */
export async function bootstrapAdmin(
  { db, now }: ServiceDeps,
  input: { userName?: string | undefined; password?: string | undefined },
): Promise<{ userName: string; password: string } | null> {
  if (await hasAdmin(db)) return null;
  const userName = input.userName || "admin";
  const password = input.password || generatePassword();
  const taken = await db.select({ id: users.id }).from(users).where(eq(users.userNameKey, key(userName))).get();
  if (taken) throw new AppError(409, "account.bootstrap_name_taken", { userName });
  await insertUser(
    db,
    { userName, email: `${key(userName)}@flagstaff.invalid`, password, role: "Admin", emailConfirmed: true },
    now,
  );
  return { userName, password };
}
