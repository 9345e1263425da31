import { type AnyColumn, and, count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { badRequest, notFound, preconditionFailed } from "~/core/errors";
import { type Versioned, versionMatches } from "~/core/http/if-match";
import { parsePathId } from "~/core/http/path-id";
import { normalizeBloodBonus } from "~/core/game/blood-bonus";
import { expectedInviteCode, keepsDivision } from "~/core/game/join";
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
import { bumpVersion, isVersionRefusal } from "../db/versions";
import {
  challenges,
  divisionChallengeConfigs,
  divisions,
  flags,
  type Division,
  type Game,
  games,
  participations,
  teamMembers,
  writeups,
} from "../db/schema";
import { dropUnreferenced, IMAGE_LIMIT, releaseFile, releaseStatements, storeUpload } from "../storage/files";
import { deleteAttachmentStatements } from "./flags";
import { callerRegistration, playingMembers } from "./game-access";

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

/** For a page's loader: the game id of the address, or a 404 page when it is not a game. */
export async function gamePageId(db: Db, raw: string | undefined): Promise<number> {
  // The API's rule for path ids: `/games/01` or `/games/0x1` is no game, not game 1.
  const id = parsePathId(raw);
  if (id === null || !(await db.select({ id: games.id }).from(games).where(eq(games.id, id)).get())) throw new Response("Not Found", { status: 404 });
  return id;
}

/** For the overview's loader: the game id of the address (a 404 page when it is not a game) and the game's end. */
export async function gamePageEnd(db: Db, raw: string | undefined): Promise<{ gameId: number; end: number }> {
  const id = parsePathId(raw);
  const game = id === null ? undefined : await db.select({ end: games.endTime }).from(games).where(eq(games.id, id)).get();
  if (id === null || !game) throw new Response("Not Found", { status: 404 });
  return { gameId: id, end: game.end };
}

/**
 * For a monitor page's loader: the game id of the address (a 404 page when it is not a game) and when its
 * sheet downloads open — the game's start, counted from the server's time now (SheetDownloads). One read.
 */
export async function monitorPageGame(db: Db, raw: string | undefined): Promise<{ gameId: number; sheets: { start: number; serverTime: number } }> {
  const id = parsePathId(raw);
  const game = id === null ? undefined : await db.select({ startTime: games.startTime }).from(games).where(eq(games.id, id)).get();
  if (id === null || !game) throw new Response("Not Found", { status: 404 });
  return { gameId: id, sheets: { start: game.startTime, serverTime: Date.now() } };
}

/**
 * For the scoreboard page's loader: the game id of the address (a 404 page when it is not a game), whether
 * it is hidden (its board is for monitors and admins), whether it has started, and its end. One read.
 */
export async function scoreboardPageGame(db: Db, raw: string | undefined): Promise<{ gameId: number; hidden: boolean; started: boolean; end: number }> {
  const id = parsePathId(raw);
  const game = id === null ? undefined : await db.select({ hidden: games.hidden, startTime: games.startTime, endTime: games.endTime }).from(games).where(eq(games.id, id)).get();
  if (id === null || !game) throw new Response("Not Found", { status: 404 });
  return { gameId: id, hidden: game.hidden, started: game.startTime <= Date.now(), end: game.endTime };
}

/** For a page's loader: the challenge id of the address when it is one of the game's, else a 404 page. */
export async function challengePageId(db: Db, gameId: number, raw: string | undefined): Promise<number> {
  const id = parsePathId(raw);
  const exists = id !== null && (await db.select({ id: challenges.id }).from(challenges).where(and(eq(challenges.id, id), eq(challenges.gameId, gameId))).get());
  if (!exists) throw new Response("Not Found", { status: 404 });
  return id;
}

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

/**
 * GET edit/games/{id} with the stored version (its ETag). The row, and so the version, is read before the
 * divisions: a write landing between the reads gives an older version with newer lists, never the
 * reverse, so a PUT based on the answer is at worst refused (412), never let through on stale data.
 */
export async function readEditGame(db: Db, gameId: number): Promise<Versioned<GameInfo>> {
  const game = await requireGame(db, gameId);
  const [info] = await toGameInfos(db, [game]);
  return { value: info!, version: game.version };
}

export async function getEditGame(db: Db, gameId: number): Promise<GameInfo> {
  return (await readEditGame(db, gameId)).value;
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

/**
 * Checked before writing so each mistake gets its own message: division names are unique in a game (case
 * as typed, after trimming) and a division lists each challenge at most once.
 */
function assertDivisionList(list: DivisionInput[]): void {
  const names = new Set<string>();
  for (const d of list) {
    if (names.has(d.name)) throw badRequest("game.division_name_taken", { name: d.name });
    names.add(d.name);
    const challengeIds = new Set((d.challengeConfigs ?? []).map((c) => c.challengeId));
    if (challengeIds.size !== (d.challengeConfigs ?? []).length) throw badRequest("game.division_challenge_duplicate", { name: d.name });
  }
}

// Lists are written as one JSON parameter (`json_each`), never as one parameter per value: D1 binds at most
// 100 parameters per statement, and a division list holds up to 100 divisions of up to 1000 configs each.
const jsonAt = (i: number) => sql.raw(`json_extract(j.value, '$[${i}]')`);
const inJson = (column: SQL | AnyColumn, values: readonly unknown[]) => sql`${column} in (select value from json_each(${JSON.stringify(values)}))`;
/** Config rows per statement: keeps each JSON parameter far below D1's 2 MB value limit. */
const CONFIG_ROWS_MAX = 5000;

// Insert-selects list every column in table order (drizzle); a null id takes the next rowid. Raw `db.run`
// statements cannot go in a drizzle D1 batch once they have parameters, hence the query builders.

/** New divisions, in list order (their ids keep that order). */
function insertDivisions(db: Db, gameId: SQL | number, list: DivisionInput[]) {
  const rows = list.map((d) => [d.name, d.inviteCode ?? "", d.defaultPermissions ?? GamePermission.All]);
  return db
    .insert(divisions)
    .select(sql`select null, ${gameId}, ${jsonAt(0)}, ${jsonAt(1)}, ${jsonAt(2)} from json_each(${JSON.stringify(rows)}) j order by j.key`);
}

/** The challenge configs of the listed divisions, found by their (final) names. */
function insertChallengeConfigs(db: Db, gameId: number, list: DivisionInput[]) {
  const rows = list.flatMap((d) => (d.challengeConfigs ?? []).map((c) => [d.name, c.challengeId, c.permissions]));
  const writes = [];
  for (let i = 0; i < rows.length; i += CONFIG_ROWS_MAX) {
    const part = JSON.stringify(rows.slice(i, i + CONFIG_ROWS_MAX));
    writes.push(
      db
        .insert(divisionChallengeConfigs)
        .select(sql`select d.id, ${jsonAt(1)}, ${jsonAt(2)} from json_each(${part}) j join ${divisions} d on d.game_id = ${gameId} and d.name = ${jsonAt(0)}`),
    );
  }
  return writes;
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
  assertDivisionList(division);
  if (division.some((d) => (d.challengeConfigs ?? []).length > 0)) throw badRequest("game.challenge_unknown");
  const keys = await generateTeamTokenKeys();
  const insertGame = db
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
    .returning({ id: games.id });
  // One batch (one transaction): a game is never left without its divisions. The new game is found by
  // its freshly generated public key.
  const newGameId = sql`(select id from ${games} where public_key = ${keys.publicKey})`;
  const [created] = division.length > 0 ? await db.batch([insertGame, insertDivisions(db, newGameId, division)]) : [await insertGame];
  return getEditGame(db, created[0]!.id);
}

/**
 * PUT edit/games/{id}: omitted or null fields stay; `divisions`, when sent, is the full list (with id =
 * update, without = create, missing = delete, refused while a participation uses it). With `ifMatch`
 * (the parsed `If-Match`), 412 and nothing written unless the stored version is one of those: checked
 * here first, then again by the write itself, which is the first statement of its batch.
 */
export async function updateGame({ db }: GameDeps, gameId: number, input: GameUpdateInput, ifMatch: readonly number[] | null = null): Promise<Versioned<GameInfo>> {
  const game = await requireGame(db, gameId);
  if (!versionMatches(ifMatch, game.version)) throw preconditionFailed();
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

  const writes = [db.update(games).set({ ...set, version: bumpVersion(games.version, ifMatch) }).where(eq(games.id, gameId))] as const;
  try {
    if (input.divisions != null) {
      await syncDivisions(db, gameId, input.divisions, [...writes]);
    } else {
      await writes[0].run();
    }
  } catch (err) {
    if (isVersionRefusal(err, "games")) throw preconditionFailed();
    throw err;
  }
  return readEditGame(db, gameId);
}

type Write = Parameters<Db["batch"]>[0][number];

/** Applies the full division list together with the game update in one batch. */
async function syncDivisions(db: Db, gameId: number, list: DivisionInput[], writes: Write[]): Promise<void> {
  assertDivisionList(list);
  await assertChallengesOfGame(db, gameId, list);
  const existing = await db.select().from(divisions).where(eq(divisions.gameId, gameId)).all();
  const byId = new Map<number, Division>(existing.map((d) => [d.id, d]));
  for (const d of list) if (d.id != null && !byId.has(d.id)) throw badRequest("game.division_unknown");
  const keptList = list.filter((d) => d.id != null);
  const kept = new Set(keptList.map((d) => d.id!));
  const removed = existing.filter((d) => !kept.has(d.id)).map((d) => d.id);
  await assertDivisionsUnused(db, byId, removed);

  const batch: Write[] = [...writes];
  if (removed.length > 0) batch.push(db.delete(divisions).where(inJson(divisions.id, removed)));
  if (keptList.length > 0) {
    // Renames go through a temporary name first so swapping two names never trips the unique index.
    batch.push(db.update(divisions).set({ name: sql`char(0) || ${divisions.id}` }).where(inJson(divisions.id, [...kept])));
    const rows = keptList.map((d) => {
      const current = byId.get(d.id!)!;
      return [d.id, d.name, d.inviteCode ?? current.inviteCode, d.defaultPermissions ?? current.defaultPermissions];
    });
    batch.push(
      db
        .update(divisions)
        .set({ name: sql`x.name`, inviteCode: sql`x.invite_code`, defaultPermissions: sql`x.default_permissions` })
        .from(
          sql`(select ${jsonAt(0)} as id, ${jsonAt(1)} as name, ${jsonAt(2)} as invite_code, ${jsonAt(3)} as default_permissions from json_each(${JSON.stringify(rows)}) j) x`,
        )
        .where(sql`${divisions.id} = x.id`),
    );
  }
  // Sent configs replace a kept division's; a division sent without them keeps its own.
  const reconfigured = keptList.filter((d) => d.challengeConfigs != null).map((d) => d.id!);
  if (reconfigured.length > 0) batch.push(db.delete(divisionChallengeConfigs).where(inJson(divisionChallengeConfigs.divisionId, reconfigured)));
  const added = list.filter((d) => d.id == null);
  if (added.length > 0) batch.push(insertDivisions(db, gameId, added));
  batch.push(...insertChallengeConfigs(db, gameId, list));
  try {
    await db.batch(batch as [Write, ...Write[]]);
  } catch (err) {
    const text = String((err as { cause?: unknown })?.cause ?? err);
    // The list was checked above, so only a concurrent change gets here: a team joining a removed
    // division, a challenge deleted, or another edit of this game's divisions. Say which when we can.
    if (/FOREIGN KEY constraint failed/i.test(text)) {
      await assertDivisionsUnused(db, byId, removed);
      await assertChallengesOfGame(db, gameId, list);
    }
    if (/UNIQUE constraint failed/i.test(text)) throw badRequest("game.division_names_unique");
    throw err;
  }
}

/** Divisions about to be deleted must have no participation (teams keep their division). */
async function assertDivisionsUnused(db: Db, byId: Map<number, Division>, removed: number[]): Promise<void> {
  if (removed.length === 0) return;
  const used = await db
    .select({ id: participations.divisionId })
    .from(participations)
    .where(inJson(participations.divisionId, removed))
    .get();
  if (used) throw badRequest("game.division_in_use", { name: byId.get(used.id!)?.name ?? "" });
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
  // The game (its challenges, teams' participations and writeups by cascade), the attachments and every file
  // reference they held go in one transaction: a runtime dying half-way leaves no reference nothing holds.
  const released = await deleteAttachmentStatements(db, [...challengeAttachments, ...flagAttachments].map((a) => a.id));
  const others = [game.posterHash, ...writeupFiles.map((w) => w.hash)];
  await db.batch([db.delete(games).where(eq(games.id, gameId)), ...released.batch, ...releaseStatements(db, others)]);
  await dropUnreferenced({ db, bucket }, [...others, ...released.hashes]);
}

/** PUT edit/games/{id}/poster: an image ≤ 3 MB; the previous poster loses its reference. */
export async function updatePoster(deps: GameStorageDeps, gameId: number, file: unknown): Promise<string> {
  const game = await requireGame(deps.db, gameId);
  const stored = await storeUpload(deps, file, { kind: "image", limit: IMAGE_LIMIT, name: "poster" });
  const updated = await deps.db
    .update(games)
    .set({ posterHash: stored.hash, version: bumpVersion(games.version) })
    .where(eq(games.id, gameId))
    .returning({ id: games.id })
    .get();
  if (!updated) {
    await releaseFile(deps, stored.hash);
    throw notFound("game.not_found");
  }
  await releaseFile(deps, game.posterHash);
  return posterUrl(stored.hash)!;
}

/**
 * DELETE edit/games/{id}/poster: the game shows no poster again; the file loses its reference. True when
 * a poster was removed (false: the game had none, or another one was uploaded meanwhile and stays).
 */
export async function removePoster(deps: GameStorageDeps, gameId: number): Promise<boolean> {
  const game = await requireGame(deps.db, gameId);
  if (!game.posterHash) return false;
  const updated = await deps.db
    .update(games)
    .set({ posterHash: null, version: bumpVersion(games.version) })
    .where(and(eq(games.id, gameId), eq(games.posterHash, game.posterHash)))
    .returning({ id: games.id })
    .get();
  // A poster uploaded meanwhile stays (and keeps its file).
  if (!updated) return false;
  await releaseFile(deps, game.posterHash);
  return true;
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
  const [divisionRows, accepted, mine, teamRows] = await Promise.all([
    db.select().from(divisions).where(eq(divisions.gameId, gameId)).orderBy(divisions.id).all(),
    db
      .select({ n: count() })
      .from(participations)
      .where(and(eq(participations.gameId, gameId), eq(participations.status, "Accepted")))
      .get(),
    user ? callerRegistration(db, gameId, user.id) : Promise.resolve(undefined),
    user
      ? db
          .select({
            teamId: participations.teamId,
            divisionId: participations.divisionId,
            status: participations.status,
            // The members the member limit counts: a registered member who left the team takes no place.
            members: sql<number>`${playingMembers(participations.id, participations.teamId)}`,
          })
          .from(participations)
          .innerJoin(teamMembers, and(eq(teamMembers.teamId, participations.teamId), eq(teamMembers.userId, user.id)))
          .where(eq(participations.gameId, gameId))
          .orderBy(participations.teamId)
          .all()
      : Promise.resolve([]),
  ]);
  // A registration kept after leaving its team (teams.ts removeMember): the caller plays in no team here.
  const left = mine && !mine.playing ? mine : undefined;
  const playing = left ? undefined : mine;
  return {
    ...toBasic(game),
    content: game.content,
    hidden: game.hidden,
    divisions: divisionRows.map((d) => ({
      id: d.id,
      name: d.name,
      inviteCodeRequired: expectedInviteCode(game.inviteCode, d) !== "",
      joinable: (d.defaultPermissions & GamePermission.JoinGame) !== 0,
    })),
    // What a member joining one of their teams that already takes part is asked (its division is kept).
    teamParticipations: teamRows
      .filter((p) => keepsDivision(p.status as ParticipationStatus))
      .map((p) => ({
        teamId: p.teamId,
        division: p.divisionId,
        status: p.status as ParticipationStatus,
        members: p.members,
        inviteCodeRequired: expectedInviteCode(game.inviteCode, divisionRows.find((d) => d.id === p.divisionId) ?? null) !== "",
      })),
    inviteCodeRequired: game.inviteCode !== "",
    writeupRequired: game.writeupRequired,
    teamCount: accepted?.n ?? 0,
    division: playing?.divisionId ?? null,
    teamName: playing?.teamName ?? null,
    teamId: playing?.teamId ?? null,
    leftTeamName: left?.teamName ?? null,
    practiceMode: game.practiceMode,
    // Once that team is rejected the registration records no play: its status shows, with Leave (DELETE
    // game/{id}), after which the caller may join with another team.
    status: (playing?.status ?? (left?.status === "Rejected" ? "Rejected" : "Unsubmitted")) as ParticipationStatus,
  };
}
