import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import { badRequest, notFound } from "~/core/errors";
import { normalizeBloodBonus } from "~/core/game/blood-bonus";
import type {
  ArrayResponse,
} from "~/core/schemas/team";
import type {
  BasicGameInfo,
  DetailedGameInfo,
  DivisionInfo,
  DivisionInput,
  GameCreateInput,
  GameInfo,
  GameUpdateInput,
} from "~/core/schemas/game";
import { GamePermission, type ParticipationStatus } from "~/core/enums";
import { generateTeamTokenKeys } from "~/core/team-token";
import type { CurrentUser } from "../auth/current-user";
import { inChunks } from "../db/chunks";
import type { Db } from "../db/client";
import {
  attachments,
  challenges,
  divisionChallengeConfigs,
  divisions,
  flags,
  type Division,
  type Game,
  games,
  participationMembers,
  participations,
  teams,
  writeups,
} from "../db/schema";
import { IMAGE_LIMIT, releaseFile, storeUpload } from "../storage/files";

export interface GameDeps {
  db: Db;
  now: number;
}

export interface GameStorageDeps extends GameDeps {
  bucket: R2Bucket;
}

export const posterUrl = (hash: string | null) => (hash ? `/assets/${hash}/poster` : null);

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** gameSalt of rules.md §6, shown to admins as `teamHashSalt`. */
export const computeTeamHashSalt = (privateKey: string) => sha256Hex(`Flagstaff@${privateKey}@PK`);

export async function requireGame(db: Db, gameId: number): Promise<Game> {
  const game = await db.select().from(games).where(eq(games.id, gameId)).get();
  if (!game) throw notFound("game.not_found");
  return game;
}

async function loadDivisions(db: Db, gameIds: number[]): Promise<Map<number, DivisionInfo[]>> {
  const out = new Map<number, DivisionInfo[]>();
  if (gameIds.length === 0) return out;
  const rows = await inChunks(gameIds, (part) => db.select().from(divisions).where(inArray(divisions.gameId, part)).orderBy(divisions.id).all());
  const configs = await inChunks(
    rows.map((d) => d.id),
    (part) => db.select().from(divisionChallengeConfigs).where(inArray(divisionChallengeConfigs.divisionId, part)).orderBy(divisionChallengeConfigs.challengeId).all(),
  );
  for (const d of rows) {
    const list = out.get(d.gameId) ?? [];
    list.push({
      id: d.id,
      name: d.name,
      inviteCode: d.inviteCode,
      defaultPermissions: d.defaultPermissions,
      challengeConfigs: configs.filter((c) => c.divisionId === d.id).map((c) => ({ challengeId: c.challengeId, permissions: c.permissions })),
    });
    out.set(d.gameId, list);
  }
  return out;
}

async function toGameInfos(db: Db, rows: Game[]): Promise<GameInfo[]> {
  const divisionMap = await loadDivisions(
    db,
    rows.map((g) => g.id),
  );
  return Promise.all(
    rows.map(async (g) => ({
      id: g.id,
      title: g.title,
      hidden: g.hidden,
      summary: g.summary,
      content: g.content,
      acceptWithoutReview: g.acceptWithoutReview,
      writeupRequired: g.writeupRequired,
      inviteCode: g.inviteCode,
      teamMemberCountLimit: g.teamMemberCountLimit,
      containerCountLimit: g.containerCountLimit,
      poster: posterUrl(g.posterHash),
      publicKey: g.publicKey,
      teamHashSalt: await computeTeamHashSalt(g.privateKey),
      practiceMode: g.practiceMode,
      start: g.startTime,
      end: g.endTime,
      writeupDeadline: g.writeupDeadline,
      writeupNote: g.writeupNote,
      bloodBonus: g.bloodBonus,
      divisions: divisionMap.get(g.id) ?? [],
    })),
  );
}

export async function getEditGame(db: Db, gameId: number): Promise<GameInfo> {
  const [info] = await toGameInfos(db, [await requireGame(db, gameId)]);
  return info!;
}

/** GET edit/games: newest start first, hidden included. */
export async function listEditGames(db: Db, page: { count: number; skip: number }): Promise<ArrayResponse<GameInfo>> {
  const [rows, total] = await Promise.all([
    db.select().from(games).orderBy(desc(games.startTime), desc(games.id)).limit(page.count).offset(page.skip).all(),
    db.select({ n: count() }).from(games).get(),
  ]);
  const data = await toGameInfos(db, rows);
  return { data, length: data.length, total: total?.n ?? 0 };
}

