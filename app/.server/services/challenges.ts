import { and, asc, eq, sql } from "drizzle-orm";
import { isContainerType, type NoticeType } from "~/core/enums";
import { badRequest, conflict, notFound, preconditionFailed } from "~/core/errors";
import { type Versioned, versionMatches } from "~/core/http/if-match";
import { checkTemplate, TEMPLATE_MAX } from "~/core/flags/template";
import { computeGamePhase } from "~/core/game/phase";
import {
  type ChallengeCreateInput,
  type ChallengeEditDetail,
  type ChallengeEditInfo,
  type ChallengeUpdateInput,
  TEMPLATE_PROBLEM_CODES,
} from "~/core/schemas/challenge";
import type { GameNoticeInfo } from "~/core/schemas/game";
import { computeChallengeValue, computeMinScore } from "~/core/scoring/value";
import { orderChallenges } from "~/core/scoring/scoreboard";
import type { Db } from "../db/client";
import { bumpVersion, isVersionRefusal } from "../db/versions";
import { dropUnreferenced, sanitizeFileName } from "../storage/files";
import { type Challenge, challenges, divisionChallengeConfigs, flags, gameNotices, games, type NewChallenge } from "../db/schema";
import { deleteAttachmentStatements, getChallengeAttachment, hasFlags, listFlags } from "./flags";
import { requireGame } from "./games";
import { getTestContainer } from "./containers";
import { createInstancesForChallenge } from "./instances";
import { type RoomEnv, roomOf } from "./room";
import { toNoticeInfo } from "./notices";

export interface ChallengeDeps {
  db: Db;
  now: number;
  bucket: R2Bucket;
  /** Pushes a notice to the game's sockets (the game's Durable Object). */
  publish: (gameId: number, notice: GameNoticeInfo) => Promise<unknown>;
}

/** A challenge of the game; 404 when it does not exist or belongs to another game. */
export async function requireChallenge(db: Db, gameId: number, challengeId: number): Promise<Challenge> {
  const row = await db
    .select()
    .from(challenges)
    .where(and(eq(challenges.id, challengeId), eq(challenges.gameId, gameId)))
    .get();
  if (!row) throw notFound("challenge.not_found");
  return row;
}

/**
 * ChallengeEditDetailModel of a stored challenge. Its version (the ETag) is the row's: read before the
 * flags and attachment, so a write landing meanwhile gives an older version with newer data, never the
 * reverse (a PUT based on it is at worst refused).
 */
export async function toEditDetail(db: Db, c: Challenge): Promise<ChallengeEditDetail> {
  const [attachment, flagList, testContainer] = await Promise.all([getChallengeAttachment(db, c), listFlags(db, c), getTestContainer(db, c)]);
  return {
    id: c.id,
    title: c.title,
    content: c.content,
    category: c.category,
    type: c.type,
    hints: c.hints,
    flagTemplate: c.flagTemplate,
    isEnabled: c.isEnabled,
    acceptedCount: c.acceptedCount,
    fileName: c.fileName,
    attachment,
    testContainer,
    flags: flagList,
    containerImage: c.containerImage,
    memoryLimit: c.memoryLimit,
    cpuCount: c.cpuCount,
    storageLimit: c.storageLimit,
    exposePort: c.exposePort,
    networkMode: c.networkMode,
    enableTrafficCapture: c.enableTrafficCapture,
    disableBloodBonus: c.disableBloodBonus,
    deadlineUtc: c.deadline,
    submissionLimit: c.submissionLimit,
    originalScore: c.originalScore,
    minScoreRate: c.minScoreRate,
    difficulty: c.difficulty,
  };
}

/**
 * GET edit/games/{id}/challenges: ChallengeInfoModel[] in board order. `boardScores` are the room's
 * current values (what players see); a challenge not on the board (disabled) is valued from its solves.
 */
export async function listEditChallenges(db: Db, gameId: number, boardScores: () => Promise<Record<number, number> | null>): Promise<ChallengeEditInfo[]> {
  await requireGame(db, gameId);
  const scores = (await boardScores()) ?? {};
  const rows = await db.select().from(challenges).where(eq(challenges.gameId, gameId)).orderBy(asc(challenges.id)).all();
  return orderChallenges(rows).map((c) => ({
    id: c.id,
    title: c.title,
    category: c.category,
    type: c.type,
    isEnabled: c.isEnabled,
    score: scores[c.id] ?? computeChallengeValue(c, c.acceptedCount),
    minScore: computeMinScore(c),
    originalScore: c.originalScore,
    deadlineUtc: c.deadline,
    acceptedCount: c.acceptedCount,
  }));
}

