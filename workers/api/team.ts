import { Hono } from "hono";
import { refreshRooms, refreshRoomsOfReturn, refreshRoomsOfTeam } from "~/.server/services/room";
import { destroyContainersOfTeam } from "~/.server/services/containers";
import * as teamService from "~/.server/services/teams";
import { badRequest, tooManyRequests } from "~/core/errors";
import { inviteCodeSchema, teamCreateSchema, teamUpdateSchema, teamVerifySchema, transferSchema } from "~/core/schemas/team";
import { containerDeps } from "./container-deps";
import type { ApiContext, ApiEnv } from "./context";
import { defineRoute } from "./registry";
import { pathId } from "./edit";
import { rateLimitDisabled } from "./middleware";

export const team = new Hono<ApiEnv>();
const tag = "Team";
const deps = (c: ApiContext) => ({ db: c.get("db"), now: c.get("now") });
const storageDeps = (c: ApiContext) => ({ ...deps(c), bucket: c.env.FILES });
const ok = (c: ApiContext, key: string) => c.json({ title: c.get("t")(key), status: 200 });

/** A path id (app/core/http/path-id.ts); anything else is an unknown team (404), never a 500. */
const teamId = (c: ApiContext): number => pathId(c, "id", "team.not_found");

/**
 * One team creation at a time per user (api.md §13: 429; off with the other limits under
 * FLAGSTAFF_DISABLE_RATE_LIMIT); the captain index settles the rest.
 */
const creating = new Set<string>();

defineRoute(team, { method: "POST", path: "/team", auth: "User", tag, summary: "Create a team (the caller is captain)", body: teamCreateSchema }, async (c, { body, user }) => {
  if (rateLimitDisabled(c)) return c.json(await teamService.createTeam(deps(c), user!.id, body));
  if (creating.has(user!.id)) throw tooManyRequests(1);
  creating.add(user!.id);
  try {
    return c.json(await teamService.createTeam(deps(c), user!.id, body));
  } finally {
    creating.delete(user!.id);
  }
});

defineRoute(team, { method: "GET", path: "/team", auth: "User", tag, summary: "The caller's teams" }, async (c, { user }) =>
  c.json(await teamService.listMyTeams(c.get("db"), user!.id, c.get("now"))),
);

defineRoute(team, { method: "POST", path: "/team/accept", auth: "User", tag, summary: "Join a team by invite code (JSON string body)", body: inviteCodeSchema }, async (c, { body, user }) => {
  const info = await teamService.acceptInvite(deps(c), user!.id, body);
  // A member who left after playing and comes back plays for the team again in those games.
  await refreshRoomsOfReturn(c.env, c.get("db"), info.id, user!.id);
  return ok(c, "team.joined");
});

defineRoute(team, { method: "POST", path: "/team/verify", auth: "Public", tag, summary: "Verify a team token against a game's public key", body: teamVerifySchema }, async (c, { body }) => {
  await teamService.verifyToken(body);
  return ok(c, "team.token_valid");
});

defineRoute(team, { method: "GET", path: "/team/:id", auth: "Public", tag, summary: "Team information" }, async (c) =>
  c.json(await teamService.getTeamInfo(c.get("db"), teamId(c))),
);

defineRoute(team, { method: "PUT", path: "/team/:id", auth: "User", access: "Captain", tag, summary: "Edit a team (captain)", body: teamUpdateSchema }, async (c, { body, user }) => {
  const id = teamId(c);
  const info = await teamService.updateTeam(deps(c), user!.id, id, body);
  // The name and bio are on the boards of the games the team plays.
  await refreshRoomsOfTeam(c.env, c.get("db"), id);
  return c.json(info);
});

defineRoute(team, { method: "DELETE", path: "/team/:id", auth: "User", access: "Captain", tag, summary: "Disband a team (captain)" }, async (c, { user }) => {
  const games = await teamService.deleteTeam({ ...storageDeps(c), destroyContainers: (id) => destroyContainersOfTeam(containerDeps(c), id) }, user!.id, teamId(c));
  // Its participations and submissions went with it: those boards rebuild.
  await refreshRooms(c.env, games, "solves");
  return ok(c, "team.disbanded");
});

defineRoute(team, { method: "PUT", path: "/team/:id/avatar", auth: "User", access: "Captain", tag, summary: "Upload the team avatar (captain)", rawBody: "multipart" }, async (c, { user }) => {
  const id = teamId(c);
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw badRequest("file.invalid");
  }
  const avatar = await teamService.updateTeamAvatar(storageDeps(c), user!.id, id, form.get("file"));
  await refreshRoomsOfTeam(c.env, c.get("db"), id);
  return c.json(avatar);
});

defineRoute(team, { method: "GET", path: "/team/:id/invite", auth: "User", access: "Captain", tag, summary: "The invite code (captain)" }, async (c, { user }) =>
  c.json(await teamService.getInviteCode(c.get("db"), user!.id, teamId(c))),
);

defineRoute(team, { method: "PUT", path: "/team/:id/invite", auth: "User", access: "Captain", tag, summary: "Renew the invite code (captain)" }, async (c, { user }) =>
  c.json(await teamService.renewInviteCode(c.get("db"), user!.id, teamId(c))),
);

defineRoute(team, { method: "POST", path: "/team/:id/kick/:userid", auth: "User", access: "Captain", tag, summary: "Remove a member (captain)" }, async (c, { user }) => {
  const id = teamId(c);
  const info = await teamService.kickMember(storageDeps(c), user!.id, id, c.req.param("userid") ?? "");
  // The member's game registrations went: the rooms stop taking their flags.
  await refreshRoomsOfTeam(c.env, c.get("db"), id);
  return c.json(info);
});

defineRoute(team, { method: "POST", path: "/team/:id/leave", auth: "User", access: "Member", tag, summary: "Leave a team (member)" }, async (c, { user }) => {
  const id = teamId(c);
  await teamService.leaveTeam(storageDeps(c), user!.id, id);
  await refreshRoomsOfTeam(c.env, c.get("db"), id);
  return ok(c, "team.left");
});

defineRoute(team, { method: "PUT", path: "/team/:id/transfer", auth: "User", access: "Captain", tag, summary: "Transfer captaincy (captain)", body: transferSchema }, async (c, { body, user }) =>
  c.json(await teamService.transferCaptain(deps(c), user!.id, teamId(c), body.newCaptainId)),
);
