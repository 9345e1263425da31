import { Hono } from "hono";
import * as captureService from "~/.server/services/captures";
import * as containerService from "~/.server/services/containers";
import * as gameService from "~/.server/services/games";
import * as noticeService from "~/.server/services/notices";
import { refreshRoom, roomOf } from "~/.server/services/room";
import { badRequest, notFound } from "~/core/errors";
import { editGamesQuerySchema, gameCreateSchema, gameUpdateSchema, noticeSchema } from "~/core/schemas/game";
import { parsePathId } from "~/core/http/path-id";
import { containerDeps } from "./container-deps";
import type { ApiContext, ApiEnv } from "./context";
import { ifMatchOf, jsonWithVersion } from "./http-cache";
import { logEvent } from "./log";
import { defineRoute } from "./registry";

/** Edit — games and notices (api.md §9), all Admin. */
export const edit = new Hono<ApiEnv>();
const tag = "Edit";

const deps = (c: ApiContext) => ({ db: c.get("db"), now: c.get("now") });

/** A path id (parsePathId); anything else is an unknown object (404), never a 500. */
export function pathId(c: ApiContext, name: string, code: string): number {
  const id = parsePathId(c.req.param(name));
  if (id === null) throw notFound(code);
  return id;
}

export const editGameId = (c: ApiContext) => pathId(c, "id", "game.not_found");

/** Pushes a notice through the game's Durable Object to every socket on its `game` channel. */
export function noticeDeps(c: ApiContext): noticeService.NoticeDeps {
  return {
    ...deps(c),
    publish: (gameId, notice) => roomOf(c.env, gameId).publish("game", "notice", notice),
    publishDeleted: (gameId, id) => roomOf(c.env, gameId).publish("game", "noticeDeleted", { id }),
  };
}

defineRoute(edit, { method: "POST", path: "/edit/games", auth: "Admin", tag, summary: "Create a game (an Ed25519 key pair is made for it)", body: gameCreateSchema }, async (c, { body }) => {
  const game = await gameService.createGame(deps(c), body);
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "gameCreated", params: { title: game.title, id: game.id } }, status: "Success" });
  return c.json(game);
});

defineRoute(edit, { method: "GET", path: "/edit/games", auth: "Admin", tag, summary: "All games, newest start first (hidden included)", query: editGamesQuerySchema }, async (c, { query }) =>
  c.json(await gameService.listEditGames(c.get("db"), query)),
);

defineRoute(edit, { method: "GET", path: "/edit/games/:id", auth: "Admin", tag, summary: "A game's settings (ETag: its stored version)" }, async (c) =>
  jsonWithVersion(c, await gameService.readEditGame(c.get("db"), editGameId(c))),
);

defineRoute(
  edit,
  { method: "PUT", path: "/edit/games/:id", auth: "Admin", tag, summary: "Edit a game (partial; divisions as a full list; If-Match: 412 unless the stored version)", body: gameUpdateSchema },
  async (c, { body }) => {
    const id = editGameId(c);
    const updated = await gameService.updateGame(deps(c), id, body, ifMatchOf(c));
    await refreshRoom(c.env, id, "game");
    await logEvent(c, { level: "Information", logger: "Admin", text: { key: "gameEdited", params: { title: updated.value.title, id } }, status: "Success" });
    return jsonWithVersion(c, updated);
  },
);

defineRoute(edit, { method: "DELETE", path: "/edit/games/:id", auth: "Admin", tag, summary: "Delete a game and everything in it" }, async (c) => {
  const id = editGameId(c);
  await gameService.requireGame(c.get("db"), id);
  // Containers and capture files live outside D1: removed first (rules.md §8, api.md §9).
  await containerService.destroyContainersOfGame(containerDeps(c), id);
  await captureService.deleteCapturesOfGame({ db: c.get("db"), bucket: c.env.FILES }, id);
  await gameService.deleteGame({ db: c.get("db"), bucket: c.env.FILES }, id);
  await refreshRoom(c.env, id, "all");
  await roomOf(c.env, id).gameDeleted(id);
  await logEvent(c, { level: "Warning", logger: "Admin", text: { key: "gameDeleted", params: { id } }, status: "Success" });
  return c.json({ title: c.get("t")("game.deleted"), status: 200 });
});

defineRoute(edit, { method: "PUT", path: "/edit/games/:id/poster", auth: "Admin", tag, summary: "Upload the game poster (image < 3 MB)", rawBody: "multipart" }, async (c) => {
  const id = editGameId(c);
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw badRequest("file.invalid");
  }
  const poster = await gameService.updatePoster({ ...deps(c), bucket: c.env.FILES }, id, form.get("file"));
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "posterUploaded", params: { game: id } }, status: "Success" });
  return c.json(poster);
});

defineRoute(edit, { method: "DELETE", path: "/edit/games/:id/poster", auth: "Admin", tag, summary: "Remove the game poster" }, async (c) => {
  const removed = await gameService.removePoster({ ...deps(c), bucket: c.env.FILES }, editGameId(c));
  if (removed) await logEvent(c, { level: "Information", logger: "Admin", text: { key: "posterRemoved", params: { game: editGameId(c) } }, status: "Success" });
  return c.json({ title: c.get("t")("game.poster_removed"), status: 200 });
});

// ── Notices ──────────────────────────────────────────────────────────────────────────────────────────

const noticeId = (c: ApiContext) => pathId(c, "nid", "notice.not_found");

defineRoute(edit, { method: "GET", path: "/edit/games/:id/notices", auth: "Admin", tag, summary: "Every notice of a game, newest first" }, async (c) =>
  c.json(await noticeService.listAllNotices(c.get("db"), editGameId(c))),
);

defineRoute(edit, { method: "POST", path: "/edit/games/:id/notices", auth: "Admin", tag, summary: "Post a notice (pushed to players)", body: noticeSchema }, async (c, { body }) => {
  const notice = await noticeService.createNotice(noticeDeps(c), editGameId(c), body.content);
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "noticePosted", params: { id: notice.id, game: editGameId(c) } }, status: "Success" });
  return c.json(notice);
});

defineRoute(edit, { method: "PUT", path: "/edit/games/:id/notices/:nid", auth: "Admin", tag, summary: "Edit a Normal notice", body: noticeSchema }, async (c, { body }) => {
  const notice = await noticeService.updateNotice(noticeDeps(c), editGameId(c), noticeId(c), body.content);
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "noticeEdited", params: { id: notice.id, game: editGameId(c) } }, status: "Success" });
  return c.json(notice);
});

defineRoute(edit, { method: "DELETE", path: "/edit/games/:id/notices/:nid", auth: "Admin", tag, summary: "Delete a Normal notice" }, async (c) => {
  await noticeService.deleteNotice(noticeDeps(c), editGameId(c), noticeId(c));
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "noticeDeleted", params: { id: noticeId(c), game: editGameId(c) } }, status: "Success" });
  return c.json({ title: c.get("t")("notice.deleted"), status: 200 });
});
