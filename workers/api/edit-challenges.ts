import { Hono } from "hono";
import * as captureService from "~/.server/services/captures";
import * as challengeService from "~/.server/services/challenges";
import * as containerService from "~/.server/services/containers";
import * as flagService from "~/.server/services/flags";
import { refreshRoom, roomOf } from "~/.server/services/room";
import { announceChallengeChange } from "~/.server/services/sockets";
import { attachmentSchema, challengeCreateSchema, challengeUpdateSchema, flagsCreateSchema } from "~/core/schemas/challenge";
import { containerDeps } from "./container-deps";
import type { ApiContext, ApiEnv } from "./context";
import { editGameId, noticeDeps, pathId } from "./edit";
import { ifMatchOf, jsonWithVersion } from "./http-cache";
import { logEvent } from "./log";
import { defineRoute } from "./registry";

/** Edit — challenges, flags and attachments of a game (api.md §9), all Admin. */
export const editChallenges = new Hono<ApiEnv>();
const tag = "Edit";

const challengeId = (c: ApiContext) => pathId(c, "cid", "challenge.not_found");
const deps = (c: ApiContext): challengeService.ChallengeDeps => ({ ...noticeDeps(c), bucket: c.env.FILES });
const flagDeps = (c: ApiContext): flagService.FlagDeps => ({ db: c.get("db"), bucket: c.env.FILES });
const liveDeps = (c: ApiContext) => ({ env: c.env, db: c.get("db"), now: c.get("now") });
const ok = (c: ApiContext, key: string) => c.json({ title: c.get("t")(key), status: 200 });

defineRoute(editChallenges, { method: "GET", path: "/edit/games/:id/challenges", auth: "Admin", tag, summary: "The game's challenges (ChallengeInfoModel[])" }, async (c) => {
  const id = editGameId(c);
  return c.json(await challengeService.listEditChallenges(c.get("db"), id, () => roomOf(c.env, id).challengeScores(id)));
});

defineRoute(editChallenges, { method: "POST", path: "/edit/games/:id/challenges", auth: "Admin", tag, summary: "Create a disabled challenge", body: challengeCreateSchema }, async (c, { body }) => {
  const id = editGameId(c);
  const created = await challengeService.createChallenge(c.get("db"), id, body);
  await refreshRoom(c.env, id, { challengeId: created.id });
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "challengeCreated", params: { title: created.title, id: created.id, type: created.type, game: id } }, status: "Success" });
  return c.json(created);
});

// Registered before `/:cid` routes so the literal segment is never read as an id.
defineRoute(editChallenges, { method: "POST", path: "/edit/games/:id/challenges/updateaccepted", auth: "Admin", tag, summary: "Recompute every challenge's acceptedCount from the solves" }, async (c) => {
  const id = editGameId(c);
  await challengeService.updateAcceptedCounts(c.get("db"), c.env, id);
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "acceptedCountsRecomputed", params: { game: id } }, status: "Success" });
  return ok(c, "challenge.accepted_updated");
});

defineRoute(editChallenges, { method: "GET", path: "/edit/games/:id/challenges/:cid", auth: "Admin", tag, summary: "A challenge with its flags (ChallengeEditDetailModel; ETag: its stored version)" }, async (c) => {
  const challenge = await challengeService.requireChallenge(c.get("db"), editGameId(c), challengeId(c));
  return jsonWithVersion(c, { value: await challengeService.toEditDetail(c.get("db"), challenge), version: challenge.version });
});

