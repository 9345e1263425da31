import { redirect } from "react-router";
import { type AuthLevel, checkAccess } from "~/core/permissions";
import { loginPath } from "~/lib/account";
import type { CurrentUser } from "./current-user";
import { getCurrentUser } from "./session";

/**
 * The loader guard (the API uses the same `checkAccess`). Not signed in → redirect to the login page with
 * the current path; role too low → 403 response rendered by the error boundary.
 */
export async function requireUser(request: Request, env: Env, level: Exclude<AuthLevel, "Public"> = "User"): Promise<CurrentUser> {
  let user = await getCurrentUser(request, env);
  let access = checkAccess(user?.role ?? null, level);
  if (access !== "ok" && user !== null) {
    // The session cache only grants: re-read the user before refusing.
    user = await getCurrentUser(request, env, { fresh: true });
    access = checkAccess(user?.role ?? null, level);
  }
  if (access === "login" || !user) throw redirect(loginPath(new URL(request.url)));
  if (access === "forbidden") throw new Response("Forbidden", { status: 403, statusText: "Forbidden" });
  return user;
}
