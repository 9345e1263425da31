import { Hono } from "hono";
import * as challengeService from "~/.server/services/challenges";
import * as containerService from "~/.server/services/containers";
import { requirePlayer } from "~/.server/services/player-challenges";
import { refreshRoom } from "~/.server/services/room";
import { containerDeps } from "./container-deps";
import type { ApiContext, ApiEnv } from "./context";
import { editGameId, pathId } from "./edit";
import { logEvent } from "./log";
import { enforceLimit, limiters } from "./middleware";
import { defineRoute } from "./registry";

/** Containers: a team's container calls (api.md §10), admin test containers (§9) and instances (§7). */
export const containersApi = new Hono<ApiEnv>();


const challengeId = (c: ApiContext) => pathId(c, "cid", "challenge.not_found");

async function player(c: ApiContext, userId: string) {
  const p = await requirePlayer(c.get("db"), editGameId(c), userId, c.get("now"));
  enforceLimit(c, limiters.container, [`t:${p.participation.teamId}`]);
  return p;
}

// ── Player ───────────────────────────────────────────────────────────────────────────────────────────

defineRoute(containersApi, { method: "POST", path: "/game/:id/container/:cid", auth: "User", access: "Player", tag: "Game", summary: "Start the team's container of a challenge (Player)" }, async (c, { user }) => {
  const p = await player(c, user!.id);
  const cid = challengeId(c);
  const info = await containerService.createPlayerContainer(containerDeps(c), { db: c.get("db"), log: (entry) => logEvent(c, entry) }, p, cid, user!.id);
  // The team's flag may have been assigned just now: the judge must know it.
  await refreshRoom(c.env, p.game.id, { challengeId: cid, participationId: p.participation.id });
  return c.json(info);
});

defineRoute(containersApi, { method: "POST", path: "/game/:id/container/:cid/extend", auth: "User", access: "Player", tag: "Game", summary: "Extend the team's container inside the renewal window (Player)" }, async (c, { user }) => {
  const p = await player(c, user!.id);
  return c.json(await containerService.extendPlayerContainer(containerDeps(c), p, challengeId(c)));
});

defineRoute(containersApi, { method: "DELETE", path: "/game/:id/container/:cid", auth: "User", access: "Player", tag: "Game", summary: "Destroy the team's container (Player)" }, async (c, { user }) => {
  const p = await player(c, user!.id);
  const { reached } = await containerService.destroyPlayerContainer(containerDeps(c), p, challengeId(c), user!.id);
  return c.json({ title: c.get("t")(reached ? "container.destroyed" : "container.released"), status: 200 });
});

// ── Admin test container ─────────────────────────────────────────────────────────────────────────────

defineRoute(containersApi, { method: "POST", path: "/edit/games/:id/challenges/:cid/container", auth: "Admin", tag: "Edit", summary: "Start the challenge's admin test container" }, async (c, { user }) => {
  const challenge = await challengeService.requireChallenge(c.get("db"), editGameId(c), challengeId(c));
  return c.json(await containerService.startTestContainer(containerDeps(c), challenge, user!.id));
});

defineRoute(containersApi, { method: "DELETE", path: "/edit/games/:id/challenges/:cid/container", auth: "Admin", tag: "Edit", summary: "Stop the challenge's admin test container" }, async (c) => {
  const challenge = await challengeService.requireChallenge(c.get("db"), editGameId(c), challengeId(c));
  const { id, reached, failure } = await containerService.stopTestContainer(containerDeps(c), challenge);
  const stopped = { id, title: challenge.title, challenge: challenge.id };
  await logEvent(c, {
    level: reached ? "Information" : "Warning",
    logger: "Container",
    text: failure ? { key: "testContainerReleased", params: { ...stopped, failure } } : { key: "testContainerStopped", params: stopped },
    status: "Success",
  });
  return c.json({ title: c.get("t")(reached ? "container.destroyed" : "container.released"), status: 200 });
});

// ── Admin instances ──────────────────────────────────────────────────────────────────────────────────

defineRoute(containersApi, { method: "GET", path: "/admin/instances", auth: "Admin", tag: "Admin", summary: "Live team containers (no test containers, nothing destroyed)" }, async (c) => {
  const data = await containerService.listAdminInstances(containerDeps(c));
  return c.json({ data, length: data.length, total: data.length });
});

defineRoute(containersApi, { method: "GET", path: "/admin/agents", auth: "Admin", tag: "Admin", summary: "The configured container agents and their health" }, async (c) =>
  c.json(await containerService.listAgents(c.env, c.get("now"))),
);

defineRoute(containersApi, { method: "DELETE", path: "/admin/instances/:iid", auth: "Admin", tag: "Admin", summary: "Destroy a team container" }, async (c) => {
  const id = c.req.param("iid") ?? "";
  const { reached, failure } = await containerService.destroyAdminInstance(containerDeps(c), id);
  await logEvent(c, {
    level: "Warning",
    logger: "Container",
    text: failure ? { key: "containerReleasedByAdmin", params: { id, failure } } : { key: "containerDestroyedByAdmin", params: { id } },
    status: "Success",
  });
  return c.json({ title: c.get("t")(reached ? "container.destroyed" : "container.released"), status: 200 });
});
