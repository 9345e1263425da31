import { and, eq, ne } from "drizzle-orm";
import type { Role } from "~/core/enums";
import { AppError, badRequest, unauthorized } from "~/core/errors";
import { hashPassword } from "../auth/password";
import { createSession, forgetCachedUser, revokeAllSessions } from "../auth/session";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import type { Language } from "~/core/i18n/languages";
import type { SmtpConfig } from "../mail/smtp";
import { type MailOutcome, sendAccountMail } from "../mail/send";
import { isEmailDomainAllowed } from "./accounts";
import { getPlatformConfig } from "./config";
import { checkMailToken, createMailToken, decodeLinkValue, encodeLinkValue, type TokenPurpose } from "./mail-tokens";

export interface MailDeps {
  db: Db;
  now: number;
  smtp: SmtpConfig | null;
  /** Origin of the links in mails, e.g. `https://ctf.example.org`. */
  origin: string;
  /**
   * The language of the request (its UI language, else Accept-Language): a mail someone asks for now
   * (password reset, email change) is written in it, not in the language the account registered in.
   */
  language: Language;
}

const key = (s: string) => s.trim().toLowerCase();
const newStamp = () => crypto.randomUUID();

async function mailLink(deps: MailDeps, purpose: TokenPurpose, path: string, user: { id: string; securityStamp: string }, email: string) {
  const token = await createMailToken(deps.db, purpose, { userId: user.id, securityStamp: user.securityStamp, email }, deps.now);
  return `${deps.origin}${path}?token=${encodeLinkValue(token)}&email=${encodeLinkValue(email)}`;
}

/** The platform's name and colour, as its mails show them. */
async function platformBranding(db: Db, now: number): Promise<{ platform: string; customTheme: string }> {
  const { globalConfig } = await getPlatformConfig(db, now);
  return { platform: globalConfig.title || "Flagstaff", customTheme: globalConfig.customTheme };
}

/** Mails the activation link (`/account/verify`) to a newly registered user. */
export async function sendVerificationMail(deps: MailDeps, userId: string): Promise<MailOutcome> {
  const user = await deps.db.select().from(users).where(eq(users.id, userId)).get();
  if (!user) return "sent";
  const link = await mailLink(deps, "verify", "/account/verify", user, user.email);
  return sendAccountMail(deps.smtp, "verify", {
    to: user.email,
    language: user.language,
    ...(await platformBranding(deps.db, deps.now)),
    userName: user.userName,
    link,
  });
}

/** Reads `{token, email}` of a link; null when either is malformed. */
function readLink(input: { token: string; email: string }) {
  const token = decodeLinkValue(input.token);
  const email = decodeLinkValue(input.email);
  return token && email ? { token, email } : null;
}

/** Checks a link and returns its user, or null (wrong, reused or expired). */
async function userForLink(db: Db, now: number, purpose: TokenPurpose, input: { token: string; email: string }) {
  const link = readLink(input);
  if (!link) return null;
  const user = await db.select().from(users).where(eq(users.emailKey, key(link.email))).get();
  if (!user) return null;
  const ok = await checkMailToken(db, purpose, { userId: user.id, securityStamp: user.securityStamp, email: user.email }, link.token, now);
  return ok ? user : null;
}

/** Activates the account of a verify link and signs it in. 401 `account.verify_failed` otherwise. */
export async function verifyAccount({ db, now }: Pick<MailDeps, "db" | "now">, input: { token: string; email: string }) {
  const user = await userForLink(db, now, "verify", input);
  if (!user || user.role === "Banned") throw unauthorized("account.verify_failed");
  const updated = await db
    .update(users)
    .set({ emailConfirmed: true, securityStamp: newStamp() })
    .where(and(eq(users.id, user.id), eq(users.securityStamp, user.securityStamp)))
    .returning({ id: users.id })
    .get();
  if (!updated) throw unauthorized("account.verify_failed");
  return { userId: user.id, sessionId: await createSession(db, user.id, now) };
}

/**
 * Mails a reset link to a confirmed, non-banned account with this email. The route answers before this
 * runs, the same whether or not the email exists (rules.md §14: neither the answer nor its time may tell);
 * what went wrong is returned for the admins' log: a failed mail (`undelivered`) or one whose reply did not
 * come in time (`unconfirmed`), with the user's name.
 */
