import { Hono } from "hono";
import { gamesOfUser, refreshRooms, refreshRoomsOfReturn, refreshRoomsOfTeam, refreshRoomsOfUser } from "~/.server/services/room";
import * as teams from "~/.server/services/teams";
import { disconnectUser, disconnectUsers } from "~/.server/services/sockets";
import * as usersAdmin from "~/.server/services/users-admin";
import { badRequest, notFound } from "~/core/errors";
import { queryEnum, queryInt } from "~/core/schemas/query";
import { adminTeamUpdateSchema, pageQuerySchema, searchQuerySchema } from "~/core/schemas/team";
import { getPlatformConfig, updatePlatformConfig } from "~/.server/services/config";
import { configUpdateSchema } from "~/core/schemas/config";
import { type ApiContext, type ApiEnv, backgroundOf } from "./context";
import { listLogs } from "~/.server/services/logs";
import { LOG_LEVELS } from "~/core/enums";
import { z } from "zod";
import { containerDeps } from "./container-deps";
import { logEvent } from "./log";
import { defineRoute } from "./registry";
import * as branding from "~/.server/services/branding";
import { listFiles, sweepUnreferenced } from "~/.server/storage/files";

import * as containerService from "~/.server/services/containers";
import * as participations from "~/.server/services/participations";
import { refreshRoomOfParticipation } from "~/.server/services/room";
import { parseReviewStatus, participationReviewSchema, participationUpdateSchema, type ReviewStatus } from "~/core/schemas/game";
import { pathId } from "./edit";

export const admin = new Hono<ApiEnv>();
const tag = "Admin";

defineRoute(admin, { method: "GET", path: "/admin/config", auth: "Admin", tag, summary: "Platform settings" }, async (c) =>
  c.json(await getPlatformConfig(c.get("db"), c.get("now"))),
);

defineRoute(admin, { method: "PUT", path: "/admin/config", auth: "Admin", tag, summary: "Update platform settings", body: configUpdateSchema }, async (c, { body }) => {
  const before = await getPlatformConfig(c.get("db"), c.get("now"));
  const after = await updatePlatformConfig(c.get("db"), body, c.get("now"));
  const changed = (["accountPolicy", "globalConfig", "containerPolicy"] as const).flatMap((section) =>
    Object.keys(after[section]).filter((k) => JSON.stringify((before[section] as Record<string, unknown>)[k]) !== JSON.stringify((after[section] as Record<string, unknown>)[k])).map((k) => `${section}.${k}`),
  );
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "settingsChanged", params: { fields: changed } }, status: "Success" });
  return c.json({ title: c.get("t")("admin.config_saved"), status: 200 });
});

// ── Teams (api.md §7) ────────────────────────────────────────────────────────────────────────────────

const adminTeamId = (c: ApiContext): number => pathId(c, "id", "team.not_found");

defineRoute(admin, { method: "GET", path: "/admin/teams", auth: "Admin", tag, summary: "All teams, paged", query: pageQuerySchema }, async (c, { query }) =>
  c.json(await teams.listTeams(c.get("db"), query)),
);

defineRoute(admin, { method: "POST", path: "/admin/teams/search", auth: "Admin", tag, summary: "Search teams by name or id (at most 30)", query: searchQuerySchema }, async (c, { query }) =>
  c.json(await teams.searchTeams(c.get("db"), query.hint)),
);

defineRoute(admin, { method: "PUT", path: "/admin/teams/:id", auth: "Admin", tag, summary: "Edit a team (name, bio, lock)", body: adminTeamUpdateSchema }, async (c, { body }) => {
  const info = await teams.adminUpdateTeam(c.get("db"), adminTeamId(c), body);
  await refreshRoomsOfTeam(c.env, c.get("db"), info.id);
  const key = body.locked == null ? "teamEdited" : body.locked ? "teamLocked" : "teamUnlocked";
  await logEvent(c, { level: "Information", logger: "Admin", text: { key, params: { team: info.name, id: info.id } }, status: "Success" });
  return c.json(info);
});

defineRoute(admin, { method: "DELETE", path: "/admin/teams/:id", auth: "Admin", tag, summary: "Delete a team" }, async (c) => {
  const games = await teams.adminDeleteTeam({ db: c.get("db"), bucket: c.env.FILES, destroyContainers: (id) => containerService.destroyContainersOfTeam(containerDeps(c), id) }, adminTeamId(c));
  // Its participations and submissions went with it: those boards rebuild.
  await refreshRooms(c.env, games, "solves");
  await logEvent(c, { level: "Warning", logger: "Admin", text: { key: "teamDeleted", params: { id: adminTeamId(c) } }, status: "Success" });
  return c.json({ title: c.get("t")("team.deleted"), status: 200 });
});

