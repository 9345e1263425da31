import { Hono } from "hono";
import { z } from "zod";
import { bootstrapAdmin } from "~/.server/services/accounts";
import { badRequest, notFound } from "~/core/errors";
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

const bootstrapSchema = z.object({ userName: z.string().trim().min(3).max(15).optional(), password: z.string().min(6).max(128).optional() });

internal.post("/__internal/bootstrap-admin", async (c) => {
  if (!secretEquals(c.env.FLAGSTAFF_BOOTSTRAP_TOKEN, c.req.header("x-flagstaff-bootstrap"))) throw notFound("common.route_not_found");
  const parsed = bootstrapSchema.safeParse(await c.req.json().catch(() => ({})));
  if (!parsed.success) throw badRequest("validation.invalid", { field: "FLAGSTAFF_ADMIN_USER / FLAGSTAFF_ADMIN_PASSWORD" });
  const input = parsed.data;
  const created = await bootstrapAdmin({ db: c.get("db"), now: c.get("now") }, input);
  return c.json(created ? { created: true, ...created } : { created: false });
});
