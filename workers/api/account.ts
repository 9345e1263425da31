import { Hono } from "hono";
import { clearedSessionCookie, revokeSession, sessionCookie } from "~/.server/auth/session";
import * as accounts from "~/.server/services/accounts";
import { setUserAvatar } from "~/.server/services/avatars";
import * as accountMail from "~/.server/services/account-mail";
import { smtpConfigFromEnv } from "~/.server/mail/config";
import { getPlatformConfig } from "~/.server/services/config";
import { refreshRoomsOfUser } from "~/.server/services/room";
import { disconnectSession, disconnectUser } from "~/.server/services/sockets";
import { AppError, badRequest } from "~/core/errors";
import { publicOrigin } from "~/core/public-url";
import { emailSchema, passwordSchema } from "~/core/schemas/account";
import { z } from "zod";
import { checkCaptcha } from "./captcha-check";
import { changePasswordSchema, loginSchema, profileUpdateSchema, registerSchema } from "~/core/schemas/account";
import { type ApiContext, type ApiEnv, backgroundOf } from "./context";
import { logEvent } from "./log";
import { enforceLimit, limiters } from "./middleware";
import { defineRoute } from "./registry";

export const account = new Hono<ApiEnv>();
const tag = "Account";
const deps = (c: ApiContext) => ({ db: c.get("db"), now: c.get("now") });
const mailDeps = (c: ApiContext) => ({ db: c.get("db"), now: c.get("now"), smtp: smtpConfigFromEnv(c.env), origin: publicOrigin(c.env.FLAGSTAFF_PUBLIC_URL, c.req.url), language: c.get("lang") });
const ok = (c: ApiContext, key: string) => c.json({ title: c.get("t")(key), status: 200 });

/** Tells the admins that an account mail could not be sent (the user is told too, except for recovery). */
async function logMailFailure(c: ApiContext, err: unknown, key: "verificationMailFailed" | "emailChangeMailFailed", user: string) {
  if (!(err instanceof AppError && err.code === "mail.send_failed")) return;
  await logEvent(c, { level: "Error", logger: "Account", userName: user, text: { key, params: { user } }, status: "Failed" });
}

/** Tells the admins that an account mail went out whole but its server did not confirm it in time. */
function logMailUnconfirmed(c: ApiContext, user: string) {
  return logEvent(c, { level: "Warning", logger: "Account", userName: user, text: { key: "mailUnconfirmed", params: { user } }, status: "Pending" });
}

/** Work after the answer (the request's `waitUntil`); awaited where the runtime gives none. */
function afterAnswer(c: ApiContext, work: Promise<unknown>): Promise<void> | undefined {
  const done = work.then(
    () => undefined,
    (err: unknown) => console.error("background work failed:", err instanceof Error ? err.message : err),
  );
  const background = backgroundOf(c);
  if (!background) return done;
  background(done);
  return undefined;
}

defineRoute(account, { method: "POST", path: "/account/register", auth: "Public", tag, summary: "Register", body: registerSchema }, async (c, { body }) => {
  enforceLimit(c, limiters.register, [`ip:${c.get("ip")}`, `acct:${body.userName.toLowerCase()}`]);
  await checkCaptcha(c, body.challenge);
  const smtp = smtpConfigFromEnv(c.env);
  if (!smtp && (await getPlatformConfig(c.get("db"), c.get("now"))).accountPolicy.emailConfirmationRequired) throw badRequest("mail.not_configured");
  const outcome = await accounts.register(deps(c), body, { language: c.get("lang") });
  if (outcome.status === "EmailConfirmationRequired") {
    const mailed = await accountMail.sendVerificationMail(mailDeps(c), outcome.userId).catch(async (err: unknown) => {
      await accountMail.discardUnverifiedUser(c.get("db"), outcome.userId);
      await logMailFailure(c, err, "verificationMailFailed", body.userName);
      throw err;
    });
    // Sent whole, its reply late: it may arrive, so the account stays (registering again mails a new link).
    if (mailed === "unconfirmed") await logMailUnconfirmed(c, body.userName);
  }
  if (outcome.sessionId) c.header("Set-Cookie", sessionCookie(c.req.raw, outcome.sessionId));
  await logEvent(c, { level: "Information", logger: "Account", userName: body.userName, text: { key: "registered", params: { status: outcome.status } }, status: "Success" });
  return c.json({ title: c.get("t")(`account.register_${outcome.status}`), data: outcome.status, status: 200 });
});