/** Division names must be unique in a game (case as typed, after trimming). */
function assertUniqueNames(list: DivisionInput[]): void {
  const names = new Set<string>();
  for (const d of list) {
    if (names.has(d.name)) throw badRequest("game.division_name_taken", { name: d.name });
    names.add(d.name);
  }
}

async function assertChallengesOfGame(db: Db, gameId: number, list: DivisionInput[]): Promise<void> {
  const ids = [...new Set(list.flatMap((d) => (d.challengeConfigs ?? []).map((c) => c.challengeId)))];
  const found = await inChunks(ids, (part) =>
    db
      .select({ id: challenges.id })
      .from(challenges)
      .where(and(eq(challenges.gameId, gameId), inArray(challenges.id, part)))
      .all(),
  );
  if (found.length !== ids.length) throw badRequest("game.challenge_unknown");
}

/** POST edit/games: "please enter title and time" when title, start or end is missing; end must follow start. */
export async function createGame({ db }: GameDeps, input: GameCreateInput): Promise<GameInfo> {
  if (!input.title || input.start == null || input.end == null) throw badRequest("game.title_time_required");
  if (input.end <= input.start) throw badRequest("game.end_before_start");
  const writeupDeadline = input.writeupDeadline ?? input.end;
  if (writeupDeadline < input.end) throw badRequest("game.writeup_deadline_before_end");
  const division = input.divisions ?? [];
  assertUniqueNames(division);
  if (division.some((d) => (d.challengeConfigs ?? []).length > 0)) throw badRequest("game.challenge_unknown");
  const keys = await generateTeamTokenKeys();
  const game = await db
    .insert(games)
    .values({
      title: input.title,
      summary: input.summary ?? "",
      content: input.content ?? "",
      hidden: input.hidden ?? false,
      startTime: input.start,
      endTime: input.end,
      inviteCode: input.inviteCode ?? "",
      teamMemberCountLimit: input.teamMemberCountLimit ?? 0,
      containerCountLimit: input.containerCountLimit ?? 3,
      acceptWithoutReview: input.acceptWithoutReview ?? false,
      practiceMode: input.practiceMode ?? true,
      writeupRequired: input.writeupRequired ?? false,
      writeupDeadline,
      writeupNote: input.writeupNote ?? "",
      ...(input.bloodBonus != null ? { bloodBonus: normalizeBloodBonus(input.bloodBonus) } : {}),
      publicKey: keys.publicKey,
      privateKey: keys.privateKey,
    })
    .returning()
    .get();
  if (division.length > 0) {
    await db
      .insert(divisions)
      .values(
        division.map((d) => ({
          gameId: game.id,
          name: d.name,
          inviteCode: d.inviteCode ?? "",
          defaultPermissions: d.defaultPermissions ?? GamePermission.All,
        })),
      )
      .run();
  }
  return getEditGame(db, game.id);
}

/**
 * PUT edit/games/{id}: omitted or null fields stay; `divisions`, when sent, is the full list (with id =
 * update, without = create, missing = delete, refused while a participation uses it).
 */
export async function updateGame({ db }: GameDeps, gameId: number, input: GameUpdateInput): Promise<GameInfo> {
  const game = await requireGame(db, gameId);
  if (input.title !== undefined && input.title !== null && input.title === "") throw badRequest("game.title_time_required");
  const start = input.start ?? game.startTime;
  const end = input.end ?? game.endTime;
  if (end <= start) throw badRequest("game.end_before_start");
  let writeupDeadline = input.writeupDeadline ?? game.writeupDeadline;
  if (input.writeupDeadline != null && input.writeupDeadline < end) throw badRequest("game.writeup_deadline_before_end");
  // A moved end carries an older deadline along, so the deadline is never before the end.
  if (writeupDeadline < end) writeupDeadline = end;

  const set: Partial<Game> = { startTime: start, endTime: end, writeupDeadline };
  if (input.title != null) set.title = input.title;
  if (input.summary != null) set.summary = input.summary;
  if (input.content != null) set.content = input.content;
  if (input.hidden != null) set.hidden = input.hidden;
  if (input.acceptWithoutReview != null) set.acceptWithoutReview = input.acceptWithoutReview;
  if (input.writeupRequired != null) set.writeupRequired = input.writeupRequired;
  if (input.practiceMode != null) set.practiceMode = input.practiceMode;
  if (input.inviteCode != null) set.inviteCode = input.inviteCode;
  if (input.teamMemberCountLimit != null) set.teamMemberCountLimit = input.teamMemberCountLimit;
  if (input.containerCountLimit != null) set.containerCountLimit = input.containerCountLimit;
  if (input.writeupNote != null) set.writeupNote = input.writeupNote;
  if (input.bloodBonus != null) set.bloodBonus = normalizeBloodBonus(input.bloodBonus);

  const writes = [db.update(games).set(set).where(eq(games.id, gameId))] as const;
  if (input.divisions != null) {
    await syncDivisions(db, gameId, input.divisions, [...writes]);
  } else {
    await writes[0].run();
  }
  return getEditGame(db, gameId);
}

