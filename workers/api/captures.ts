import { Hono } from "hono";
import * as captureService from "~/.server/services/captures";
import { notFound } from "~/core/errors";
import type { ApiContext, ApiEnv } from "./context";
import { editGameId, pathId } from "./edit";
import { downloadResponse } from "./http-cache";
import { logEvent } from "./log";
import { defineRoute } from "./registry";

/** Traffic captures (api.md §10), all Monitor. `{teamId}` is the participation id. */
export const capturesApi = new Hono<ApiEnv>();
const tag = "Game";

const deps = (c: ApiContext): captureService.CaptureDeps => ({ db: c.get("db"), now: c.get("now"), env: c.env, bucket: c.env.FILES });
const cid = (c: ApiContext) => pathId(c, "cid", "challenge.not_found");
const pid = (c: ApiContext) => pathId(c, "tid", "capture.not_found");
const fileParam = (c: ApiContext) => {
  const name = c.req.param("file") ?? "";
  if (!name) throw notFound("capture.not_found");
  return name;
};

defineRoute(capturesApi, { method: "GET", path: "/game/games/:id/captures", auth: "Monitor", tag, summary: "Challenges of a game with traffic capture and their file counts" }, async (c) =>
  c.json(await captureService.listCaptureChallenges(deps(c), editGameId(c))),
);

defineRoute(capturesApi, { method: "GET", path: "/game/captures/:cid", auth: "Monitor", tag, summary: "Teams with captured traffic for a challenge" }, async (c) =>
  c.json(await captureService.listCaptureTeams(deps(c), cid(c))),
);

defineRoute(capturesApi, { method: "GET", path: "/game/captures/:cid/:tid", auth: "Monitor", tag, summary: "A team's capture files (FileRecord[])" }, async (c) =>
  c.json(await captureService.listCaptureFiles(deps(c), cid(c), pid(c))),
);

// `/all` before `/:file`, so the literal segment is never read as a file name.
defineRoute(capturesApi, { method: "GET", path: "/game/captures/:cid/:tid/all", auth: "Monitor", tag, summary: "Every capture file of a team as one .tar.gz" }, async (c) => {
  const archive = await captureService.captureArchive(deps(c), cid(c), pid(c));
  return downloadResponse(archive.body, archive.name, "application/gzip");
});

defineRoute(capturesApi, { method: "DELETE", path: "/game/captures/:cid/:tid/all", auth: "Monitor", tag, summary: "Delete every capture file of a team" }, async (c) => {
  const count = await captureService.deleteAllCaptures(deps(c), cid(c), pid(c));
  await logEvent(c, { level: "Warning", logger: "Game", text: { key: "capturesDeleted", params: { deleted: count, participation: pid(c), challenge: cid(c) } }, status: "Success" });
  return c.json({ title: c.get("t")("capture.deleted"), status: 200 });
});

defineRoute(capturesApi, { method: "GET", path: "/game/captures/:cid/:tid/:file", auth: "Monitor", tag, summary: "One pcap (stored gzip, sent with Content-Encoding: gzip)" }, async (c) => {
  const file = await captureService.getCaptureFile(deps(c), cid(c), pid(c), fileParam(c));
  // The stored bytes are the gzip encoding of the pcap: sent as they are.
  return downloadResponse(file.body, file.name, "application/vnd.tcpdump.pcap", {
    encodeBody: "manual",
    headers: { "Content-Encoding": "gzip", "Content-Length": String(file.size) },
  });
});

defineRoute(capturesApi, { method: "DELETE", path: "/game/captures/:cid/:tid/:file", auth: "Monitor", tag, summary: "Delete one capture file" }, async (c) => {
  await captureService.deleteCaptureFile(deps(c), cid(c), pid(c), fileParam(c));
  return c.json({ title: c.get("t")("capture.deleted"), status: 200 });
});