defineRoute(account, { method: "POST", path: "/account/login", auth: "Public", tag, summary: "Sign in", body: loginSchema }, async (c, { body }) => {
  enforceLimit(c, limiters.register, [`ip:${c.get("ip")}`]);
  await checkCaptcha(c, body.challenge);
  // The account's bucket is the account's, whether it is named by its user name or its email (rules.md §10).
  const { userName, sessionId } = await accounts.login(deps(c), body, (account) => enforceLimit(c, limiters.register, [`acct:${account}`])).catch(async (err: unknown) => {
    // A refusal by the sign-in limit is no guess at the password: not logged as a failed sign-in.
    if (err instanceof AppError && err.httpStatus !== 429) {
      await logEvent(c, { level: "Warning", logger: "Account", userName: body.userName, text: { key: "signInFailed", params: { reason: err.code } }, status: "Failed" });
    }
    throw err;
  });
  c.header("Set-Cookie", sessionCookie(c.req.raw, sessionId));
  await logEvent(c, { level: "Information", logger: "Account", userName, text: { key: "signedIn", params: {} }, status: "Success" });
  return ok(c, "account.logged_in");
});

// A sign-out whose session is already gone (expired, revoked, an undecodable cookie) is refused as any
// signed-out call is, and still clears the cookie, which the browser would otherwise keep sending. Only
// here: a late 401 of another route could clear the cookie a sign-in in another tab has just set.
account.use("/account/logout", async (c, next) => {
  await next();
  if (c.res.status === 401) c.header("Set-Cookie", clearedSessionCookie(c.req.raw));
});

defineRoute(account, { method: "POST", path: "/account/logout", auth: "User", tag, summary: "Sign out" }, async (c) => {
  const session = await revokeSession(c.get("db"), c.req.raw);
  // What the session opened ends with it (its live sockets were authorised when they opened).
  if (session) await disconnectSession(c.env, c.get("db"), session);
  c.header("Set-Cookie", clearedSessionCookie(c.req.raw));
  return ok(c, "account.logged_out");
});

defineRoute(account, { method: "GET", path: "/account/profile", auth: "User", tag, summary: "Own profile" }, async (c, { user }) =>
  c.json(await accounts.getProfile(c.get("db"), user!.id)),
);

defineRoute(account, { method: "PUT", path: "/account/update", auth: "User", tag, summary: "Update own profile", body: profileUpdateSchema }, async (c, { body, user }) => {
  await accounts.updateProfile(deps(c), user!.id, body);
  if (body.userName != null && body.userName !== user!.userName) await refreshRoomsOfUser(c.env, c.get("db"), user!.id);
  return ok(c, "account.updated");
});

defineRoute(account, { method: "PUT", path: "/account/changepassword", auth: "User", tag, summary: "Change password (signs out everywhere)", body: changePasswordSchema }, async (c, { body, user }) => {
  await accounts.changePassword(deps(c), user!.id, body);
  await disconnectUser(c.env, c.get("db"), user!.id, user!.role, user!.role, true);
  await logEvent(c, { level: "Information", logger: "Account", text: { key: "passwordChanged", params: {} }, status: "Success" });
  c.header("Set-Cookie", clearedSessionCookie(c.req.raw));
  return ok(c, "account.password_changed");
});

