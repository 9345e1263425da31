import { Hono } from "hono";
import { roomOf } from "~/.server/services/room";
import * as exportService from "~/.server/services/exports";
import * as submissionService from "~/.server/services/submissions";
import { AppError, badRequest, notFound, tooManyRequests } from "~/core/errors";
import { isNotModified } from "~/core/http/conditional";
import { bodyCodingFor } from "~/core/http/encoding";
import { checkFlagText, eventsQuerySchema, scoreboardQuerySchema, submissionsQuerySchema, submitSchema } from "~/core/game-room/schemas";
import { pageKey, readBoardCopy } from "../game-room/board-copies";
import type { RoomRefusal } from "../game-room/types";
import type { ApiContext, ApiEnv } from "./context";
import { editGameId, pathId } from "./edit";
import { requireAuth } from "./guard";
import { conditionsOf, downloadResponse, jsonWithEtag, validatorHeaders } from "./http-cache";
import { defineRoute } from "./registry";

/**
 * Game calls served by the game's room (api.md §10): flag submission and status, scoreboard, player
 * details, and the monitor lists. The Worker checks what it can cheaply; the room judges from memory.
 */
export const gameRoomApi = new Hono<ApiEnv>();
const tag = "Game";

function roomError(r: RoomRefusal): AppError {
  if (r.status === 429) return tooManyRequests(r.retryAfter ?? 1);
  return new AppError(r.status, r.code);
}

const challengeId = (c: ApiContext) => pathId(c, "cid", "submission.challenge_not_found");

defineRoute(gameRoomApi, { method: "POST", path: "/game/:id/challenges/:cid", auth: "User", access: "Player", tag, summary: "Submit a flag (Player); returns the submission id once stored", body: submitSchema }, async (c, { body, user }) => {
  const gameId = editGameId(c);
  const cid = challengeId(c);
  const flag = body?.flag;
  const bad = checkFlagText(flag);
  if (bad) throw badRequest(bad);
  const result = await roomOf(c.env, gameId).submit({ gameId, challengeId: cid, userId: user!.id, userName: user!.userName, answer: (flag as string).trim(), ip: c.get("ip") });
  if (!result.ok) throw roomError(result);
  return c.json(result.id);
});

defineRoute(gameRoomApi, { method: "GET", path: "/game/:id/challenges/:cid/status/:sid", auth: "User", access: "Player", tag, summary: "A submission's status (the caller's team only; CheatDetected reads as WrongAnswer)" }, async (c, { user }) => {
  const gameId = editGameId(c);
  const cid = challengeId(c);
  const sid = pathId(c, "sid", "submission.not_found");
  const result = await roomOf(c.env, gameId).status(gameId, user!.id, cid, sid);
  if (!result.ok) throw roomError(result);
  return c.json(result.status);
});

defineRoute(gameRoomApi, { method: "GET", path: "/game/:id/scoreboard", auth: "Public", access: "Public; hidden game: Monitor", tag, summary: "The scoreboard (ETag/Last-Modified, 304; optional count/skip page the items)", query: scoreboardQuerySchema }, async (c, { query }) => {
  const gameId = editGameId(c);
  const coding = bodyCodingFor(c.req.header("accept-encoding"));
  const opts = { etag: c.req.header("if-none-match") ?? null, skip: query.skip, coding, ...(query.count === undefined ? {} : { count: query.count }) };
  // A public board the room served a moment ago in this isolate, without the room's RPC (board-copies.ts).
  let read = readBoardCopy(gameId, pageKey(query.skip, query.count), opts, Date.now()) ?? (await roomOf(c.env, gameId).readBoard(gameId, opts));
  if (read.kind === "hidden") {
    await requireAuth(c, "Monitor");
    read = await roomOf(c.env, gameId).readBoard(gameId, { ...opts, allowHidden: true });
  }
  if (read.kind === "notFound" || read.kind === "hidden") throw notFound("game.not_found");
  if (read.kind === "notStarted") throw new AppError(10001, "game.not_started");
  const headers = validatorHeaders(read.etag, read.changedAt, read.at, "no-cache");
  headers.Vary = "Accept-Encoding";
  if (read.kind === "notModified" || isNotModified(conditionsOf(c), read, read.at)) return new Response(null, { status: 304, headers });
  if (read.coding === "identity") return new Response(read.body, { status: 200, headers });
  // Already gzipped by the room (once per board version): the runtime must send the bytes as they are.
  headers["Content-Encoding"] = "gzip";
  return new Response(read.body, { status: 200, headers, encodeBody: "manual" });
});

defineRoute(gameRoomApi, { method: "GET", path: "/game/:id/details", auth: "User", access: "Player", tag, summary: "The player's game view: challenges, own rank, team token (private ETag/Last-Modified, 304)" }, async (c, { user }) => {
  const gameId = editGameId(c);
  const result = await roomOf(c.env, gameId).details(gameId, user!.id);
  if (!result.ok) throw roomError(result);
  return jsonWithEtag(c, JSON.parse(result.body), { private: true });
});

/**
 * The game's id once D1 holds everything its room has judged (the room writes to D1 a few times a second;
 * the monitor lists and the submission sheet read D1).
 */
async function drainedGameId(c: ApiContext): Promise<number> {
  const gameId = editGameId(c);
  await roomOf(c.env, gameId).drained(gameId);
  return gameId;
}

defineRoute(gameRoomApi, { method: "GET", path: "/game/:id/events", auth: "Monitor", tag, summary: "Game events, newest first", query: eventsQuerySchema }, async (c, { query }) =>
  c.json(await submissionService.listEvents(c.get("db"), await drainedGameId(c), query)),
);

defineRoute(gameRoomApi, { method: "GET", path: "/game/:id/submissions", auth: "Monitor", tag, summary: "Submissions, newest first, true statuses", query: submissionsQuerySchema }, async (c, { query }) =>
  c.json(await submissionService.listSubmissions(c.get("db"), await drainedGameId(c), query)),
);

defineRoute(gameRoomApi, { method: "GET", path: "/game/:id/cheatinfo", auth: "Monitor", tag, summary: "Cheat records of a game" }, async (c) =>
  c.json(await submissionService.listCheatInfo(c.get("db"), await drainedGameId(c))),
);

async function sheetResponse(file: Promise<exportService.SheetFile>): Promise<Response> {
  const { name, body } = await file;
  return downloadResponse(body, name, exportService.XLSX_TYPE);
}

defineRoute(gameRoomApi, { method: "GET", path: "/game/:id/scoreboardsheet", auth: "Monitor", tag, summary: "The scoreboard as an .xlsx file (rules.md §12); 10001 before the start" }, async (c) => {
  const gameId = editGameId(c);
  return sheetResponse(exportService.scoreboardSheet(c.get("db"), gameId, c.get("now"), c.get("t"), () => roomOf(c.env, gameId).boardModel(gameId)));
});

defineRoute(gameRoomApi, { method: "GET", path: "/game/:id/submissionsheet", auth: "Monitor", tag, summary: "Every submission, newest first, as an .xlsx file (rules.md §12)" }, async (c) =>
  sheetResponse(exportService.submissionSheet(c.get("db"), await drainedGameId(c), c.get("now"), c.get("t"))),
);