export async function requestRecovery(deps: MailDeps, email: string): Promise<{ undelivered: string } | { unconfirmed: string } | null> {
  if (!deps.smtp) throw badRequest("mail.not_configured");
  const user = await deps.db.select().from(users).where(eq(users.emailKey, key(email))).get();
  if (!user || !user.emailConfirmed || user.role === "Banned") return null;
  const link = await mailLink(deps, "reset", "/account/reset", user, user.email);
  try {
    const outcome = await sendAccountMail(deps.smtp, "reset", {
      to: user.email,
      language: deps.language,
      ...(await platformBranding(deps.db, deps.now)),
      userName: user.userName,
      link,
    });
    return outcome === "unconfirmed" ? { unconfirmed: user.userName } : null;
  } catch (err) {
    if (err instanceof AppError && err.code === "mail.send_failed") return { undelivered: user.userName };
    throw err;
  }
}

/** Sets a new password from a reset link, rotates the stamp and revokes every session. Returns the user (their live sockets close too). */
export async function resetPassword(
  { db, now }: Pick<MailDeps, "db" | "now">,
  input: { email: string; rToken: string; password: string },
): Promise<{ userId: string; userName: string; role: Role }> {
  const user = await userForLink(db, now, "reset", { token: input.rToken, email: input.email });
  if (!user) throw badRequest("account.reset_token_invalid");
  const updated = await db
    .update(users)
    .set({ passwordHash: await hashPassword(input.password), securityStamp: newStamp() })
    .where(and(eq(users.id, user.id), eq(users.securityStamp, user.securityStamp)))
    .returning({ id: users.id })
    .get();
  if (!updated) throw badRequest("account.reset_token_invalid");
  await revokeAllSessions(db, user.id);
  return { userId: user.id, userName: user.userName, role: user.role };
}

/**
 * Mails a confirmation link to the new address. Needs email confirmation on (else 400 with data false:
 * an admin changes emails); the address must be free and pass the domain whitelist.
 */
export async function requestEmailChange(deps: MailDeps, userId: string, newMail: string): Promise<MailOutcome> {
  const { accountPolicy } = await getPlatformConfig(deps.db, deps.now);
  if (!accountPolicy.emailConfirmationRequired) throw badRequest("account.email_change_by_admin");
  if (!isEmailDomainAllowed(newMail, accountPolicy.emailDomainList)) {
    throw badRequest("account.email_domain_not_allowed_change", { domains: accountPolicy.emailDomainList });
  }
  // One's own address in another case is not taken.
  const taken = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.emailKey, key(newMail)), ne(users.id, userId)))
    .get();
  // About the request's `newMail` (PUT account/changeemail), not the `email` that register names.
  if (taken) throw new AppError(400, "account.email_taken", undefined, undefined, "newMail");
  const user = await deps.db.select().from(users).where(eq(users.id, userId)).get();
  if (!user) throw unauthorized();
  const link = await mailLink(deps, "changeEmail", "/account/confirm", user, newMail);
  return sendAccountMail(deps.smtp, "changeEmail", {
    to: newMail,
    language: deps.language,
    ...(await platformBranding(deps.db, deps.now)),
    userName: user.userName,
    link,
  });
}

/** Applies an email change from a confirmation link of the signed-in user. 400 `account.email_verify_failed`. */
export async function confirmEmailChange(
  { db, now }: Pick<MailDeps, "db" | "now">,
  userId: string,
  input: { token: string; email: string },
): Promise<void> {
  const link = readLink(input);
  const user = await db.select().from(users).where(eq(users.id, userId)).get();
  if (!link || !user) throw badRequest("account.email_verify_failed");
  const subject = { userId: user.id, securityStamp: user.securityStamp, email: link.email };
  if (!(await checkMailToken(db, "changeEmail", subject, link.token, now))) throw badRequest("account.email_verify_failed");
  const taken = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.emailKey, key(link.email)), ne(users.id, user.id)))
    .get();
  if (taken) throw badRequest("account.email_taken");
  try {
    const updated = await db
      .update(users)
      .set({ email: link.email.trim(), emailKey: key(link.email), securityStamp: newStamp() })
      .where(and(eq(users.id, user.id), eq(users.securityStamp, user.securityStamp)))
      .returning({ id: users.id })
      .get();
    if (!updated) throw badRequest("account.email_verify_failed");
    forgetCachedUser(user.id);
  } catch (err) {
    if (/UNIQUE constraint failed/i.test(String((err as { cause?: unknown })?.cause ?? err))) throw badRequest("account.email_taken");
    throw err;
  }
}

/** Removes a just-registered, never-activated user whose verification mail could not be sent. */
export async function discardUnverifiedUser(db: Db, userId: string): Promise<void> {
  await db.delete(users).where(and(eq(users.id, userId), eq(users.emailConfirmed, false)));
}
