import type { CurrentUser } from "~/.server/auth/current-user";
import { resolveCurrentUser } from "~/.server/auth/session";
import { forbidden, unauthorized } from "~/core/errors";
import { type AuthLevel, checkAccess } from "~/core/permissions";
import { type ApiContext, backgroundOf } from "./context";

/** Reads (once per request) the signed-in user. */
export async function getUser(c: ApiContext): Promise<CurrentUser | null> {
  if (c.get("user") === undefined) c.set("user", await resolveCurrentUser(c.get("db"), c.req.raw, c.get("now"), { waitUntil: backgroundOf(c) }));
  return c.get("user") ?? null;
}

/** The one guard every API handler passes (loaders use `requireUser`, built on the same `checkAccess`). */
export async function requireAuth(c: ApiContext, level: AuthLevel): Promise<CurrentUser | null> {
  let user = await getUser(c);
  let access = checkAccess(user?.role ?? null, level);
  if (access !== "ok" && user !== null) {
    // The session cache only grants: re-read the user before refusing (a promotion counts at once).
    user = await resolveCurrentUser(c.get("db"), c.req.raw, c.get("now"), { fresh: true });
    c.set("user", user);
    access = checkAccess(user?.role ?? null, level);
  }
  if (access === "login") throw unauthorized();
  if (access === "forbidden") throw forbidden();
  return user;
}