type Write = Parameters<Db["batch"]>[0][number];

/** Applies the full division list together with the game update in one batch. */
async function syncDivisions(db: Db, gameId: number, list: DivisionInput[], writes: Write[]): Promise<void> {
  assertUniqueNames(list);
  await assertChallengesOfGame(db, gameId, list);
  const existing = await db.select().from(divisions).where(eq(divisions.gameId, gameId)).all();
  const byId = new Map<number, Division>(existing.map((d) => [d.id, d]));
  for (const d of list) if (d.id != null && !byId.has(d.id)) throw badRequest("game.division_unknown");
  const kept = new Set(list.filter((d) => d.id != null).map((d) => d.id!));
  const removed = existing.filter((d) => !kept.has(d.id)).map((d) => d.id);
  if (removed.length > 0) {
    const used = await db
      .select({ id: participations.divisionId })
      .from(participations)
      .where(inArray(participations.divisionId, removed))
      .get();
    if (used) throw badRequest("game.division_in_use", { name: byId.get(used.id!)?.name ?? "" });
  }
  const batch: Write[] = [...writes];
  if (removed.length > 0) batch.push(db.delete(divisions).where(inArray(divisions.id, removed)));
  // Renames go through a temporary name first so swapping two names never trips the unique index.
  for (const d of list) {
    if (d.id == null) continue;
    batch.push(db.update(divisions).set({ name: `\u0000${d.id}` }).where(eq(divisions.id, d.id)));
  }
  for (const d of list) {
    if (d.id != null) {
      const current = byId.get(d.id)!;
      batch.push(
        db
          .update(divisions)
          .set({
            name: d.name,
            inviteCode: d.inviteCode ?? current.inviteCode,
            defaultPermissions: d.defaultPermissions ?? current.defaultPermissions,
          })
          .where(eq(divisions.id, d.id)),
      );
      if (d.challengeConfigs != null) {
        batch.push(db.delete(divisionChallengeConfigs).where(eq(divisionChallengeConfigs.divisionId, d.id)));
        for (const c of d.challengeConfigs) {
          batch.push(db.insert(divisionChallengeConfigs).values({ divisionId: d.id, challengeId: c.challengeId, permissions: c.permissions }));
        }
      }
    } else {
      batch.push(
        db.insert(divisions).values({
          gameId,
          name: d.name,
          inviteCode: d.inviteCode ?? "",
          defaultPermissions: d.defaultPermissions ?? GamePermission.All,
        }),
      );
      for (const c of d.challengeConfigs ?? []) {
        batch.push(
          db
            .insert(divisionChallengeConfigs)
            .select(
              sql`select id, ${c.challengeId}, ${c.permissions} from ${divisions} where game_id = ${gameId} and name = ${d.name}`,
            ),
        );
      }
    }
  }
  try {
    await db.batch(batch as [Write, ...Write[]]);
  } catch (err) {
    const text = String((err as { cause?: unknown })?.cause ?? err);
    if (/FOREIGN KEY constraint failed/i.test(text)) throw badRequest("game.division_in_use", { name: "" });
    if (/UNIQUE constraint failed/i.test(text)) throw badRequest("game.division_name_taken", { name: "" });
    throw err;
  }
}

