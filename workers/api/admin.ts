import { Hono } from "hono";
import * as teams from "~/.server/services/teams";
import * as usersAdmin from "~/.server/services/users-admin";
import { notFound } from "~/core/errors";
import { adminTeamUpdateSchema, pageQuerySchema, searchQuerySchema } from "~/core/schemas/team";
import { getPlatformConfig, updatePlatformConfig } from "~/.server/services/config";
import { configUpdateSchema } from "~/core/schemas/config";
import type { ApiContext, ApiEnv } from "./context";
import { defineRoute } from "./registry";

export const admin = new Hono<ApiEnv>();
const tag = "Admin";

defineRoute(admin, { method: "GET", path: "/admin/config", auth: "Admin", tag, summary: "Platform settings" }, async (c) =>
  c.json(await getPlatformConfig(c.var.db, c.var.now)),
);

defineRoute(admin, { method: "PUT", path: "/admin/config", auth: "Admin", tag, summary: "Update platform settings", body: configUpdateSchema }, async (c, { body }) => {
  await updatePlatformConfig(c.var.db, body, c.var.now);
  return c.json({ title: c.var.t("admin.config_saved"), status: 200 });
});

// ── Teams (api.md §7) ────────────────────────────────────────────────────────────────────────────────

const adminTeamId = (c: ApiContext): number => {
  const raw = c.req.param("id") ?? "";
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
  if (id <= 0) throw notFound("team.not_found");
  return id;
};

defineRoute(admin, { method: "GET", path: "/admin/teams", auth: "Admin", tag, summary: "All teams, paged", query: pageQuerySchema }, async (c, { query }) =>
  c.json(await teams.listTeams(c.var.db, query)),
);

defineRoute(admin, { method: "POST", path: "/admin/teams/search", auth: "Admin", tag, summary: "Search teams by name or id (at most 30)", query: searchQuerySchema }, async (c, { query }) =>
  c.json(await teams.searchTeams(c.var.db, query.hint)),
);

defineRoute(admin, { method: "PUT", path: "/admin/teams/:id", auth: "Admin", tag, summary: "Edit a team (name, bio, lock)", body: adminTeamUpdateSchema }, async (c, { body }) =>
  c.json(await teams.adminUpdateTeam(c.var.db, adminTeamId(c), body)),
);

defineRoute(admin, { method: "DELETE", path: "/admin/teams/:id", auth: "Admin", tag, summary: "Delete a team" }, async (c) => {
  await teams.adminDeleteTeam({ db: c.var.db, bucket: c.env.FILES }, adminTeamId(c));
  return c.json({ title: c.var.t("team.deleted"), status: 200 });
});

// ── Users (api.md §7) ────────────────────────────────────────────────────────────────────────────────

const adminUserId = (c: ApiContext): string => {
  const id = c.req.param("id") ?? "";
  if (!/^[0-9A-Za-z-]{1,64}$/.test(id)) throw notFound("admin.user_not_found");
  return id;
};

defineRoute(admin, { method: "GET", path: "/admin/users", auth: "Admin", tag, summary: "All users, paged", query: pageQuerySchema }, async (c, { query }) =>
  c.json(await usersAdmin.listUsers(c.var.db, query)),
);

defineRoute(admin, { method: "POST", path: "/admin/users/search", auth: "Admin", tag, summary: "Search users by user name, email, real name or student number (at most 30)", query: searchQuerySchema }, async (c, { query }) =>
  c.json(await usersAdmin.searchUsers(c.var.db, query.hint)),
);

defineRoute(admin, { method: "POST", path: "/admin/users", auth: "Admin", tag, summary: "Create or update users in batch", body: usersAdmin.batchCreateSchema }, async (c, { body }) =>
  c.json(await usersAdmin.batchCreateUsers({ db: c.var.db, now: c.var.now }, body, c.var.t)),
);

defineRoute(admin, { method: "GET", path: "/admin/users/:id", auth: "Admin", tag, summary: "A user's profile" }, async (c) =>
  c.json(await usersAdmin.getUserProfile(c.var.db, adminUserId(c))),
);

defineRoute(admin, { method: "PUT", path: "/admin/users/:id", auth: "Admin", tag, summary: "Edit a user (fields, role, activation)", body: usersAdmin.adminUserUpdateSchema }, async (c, { body, user }) => {
  await usersAdmin.updateUser({ db: c.var.db, now: c.var.now }, user!.id, adminUserId(c), body);
  return c.json({ title: c.var.t("admin.user_updated"), status: 200 });
});

defineRoute(admin, { method: "DELETE", path: "/admin/users/:id", auth: "Admin", tag, summary: "Delete a user" }, async (c, { user }) => {
  await usersAdmin.deleteUser({ db: c.var.db, bucket: c.env.FILES }, user!.id, adminUserId(c));
  return c.json({ title: c.var.t("admin.user_deleted"), status: 200 });
});

defineRoute(admin, { method: "DELETE", path: "/admin/users/:id/password", auth: "Admin", tag, summary: "Reset a user's password to a random one (shown once)" }, async (c) =>
  c.json(await usersAdmin.resetPassword(c.var.db, adminUserId(c))),
);