defineRoute(admin, { method: "POST", path: "/admin/teams/:id/kick/:userid", auth: "Admin", tag, summary: "Remove a member from a team (not the captain)" }, async (c) => {
  const id = adminTeamId(c);
  const userId = c.req.param("userid") ?? "";
  const { team, userName } = await teams.adminKickMember({ db: c.get("db"), bucket: c.env.FILES, now: c.get("now") }, id, userId);
  // As for the captain's kick: the member's game registrations went, the rooms stop taking their flags.
  await refreshRoomsOfTeam(c.env, c.get("db"), id);
  await logEvent(c, { level: "Warning", logger: "Admin", text: { key: "teamMemberRemoved", params: { user: userName, team: team.name, id: team.id } }, status: "Success" });
  return c.json(team);
});

// ── Users (api.md §7) ────────────────────────────────────────────────────────────────────────────────

const adminUserId = (c: ApiContext): string => {
  const id = c.req.param("id") ?? "";
  if (!/^[0-9A-Za-z-]{1,64}$/.test(id)) throw notFound("admin.user_not_found");
  return id;
};

defineRoute(admin, { method: "GET", path: "/admin/users", auth: "Admin", tag, summary: "All users, paged", query: pageQuerySchema }, async (c, { query }) =>
  c.json(await usersAdmin.listUsers(c.get("db"), query)),
);

defineRoute(admin, { method: "POST", path: "/admin/users/search", auth: "Admin", tag, summary: "Search users by user name, email, real name or student number (at most 30)", query: searchQuerySchema }, async (c, { query }) =>
  c.json(await usersAdmin.searchUsers(c.get("db"), query.hint)),
);

defineRoute(admin, { method: "POST", path: "/admin/users", auth: "Admin", tag, summary: "Create or update users in batch", body: usersAdmin.batchCreateSchema }, async (c, { body }) => {
  const { results, revoked, joined } = await usersAdmin.batchCreateUsers({ db: c.get("db"), now: c.get("now") }, body, c.get("t"));
  await disconnectUsers(c.env, c.get("db"), revoked);
  for (const { teamId, userId } of joined) await refreshRoomsOfReturn(c.env, c.get("db"), teamId, userId);
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "usersImported", params: { rows: body.length } }, status: "Success" });
  return c.json(results);
});

defineRoute(admin, { method: "GET", path: "/admin/users/:id", auth: "Admin", tag, summary: "A user's profile" }, async (c) =>
  c.json(await usersAdmin.getUserProfile(c.get("db"), adminUserId(c))),
);

defineRoute(admin, { method: "PUT", path: "/admin/users/:id", auth: "Admin", tag, summary: "Edit a user (fields, role, activation); optional role last seen (expectedRole: 409 when it changed)", body: usersAdmin.adminUserUpdateSchema }, async (c, { body, user }) => {
  const { user: info, previousRole, changed, revoked } = await usersAdmin.updateUser({ db: c.get("db"), now: c.get("now") }, user!.id, adminUserId(c), body);
  // Banned or deactivated: every live socket closes, as the sessions did.
  await disconnectUser(c.env, c.get("db"), adminUserId(c), previousRole, info.role, revoked);
  if (changed.includes("userName")) await refreshRoomsOfUser(c.env, c.get("db"), adminUserId(c));
  const role = changed.includes("role") ? info.role : null;
  await logEvent(c, { level: revoked ? "Warning" : "Information", logger: "Admin", text: { key: "userUpdated", params: { user: info.userName, fields: changed, role } }, status: "Success" });
  return c.json({ title: c.get("t")("admin.user_updated"), status: 200 });
});

defineRoute(admin, { method: "DELETE", path: "/admin/users/:id", auth: "Admin", tag, summary: "Delete a user" }, async (c, { user }) => {
  const target = await usersAdmin.getUserProfile(c.get("db"), adminUserId(c));
  // The user's name leaves the solves of the games they played (the board and a rebuilt room agree).
  const played = await gamesOfUser(c.get("db"), adminUserId(c));
  const role = await usersAdmin.deleteUser({ db: c.get("db"), bucket: c.env.FILES }, user!.id, adminUserId(c));
  await disconnectUser(c.env, c.get("db"), adminUserId(c), role, null);
  await refreshRooms(c.env, played, "solves");
  await logEvent(c, { level: "Warning", logger: "Admin", text: { key: "userDeleted", params: { user: target.userName, id: target.userId } }, status: "Success" });
  return c.json({ title: c.get("t")("admin.user_deleted"), status: 200 });
});