/** DELETE edit/games/{id}: the game and everything under it; its files lose a reference. */
export async function deleteGame({ db, bucket }: Omit<GameStorageDeps, "now">, gameId: number): Promise<void> {
  const game = await requireGame(db, gameId);
  const challengeIds = db.select({ id: challenges.id }).from(challenges).where(eq(challenges.gameId, gameId));
  const [challengeAttachments, flagAttachments, writeupFiles] = await Promise.all([
    db.select({ id: challenges.attachmentId }).from(challenges).where(eq(challenges.gameId, gameId)).all(),
    db.select({ id: flags.attachmentId }).from(flags).where(inArray(flags.challengeId, challengeIds)).all(),
    db
      .select({ hash: writeups.fileHash })
      .from(writeups)
      .innerJoin(participations, eq(participations.id, writeups.participationId))
      .where(eq(participations.gameId, gameId))
      .all(),
  ]);
  const attachmentIds = [...challengeAttachments, ...flagAttachments].map((a) => a.id).filter((id): id is number => id != null);
  await db.delete(games).where(eq(games.id, gameId)).run();
  const gone = await inChunks(attachmentIds, (part) => db.delete(attachments).where(inArray(attachments.id, part)).returning({ hash: attachments.fileHash }).all());
  const hashes: (string | null)[] = [game.posterHash, ...writeupFiles.map((w) => w.hash), ...gone.map((g) => g.hash)];
  for (const hash of hashes) await releaseFile({ db, bucket }, hash);
}

/** PUT edit/games/{id}/poster: an image ≤ 3 MB; the previous poster loses its reference. */
export async function updatePoster(deps: GameStorageDeps, gameId: number, file: unknown): Promise<string> {
  const game = await requireGame(deps.db, gameId);
  const stored = await storeUpload(deps, file, { kind: "image", limit: IMAGE_LIMIT, name: "poster" });
  const updated = await deps.db.update(games).set({ posterHash: stored.hash }).where(eq(games.id, gameId)).returning({ id: games.id }).get();
  if (!updated) {
    await releaseFile(deps, stored.hash);
    throw notFound("game.not_found");
  }
  await releaseFile(deps, game.posterHash);
  return posterUrl(stored.hash)!;
}

// ── Player views ─────────────────────────────────────────────────────────────────────────────────────

const toBasic = (g: Game): BasicGameInfo => ({
  id: g.id,
  title: g.title,
  summary: g.summary,
  poster: posterUrl(g.posterHash),
  limit: g.teamMemberCountLimit,
  start: g.startTime,
  end: g.endTime,
});

/** GET game: public games, newest start first. */
export async function listGames(db: Db, page: { count: number; skip: number }): Promise<ArrayResponse<BasicGameInfo>> {
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(games)
      .where(eq(games.hidden, false))
      .orderBy(desc(games.startTime), desc(games.id))
      .limit(page.count)
      .offset(page.skip)
      .all(),
    db.select({ n: count() }).from(games).where(eq(games.hidden, false)).get(),
  ]);
  const data = rows.map(toBasic);
  return { data, length: data.length, total: total?.n ?? 0 };
}

/** GET game/{id}: reachable by id even when hidden; the caller's own registration is included. */
export async function getGameDetail(db: Db, gameId: number, user: CurrentUser | null): Promise<DetailedGameInfo> {
  const game = await requireGame(db, gameId);
  const [divisionRows, accepted, mine] = await Promise.all([
    db.select().from(divisions).where(eq(divisions.gameId, gameId)).orderBy(divisions.id).all(),
    db
      .select({ n: count() })
      .from(participations)
      .where(and(eq(participations.gameId, gameId), eq(participations.status, "Accepted")))
      .get(),
    user
      ? db
          .select({ status: participations.status, divisionId: participations.divisionId, teamName: teams.name })
          .from(participationMembers)
          .innerJoin(participations, eq(participations.id, participationMembers.participationId))
          .innerJoin(teams, eq(teams.id, participations.teamId))
          .where(and(eq(participationMembers.gameId, gameId), eq(participationMembers.userId, user.id)))
          .get()
      : Promise.resolve(undefined),
  ]);
  return {
    ...toBasic(game),
    content: game.content,
    hidden: game.hidden,
    divisions: divisionRows.map((d) => ({
      id: d.id,
      name: d.name,
      inviteCodeRequired: (d.inviteCode || game.inviteCode) !== "",
      joinable: (d.defaultPermissions & GamePermission.JoinGame) !== 0,
    })),
    inviteCodeRequired: game.inviteCode !== "",
    writeupRequired: game.writeupRequired,
    teamCount: accepted?.n ?? 0,
    division: mine?.divisionId ?? null,
    teamName: mine?.teamName ?? null,
    practiceMode: game.practiceMode,
    status: (mine?.status ?? "Unsubmitted") as ParticipationStatus,
  };
}