defineRoute(editChallenges, { method: "PUT", path: "/edit/games/:id/challenges/:cid", auth: "Admin", tag, summary: "Edit a challenge (partial; type is fixed; If-Match: 412 unless the stored version)", body: challengeUpdateSchema }, async (c, { body }) => {
  const id = editGameId(c);
  const { value: updated, version } = await challengeService.updateChallenge(deps(c), id, challengeId(c), body, ifMatchOf(c));
  await refreshRoom(c.env, id, { challengeId: updated.id });
  // A disabled challenge keeps no team containers (rules.md §8).
  if (body.isEnabled === false) await containerService.destroyContainersOfChallenges(containerDeps(c), [updated.id], false);
  if (body.isEnabled != null) {
    await logEvent(c, { level: "Information", logger: "Admin", text: { key: updated.isEnabled ? "challengeEnabled" : "challengeDisabled", params: { title: updated.title, id: updated.id, game: id } }, status: "Success" });
  }
  // Any other field (text, hints, scoring, deadline, container) is an edit the log names too.
  if (Object.entries(body).some(([key, value]) => key !== "isEnabled" && value !== undefined)) {
    await logEvent(c, { level: "Information", logger: "Admin", text: { key: "challengeEdited", params: { title: updated.title, id: updated.id, game: id } }, status: "Success" });
  }
  // Open pages showing it read it again (a disabled one leaves the board through the refresh's delta).
  if (updated.isEnabled) await announceChallengeChange(liveDeps(c), id, updated.id);
  return jsonWithVersion(c, { value: updated, version });
});

defineRoute(editChallenges, { method: "DELETE", path: "/edit/games/:id/challenges/:cid", auth: "Admin", tag, summary: "Delete a challenge with its flags and attachments" }, async (c) => {
  const id = editGameId(c);
  const existing = await challengeService.requireChallenge(c.get("db"), id, challengeId(c));
  await containerService.destroyContainersOfChallenges(containerDeps(c), [existing.id], true);
  await captureService.deleteCapturesOfChallenges({ db: c.get("db"), bucket: c.env.FILES }, [existing.id]);
  const gone = await challengeService.deleteChallenge(flagDeps(c), id, existing.id);
  await refreshRoom(c.env, id, { challengeId: gone.id });
  await logEvent(c, { level: "Warning", logger: "Admin", text: { key: "challengeDeleted", params: { title: gone.title, id: gone.id, game: id } }, status: "Success" });
  return ok(c, "challenge.deleted");
});

defineRoute(editChallenges, { method: "POST", path: "/edit/games/:id/challenges/:cid/flags", auth: "Admin", tag, summary: "Add flags (dynamic attachments: flag + file or link)", body: flagsCreateSchema }, async (c, { body }) => {
  const challenge = await challengeService.requireChallenge(c.get("db"), editGameId(c), challengeId(c));
  await flagService.addFlags(flagDeps(c), challenge, body);
  await refreshRoom(c.env, challenge.gameId, { challengeId: challenge.id });
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "flagsAdded", params: { added: body.length, title: challenge.title, id: challenge.id } }, status: "Success" });
  return ok(c, "challenge.flags_added");
});

defineRoute(editChallenges, { method: "DELETE", path: "/edit/games/:id/challenges/:cid/flags/:fid", auth: "Admin", tag, summary: "Delete one flag (and its attachment)" }, async (c) => {
  const challenge = await challengeService.requireChallenge(c.get("db"), editGameId(c), challengeId(c));
  const flagId = pathId(c, "fid", "challenge.flag_not_found");
  await flagService.deleteFlag(flagDeps(c), challenge.id, flagId);
  await refreshRoom(c.env, challenge.gameId, { challengeId: challenge.id });
  // A flag that stops counting as right is a change of the answers: Warning, as a deleted challenge.
  await logEvent(c, { level: "Warning", logger: "Admin", text: { key: "flagDeleted", params: { flag: flagId, title: challenge.title, id: challenge.id } }, status: "Success" });
  return ok(c, "challenge.flag_deleted");
});

defineRoute(editChallenges, { method: "POST", path: "/edit/games/:id/challenges/:cid/attachment", auth: "Admin", tag, summary: "Set the shared attachment (None, Local file, Remote link)", body: attachmentSchema }, async (c, { body }) => {
  const challenge = await challengeService.requireChallenge(c.get("db"), editGameId(c), challengeId(c));
  await flagService.setChallengeAttachment(flagDeps(c), challenge, body);
  if (challenge.isEnabled) await announceChallengeChange(liveDeps(c), challenge.gameId, challenge.id);
  return ok(c, "challenge.attachment_saved");
});