defineRoute(admin, { method: "DELETE", path: "/admin/users/:id/password", auth: "Admin", tag, summary: "Reset a user's password to a random one (shown once)" }, async (c) => {
  const { password, role } = await usersAdmin.resetPassword(c.get("db"), adminUserId(c));
  await disconnectUser(c.env, c.get("db"), adminUserId(c), role, role, true);
  const target = await usersAdmin.getUserProfile(c.get("db"), adminUserId(c));
  await logEvent(c, { level: "Warning", logger: "Admin", text: { key: "userPasswordReset", params: { user: target.userName } }, status: "Success" });
  return c.json(password);
});

// ── Logs (api.md §7) ─────────────────────────────────────────────────────────────────────────────────

const logQuerySchema = z.object({
  level: queryEnum(LOG_LEVELS).default("All"),
  count: queryInt(z.number().int().min(0).max(1000)).default(50),
  skip: queryInt(z.number().int().min(0)).default(0),
});

defineRoute(admin, { method: "GET", path: "/admin/logs", auth: "Admin", tag, summary: "Platform log records, newest first", query: logQuerySchema }, async (c, { query }) =>
  c.json(await listLogs(c.get("db"), query)),
);

// ── Logo and files (api.md §7) ───────────────────────────────────────────────────────────────────────

defineRoute(admin, { method: "POST", path: "/admin/config/logo", auth: "Admin", tag, summary: "Upload the platform logo (image ≤ 3 MB; also the favicon)", rawBody: "multipart" }, async (c) => {
  const form = await c.req.formData().catch(() => null);
  const logo = await branding.setLogo({ db: c.get("db"), bucket: c.env.FILES, now: c.get("now") }, form?.get("file"));
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "logoUploaded", params: {} }, status: "Success" });
  return c.json(logo);
});

defineRoute(admin, { method: "DELETE", path: "/admin/config/logo", auth: "Admin", tag, summary: "Restore the default logo" }, async (c) => {
  await branding.resetLogo({ db: c.get("db"), bucket: c.env.FILES, now: c.get("now") });
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "logoReset", params: {} }, status: "Success" });
  return c.json({ title: c.get("t")("admin.logo_reset"), status: 200 });
});

defineRoute(admin, { method: "GET", path: "/admin/files", auth: "Admin", tag, summary: "Stored files, newest first", query: pageQuerySchema }, async (c, { query }) => {
  // Files a crash left at zero references go meanwhile (they are not listed).
  const sweep = sweepUnreferenced({ db: c.get("db"), bucket: c.env.FILES }).catch((err) => console.error("file sweep failed", err));
  const background = backgroundOf(c);
  if (background) background(sweep);
  else await sweep;
  return c.json(await listFiles(c.get("db"), query));
});

// ── Participation review (api.md §7) ─────────────────────────────────────────────────────────────────

const participationId = (c: ApiContext): number => pathId(c, "id", "participation.not_found");

function reviewStatus(value: string | null | undefined): ReviewStatus {
  const status = parseReviewStatus(value ?? "");
  if (!status) throw badRequest("participation.invalid_status");
  return status;
}

defineRoute(admin, { method: "PUT", path: "/admin/participation/:id/:status", auth: "Admin", tag, summary: "Review a participation (Accepted, Rejected, Suspended, Pending); optional division, and the status last seen (expectedStatus: 409 when it changed)", body: participationReviewSchema }, async (c, { body }) => {
  const id = participationId(c);
  const status = reviewStatus(c.req.param("status"));
  const reviewed = await participations.reviewParticipation({ db: c.get("db"), now: c.get("now") }, id, { status, divisionId: body?.divisionId, expectedStatus: body?.expectedStatus });
  await refreshRoomOfParticipation(c.env, c.get("db"), id);
  if (status !== "Accepted") await containerService.destroyContainersOfParticipation(containerDeps(c), id);
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "teamParticipationStatus", params: { id, team: reviewed.teamName, game: reviewed.gameId, status } }, status: "Success" });
  return c.json({ title: c.get("t")("participation.updated"), status: 200 });
});

defineRoute(admin, { method: "PUT", path: "/admin/participation/:id", auth: "Admin", tag, summary: "Change a participation's status and/or division; optional status last seen (expectedStatus: 409 when it changed)", body: participationUpdateSchema }, async (c, { body }) => {
  const id = participationId(c);
  const status = body.status != null ? reviewStatus(body.status) : null;
  const reviewed = await participations.reviewParticipation({ db: c.get("db"), now: c.get("now") }, id, { status, divisionId: body.divisionId, expectedStatus: body.expectedStatus });
  await refreshRoomOfParticipation(c.env, c.get("db"), id);
  if (status !== null && status !== "Accepted") await containerService.destroyContainersOfParticipation(containerDeps(c), id);
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "teamParticipationUpdated", params: { id, team: reviewed.teamName, game: reviewed.gameId } }, status: "Success" });
  return c.json({ title: c.get("t")("participation.updated"), status: 200 });
});