/** POST edit/games/{id}/challenges: a new, disabled challenge. */
export async function createChallenge(db: Db, gameId: number, input: ChallengeCreateInput): Promise<ChallengeEditDetail> {
  await requireGame(db, gameId);
  const row = await db.insert(challenges).values({ gameId, title: input.title, category: input.category, type: input.type }).returning().get();
  return toEditDetail(db, row);
}

/** The stored template: "" clears it; a non-empty one must pass rules.md §6 on DynamicContainer. */
function templateChange(challenge: Challenge, template: string): string | null {
  if (template === "") return null;
  if (challenge.type !== "DynamicContainer") {
    if (template.length > TEMPLATE_MAX) throw badRequest(TEMPLATE_PROBLEM_CODES.too_long);
    return template;
  }
  const problem = checkTemplate(template);
  if (problem) throw badRequest(TEMPLATE_PROBLEM_CODES[problem]);
  return template;
}

const sameHints = (a: string[], b: string[]) => a.length === b.length && a.every((h, i) => h === b[i]);

/**
 * Marks the challenge announced and says whether this call did it: one NewChallenge notice per challenge,
 * whatever its title (a deleted challenge's successor of the same name is new) and however many enable
 * calls race.
 */
async function claimAnnouncement(db: Db, challengeId: number): Promise<boolean> {
  const row = await db
    .update(challenges)
    .set({ announced: true })
    .where(and(eq(challenges.id, challengeId), eq(challenges.announced, false)))
    .returning({ id: challenges.id })
    .get();
  return row !== undefined;
}

async function postChallengeNotice({ db, now, publish }: ChallengeDeps, gameId: number, type: NoticeType, title: string): Promise<void> {
  const row = await db.insert(gameNotices).values({ gameId, type, values: [title], publishTime: now }).returning().get();
  await publish(gameId, toNoticeInfo(row));
}

/**
 * PUT edit/games/{id}/challenges/{cid}: a partial update. Enabling needs a flag (except
 * DynamicContainer) and, for container types, an image, which an enabled one keeps; enabling creates every
 * accepted team's instance.
 * While the game runs, enabling posts NewChallenge and a hint change of an enabled challenge posts NewHint.
 * With `ifMatch` (the parsed `If-Match`), 412 and nothing written unless the stored version is one of
 * those: checked here first, then again by the UPDATE itself.
 */