defineRoute(account, { method: "PUT", path: "/account/avatar", auth: "User", tag, summary: "Upload own avatar (image ≤ 3 MB)", rawBody: "multipart" }, async (c, { user }) => {
  const form = await c.req.formData().catch(() => null);
  const url = await setUserAvatar({ db: c.get("db"), bucket: c.env.FILES, now: c.get("now") }, user!.id, form?.get("file"));
  return c.json(url);
});

const linkSchema = z.object({ token: z.string().min(1).max(1024), email: z.string().min(1).max(1024) });

defineRoute(account, { method: "POST", path: "/account/verify", auth: "Public", tag, summary: "Activate an account from its mail link (signs in)", body: linkSchema }, async (c, { body }) => {
  const { sessionId } = await accountMail.verifyAccount(deps(c), body);
  c.header("Set-Cookie", sessionCookie(c.req.raw, sessionId));
  return ok(c, "account.verified");
});

defineRoute(account, { method: "POST", path: "/account/recovery", auth: "Public", tag, summary: "Mail a password reset link", body: z.object({ email: emailSchema, challenge: z.string().max(4096).optional() }) }, async (c, { body }) => {
  enforceLimit(c, limiters.register, [`ip:${c.get("ip")}`, `acct:${body.email.toLowerCase()}`]);
  await checkCaptcha(c, body.challenge);
  const mail = mailDeps(c);
  if (!mail.smtp) throw badRequest("mail.not_configured");
  // Answered before the account is looked up and mailed: neither the answer nor its time says whether the
  // address is registered (rules.md §14). A failed or unconfirmed mail is logged for the admins.
  const sending = accountMail.requestRecovery(mail, body.email).then(async (result) => {
    if (result && "undelivered" in result) {
      await logEvent(c, { level: "Error", logger: "Account", userName: result.undelivered, text: { key: "recoveryMailFailed", params: { user: result.undelivered } }, status: "Failed" });
    } else if (result) await logMailUnconfirmed(c, result.unconfirmed);
  });
  await afterAnswer(c, sending);
  return ok(c, "account.recovery_sent");
});

defineRoute(account, { method: "POST", path: "/account/passwordreset", auth: "Public", tag, summary: "Set a new password from a reset link (signs out everywhere)", body: z.object({ password: passwordSchema, email: z.string().min(1).max(1024), rToken: z.string().min(1).max(1024) }) }, async (c, { body }) => {
  enforceLimit(c, limiters.register, [`ip:${c.get("ip")}`, `acct:${body.email}`]);
  const { userId, userName, role } = await accountMail.resetPassword(deps(c), body);
  await disconnectUser(c.env, c.get("db"), userId, role, role, true);
  await logEvent(c, { level: "Information", logger: "Account", userName, text: { key: "passwordResetByMail", params: {} }, status: "Success" });
  return ok(c, "account.password_reset");
});

defineRoute(account, { method: "PUT", path: "/account/changeemail", auth: "User", tag, summary: "Mail a confirmation link to a new address", body: z.object({ newMail: emailSchema }) }, async (c, { body, user }) => {
  enforceLimit(c, limiters.register, [`ip:${c.get("ip")}`, `acct:${user!.id}`]);
  try {
    const mailed = await accountMail.requestEmailChange(mailDeps(c), user!.id, body.newMail);
    if (mailed === "unconfirmed") await logMailUnconfirmed(c, user!.userName);
  } catch (err) {
    if (err instanceof AppError && err.code === "account.email_change_by_admin") {
      return c.json({ title: c.get("t")(err.code), data: false, status: 400 }, 400);
    }
    await logMailFailure(c, err, "emailChangeMailFailed", user!.userName);
    throw err;
  }
  return c.json({ title: c.get("t")("account.email_change_sent"), data: true, status: 200 });
});

defineRoute(account, { method: "POST", path: "/account/mailchangeconfirm", auth: "User", tag, summary: "Confirm a new email address from its mail link", body: linkSchema }, async (c, { body, user }) => {
  await accountMail.confirmEmailChange(deps(c), user!.id, body);
  return ok(c, "account.email_changed");
});
