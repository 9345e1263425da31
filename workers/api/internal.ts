import { Hono } from "hono";
import { z } from "zod";
import { bootstrapAdmin, hasAdmin } from "~/.server/services/accounts";
import { badRequest, notFound } from "~/core/errors";
import { passwordSchema, userNameSchema } from "~/core/schemas/account";
import { secretEquals } from "~/core/secret-equal";
import type { ApiEnv } from "./context";
import { apiContext, errorResponse } from "./middleware";

/**
 * Process-local operations for `npm start` only. Enabled when the server was started with a random
 * FLAGSTAFF_BOOTSTRAP_TOKEN, and answered only to a request carrying the same token.
 */
export const internal = new Hono<ApiEnv>();
internal.use("*", apiContext);
internal.onError((err, c) => errorResponse(c, err));

/**
 * The same rules as a registration (api.md §3), applied only when the admin is to be made: an install
 * whose admin exists ignores the settings (README), whatever an older release let them be.
 */
const bootstrapSchema = z.object({ userName: userNameSchema.optional(), password: passwordSchema.optional() });

internal.post("/__internal/bootstrap-admin", async (c) => {
  if (!secretEquals(c.env.FLAGSTAFF_BOOTSTRAP_TOKEN, c.req.header("x-flagstaff-bootstrap"))) throw notFound("common.route_not_found");
  if (await hasAdmin(c.get("db"))) return c.json({ created: false });
  const parsed = bootstrapSchema.safeParse(await c.req.json().catch(() => ({})));
  if (!parsed.success) throw badRequest("validation.invalid", { field: "FLAGSTAFF_ADMIN_USER / FLAGSTAFF_ADMIN_PASSWORD" });
  const input = parsed.data;
  const created = await bootstrapAdmin({ db: c.get("db"), now: c.get("now") }, input);
  return c.json(created ? { created: true, ...created } : { created: false });
});