export async function updateChallenge(
  deps: ChallengeDeps,
  gameId: number,
  challengeId: number,
  input: ChallengeUpdateInput,
  ifMatch: readonly number[] | null = null,
  attempt = 1,
): Promise<Versioned<ChallengeEditDetail>> {
  const { db, now } = deps;
  const game = await requireGame(db, gameId);
  const current = await requireChallenge(db, gameId, challengeId);
  if (!versionMatches(ifMatch, current.version)) throw preconditionFailed();
  if (input.type != null && input.type !== current.type) throw badRequest("challenge.type_immutable");
  const set: Partial<NewChallenge> = {};
  if (input.title != null) set.title = input.title;
  if (input.content != null) set.content = input.content;
  if (input.category != null) set.category = input.category;
  if (input.hints != null) set.hints = input.hints.map((h) => h.trim()).filter((h) => h !== "");
  if (input.flagTemplate != null) set.flagTemplate = templateChange(current, input.flagTemplate);
  if (input.isEnabled != null) set.isEnabled = input.isEnabled;
  if (input.containerImage != null) set.containerImage = input.containerImage === "" ? null : input.containerImage;
  if (input.memoryLimit != null) set.memoryLimit = input.memoryLimit;
  if (input.cpuCount != null) set.cpuCount = input.cpuCount;
  if (input.storageLimit != null) set.storageLimit = input.storageLimit;
  if (input.exposePort != null) set.exposePort = input.exposePort;
  if (input.networkMode != null) set.networkMode = input.networkMode;
  if (input.enableTrafficCapture != null) set.enableTrafficCapture = input.enableTrafficCapture && isContainerType(current.type);
  if (input.disableBloodBonus != null) set.disableBloodBonus = input.disableBloodBonus;
  if (input.deadlineUtc != null) set.deadline = input.deadlineUtc === 0 ? null : input.deadlineUtc;
  if (input.submissionLimit != null) set.submissionLimit = input.submissionLimit;
  if (input.originalScore != null) set.originalScore = input.originalScore;
  if (input.minScoreRate != null) set.minScoreRate = input.minScoreRate;
  if (input.difficulty != null) set.difficulty = input.difficulty;
  // The download name of dynamic attachments: a base name only (no folders, no control characters).
  if (input.fileName != null) set.fileName = sanitizeFileName(input.fileName, "attachment");

  const next = { ...current, ...set } as Challenge;
  const enabling = next.isEnabled && !current.isEnabled;
  if (enabling) {
    if (next.type !== "DynamicContainer" && !(await hasFlags(db, current.id))) throw badRequest("challenge.no_flag");
    if (isContainerType(next.type) && !next.containerImage?.trim()) throw badRequest("challenge.no_image");
  }
  // Nor may an enabled one lose its image: its teams could no longer start their containers.
  const clearingImage = isContainerType(next.type) && set.containerImage !== undefined && !next.containerImage?.trim();
  if (clearingImage && next.isEnabled) throw badRequest("challenge.image_required");
  // Of an enable and an image removal racing, the second write finds the first's change (no row) and reads again.
  const imageGuard =
    clearingImage && set.isEnabled === undefined
      ? eq(challenges.isEnabled, false)
      : enabling && isContainerType(next.type) && set.containerImage === undefined
        ? sql`trim(coalesce(${challenges.containerImage}, '')) <> ''`
        : undefined;

  // New hints are written only over the hints this call read: of two saves racing (a double click, two
  // tabs), the second reads again below and, finding its hints already there, posts no second NewHint.
  const hintsChange = set.hints !== undefined && !sameHints(current.hints, set.hints);
  // A hint race lost with `ifMatch` is refused by the next attempt's check (the winner bumped the version).
  let updated: Challenge | undefined = current;
  if (Object.keys(set).length) {
    try {
      updated = await db
        .update(challenges)
        .set({ ...set, version: bumpVersion(challenges.version, ifMatch) })
        .where(and(eq(challenges.id, current.id), hintsChange ? sql`json(${challenges.hints}) = json(${JSON.stringify(current.hints)})` : undefined, imageGuard))
        .returning()
        .get();
    } catch (err) {
      if (isVersionRefusal(err, "challenges")) throw preconditionFailed();
      throw err;
    }
  }
  if (!updated) {
    if (attempt >= 3) throw conflict("challenge.edit_conflict");
    return updateChallenge(deps, gameId, challengeId, input, ifMatch, attempt + 1);
  }
  if (enabling) await createInstancesForChallenge(db, updated);

  if (computeGamePhase(game, now) === "Running") {
    // Enabled again after a pause: players were told of it already.
    if (enabling && (await claimAnnouncement(db, updated.id))) await postChallengeNotice(deps, gameId, "NewChallenge", updated.title);
    else if (updated.isEnabled && current.isEnabled && hintsChange) {
      await postChallengeNotice(deps, gameId, "NewHint", updated.title);
    }
  }
  return { value: await toEditDetail(db, updated), version: updated.version };
}

/** DELETE edit/games/{id}/challenges/{cid}: the challenge, its flags, instances and attachments. */
export async function deleteChallenge(deps: Pick<ChallengeDeps, "db" | "bucket">, gameId: number, challengeId: number): Promise<Challenge> {
  const { db } = deps;
  const challenge = await requireChallenge(db, gameId, challengeId);
  const flagAttachments = await db.select({ id: flags.attachmentId }).from(flags).where(eq(flags.challengeId, challenge.id)).all();
  // The challenge, its attachments and their files' references go in one transaction.
  const released = await deleteAttachmentStatements(db, [challenge.attachmentId, ...flagAttachments.map((f) => f.id)]);
  // Its division configs go with it: the game's edit version moves when there were any (GET edit/games/{id} lists them).
  await db.batch([
    db
      .update(games)
      .set({ version: bumpVersion(games.version) })
      .where(and(eq(games.id, gameId), sql`exists (select 1 from ${divisionChallengeConfigs} where ${divisionChallengeConfigs.challengeId} = ${challenge.id})`)),
    db.delete(challenges).where(eq(challenges.id, challenge.id)),
    ...released.batch,
  ]);
  await dropUnreferenced(deps, released.hashes);
  return challenge;
}

/**
 * POST edit/games/{id}/challenges/updateaccepted: every challenge's acceptedCount = its counted solves
 * (rules.md §3, the board's count), recomputed by the game's room from the solve records it reloads.
 */
export async function updateAcceptedCounts(db: Db, env: RoomEnv, gameId: number): Promise<void> {
  await requireGame(db, gameId);
  if (!(await roomOf(env, gameId).updateAcceptedCounts(gameId))) throw notFound("game.not_found");
}
