import { Hono } from "hono";
import * as writeupService from "~/.server/services/writeups";
import { badRequest } from "~/core/errors";
import type { ApiContext, ApiEnv } from "./context";
import { editGameId, pathId } from "./edit";
import { downloadResponse } from "./http-cache";
import { logEvent } from "./log";
import { defineRoute } from "./registry";

/** Writeups: the player's upload (api.md §10), the admin list and archive (§7), deleting all (§9). */
export const writeups = new Hono<ApiEnv>();

const deps = (c: ApiContext) => ({ db: c.get("db"), bucket: c.env.FILES, now: c.get("now") });
// Routes are registered lower-cased, so `:gameId` is read as `gameid`.
const adminGameId = (c: ApiContext) => pathId(c, "gameid", "game.not_found");

defineRoute(writeups, { method: "GET", path: "/game/:id/writeup", auth: "User", access: "Player", tag: "Game", summary: "The team's writeup state and the instruction (Player, also after the end)" }, async (c, { user }) =>
  c.json(await writeupService.getWriteupStatus(deps(c), user!, editGameId(c))),
);

defineRoute(writeups, { method: "POST", path: "/game/:id/writeup", auth: "User", access: "Player", tag: "Game", summary: "Upload the team's writeup (one PDF ≤ 20 MB, until the deadline)", rawBody: "multipart", upload: "pdf" }, async (c, { user }) => {
  const id = editGameId(c);
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw badRequest("file.invalid");
  }
  const saved = await writeupService.submitWriteup(deps(c), user!, id, form.get("file"));
  await logEvent(c, {
    level: "Information",
    logger: "Writeup",
    text: { key: saved.replaced ? "writeupReplaced" : "writeupUploaded", params: { team: saved.teamId, game: id, file: saved.fileName, size: saved.size } },
    status: "Success",
  });
  return c.json({ title: c.get("t")("writeup.uploaded"), status: 200 });
});

defineRoute(writeups, { method: "GET", path: "/admin/writeups/:gameId", auth: "Admin", tag: "Admin", summary: "Every writeup of a game, and the accepted teams without one" }, async (c) =>
  c.json(await writeupService.listWriteups(c.get("db"), adminGameId(c))),
);

defineRoute(writeups, { method: "GET", path: "/admin/writeups/:gameId/all", auth: "Admin", tag: "Admin", summary: "Every writeup of a game as one .tar.gz" }, async (c) => {
  const archive = await writeupService.writeupArchive(deps(c), adminGameId(c));
  return downloadResponse(archive.body, archive.name, "application/gzip");
});

defineRoute(writeups, { method: "DELETE", path: "/edit/games/:id/writeups", auth: "Admin", tag: "Edit", summary: "Delete every writeup of a game" }, async (c) => {
  const id = editGameId(c);
  const count = await writeupService.deleteAllWriteups({ db: c.get("db"), bucket: c.env.FILES }, id);
  await logEvent(c, { level: "Warning", logger: "Admin", text: { key: "writeupsDeleted", params: { deleted: count, game: id } }, status: "Success" });
  return c.json({ title: c.get("t")("writeup.deleted_all", { count }), status: 200 });
});
