import { and, asc, eq, inArray, or } from "drizzle-orm";
import { roleRank } from "~/core/enums";
import { badRequest, conflict, forbidden, notFound } from "~/core/errors";
import { computeGamePhase, gameNotStarted } from "~/core/game/phase";
import { gzipStream } from "~/core/http/encoding";
import { createTarStream, type TarEntry } from "~/core/tar";
import { compareNames } from "~/core/text-fold";
import {
  isPdfNameAndType,
  writeupArchiveEntry,
  writeupArchiveFolder,
  writeupArchiveName,
  writeupFileName,
} from "~/core/writeup-names";
import type { CurrentUser } from "../auth/current-user";
import { avatarUrl } from "../auth/session";
import type { Db } from "../db/client";
import { divisions, participations, teams, writeups } from "../db/schema";
import { blobKey, PDF_LIMIT, readValidatedUpload, releaseFile, storeBytes } from "../storage/files";
import { callerRegistration } from "./game-access";
import { requireGame } from "./games";

export interface WriteupDeps {
  db: Db;
  bucket: R2Bucket;
  now: number;
}

/** GET game/{id}/writeup; `deadline`, `uploadTime` and `url` are additions to the api.md shape. */
export interface WriteupStatus {
  submitted: boolean;
  /** The stored name, `#` when none. */
  name: string;
  fileSize: number;
  note: string;
  deadline: number;
  uploadTime: number | null;
  url: string | null;
}

/** TeamInfoModel without members. */
export interface WriteupTeam {
  id: number;
  name: string;
  bio: string;
  avatar: string | null;
  locked: boolean;
}

export interface AdminWriteup {
  /** The participation id. */
  id: number;
  team: WriteupTeam;
  url: string;
  uploadTimeUtc: number;
  divisionId: number | null;
  /** Additions to api.md: the stored name and its size in bytes. */
  fileName: string;
  fileSize: number;
}

/** GET admin/writeups/{gameId}; `unsubmitted` (accepted teams without a writeup) is an addition. */
export interface AdminWriteupList {
  divisions: Record<string, string>;
  writeups: AdminWriteup[];
  unsubmitted: { id: number; team: WriteupTeam; divisionId: number | null }[];
}

export const writeupUrl = (hash: string, fileName: string) => `/assets/${hash}/${encodeURIComponent(fileName)}`;

const toTeam = (t: typeof teams.$inferSelect): WriteupTeam => ({ id: t.id, name: t.name, bio: t.bio, avatar: avatarUrl(t.avatarHash), locked: t.locked });

/**
 * The caller's Accepted participation in a visible, started game (the Player level of api.md §1).
 * Hidden games are unknown (404) to outsiders; a suspended team hears "You have been banned". A member
 * who left the team keeps the registration, not the play: they hear so (403 `submission.left_team`, as
 * the other player calls answer them), a hidden game included, which their registration lets them see.
 */
async function requirePlayer(db: Db, user: CurrentUser, gameId: number, now: number) {
  const game = await requireGame(db, gameId);
  const mine = await callerRegistration(db, gameId, user.id);
  if (game.hidden && !mine && roleRank(user.role) < roleRank("Monitor")) throw notFound("game.not_found");
  if (mine && !mine.playing) throw forbidden("submission.left_team");
  if (mine?.status === "Suspended") throw forbidden("game.banned");
  if (mine?.status !== "Accepted") throw forbidden();
  if (computeGamePhase(game, now) === "NotStarted") throw gameNotStarted();
  return { game, participation: mine };
}

/** GET game/{id}/writeup: the team's writeup state and the game's instruction. */
export async function getWriteupStatus({ db, now }: Omit<WriteupDeps, "bucket">, user: CurrentUser, gameId: number): Promise<WriteupStatus> {
  const { game, participation } = await requirePlayer(db, user, gameId, now);
  const row = await db.select().from(writeups).where(eq(writeups.participationId, participation.id)).get();
  return {
    submitted: row !== undefined,
    name: row?.fileName ?? "#",
    fileSize: row?.size ?? 0,
    note: game.writeupNote,
    deadline: game.writeupDeadline,
    uploadTime: row?.uploadTime ?? null,
    url: row ? writeupUrl(row.fileHash, row.fileName) : null,
  };
}

/**
 * POST game/{id}/writeup (rules.md §13): one PDF (name, type and first bytes), 1 B – 20 MB, until the
 * deadline. The new file is stored before the row moves to it, and only then is the old one released, so
 * a failed upload keeps the previous writeup. Returns the stored name and whether an older writeup was replaced.
 */
export async function submitWriteup(
  deps: WriteupDeps,
  user: CurrentUser,
  gameId: number,
  file: unknown,
): Promise<{ fileName: string; size: number; teamId: number; replaced: boolean }> {
  const { db, now } = deps;
  const { game, participation } = await requirePlayer(db, user, gameId, now);
  if (!game.writeupRequired) throw badRequest("writeup.not_required");
  if (now > game.writeupDeadline) throw badRequest("writeup.deadline_passed");
  if (!(file instanceof File) || !isPdfNameAndType(file.name, file.type)) throw badRequest("file.invalid");
  const { bytes } = await readValidatedUpload(file, "pdf", PDF_LIMIT);
  const fileName = writeupFileName(gameId, participation.teamId, now);
  const stored = await storeBytes(deps, bytes, { name: fileName, contentType: "application/pdf" });
  const values = { fileHash: stored.hash, fileName, size: stored.size, uploadTime: now };
  try {
    // Compare-and-swap on the previous file, so two uploads racing never release the same old file twice.
    for (let attempt = 0; attempt < 5; attempt++) {
      const previous = await db.select({ hash: writeups.fileHash }).from(writeups).where(eq(writeups.participationId, participation.id)).get();
      if (!previous) {
        const inserted = await db
          .insert(writeups)
          .values({ participationId: participation.id, ...values })
          .onConflictDoNothing()
          .returning({ id: writeups.participationId })
          .get();
        if (inserted) return { fileName, size: stored.size, teamId: participation.teamId, replaced: false };
        continue;
      }
      const swapped = await db
        .update(writeups)
        .set(values)
        .where(and(eq(writeups.participationId, participation.id), eq(writeups.fileHash, previous.hash)))
        .returning({ id: writeups.participationId })
        .get();
      if (swapped) {
        await releaseFile(deps, previous.hash);
        return { fileName, size: stored.size, teamId: participation.teamId, replaced: true };
      }
    }
    // Other members kept replacing it meanwhile: a lost race, not a failure (api.md §1: 409).
    throw conflict("writeup.write_conflict");
  } catch (err) {
    await releaseFile(deps, stored.hash);
    throw err;
  }
}

/** GET admin/writeups/{gameId}: every writeup (newest first) and the accepted teams still without one. */
export async function listWriteups(db: Db, gameId: number): Promise<AdminWriteupList> {
  await requireGame(db, gameId);
  const [divisionRows, rows] = await Promise.all([
    db.select({ id: divisions.id, name: divisions.name }).from(divisions).where(eq(divisions.gameId, gameId)).orderBy(divisions.id).all(),
    db
      .select({ p: participations, team: teams, w: writeups })
      .from(participations)
      .innerJoin(teams, eq(teams.id, participations.teamId))
      .leftJoin(writeups, eq(writeups.participationId, participations.id))
      .where(
        and(
          eq(participations.gameId, gameId),
          or(eq(participations.status, "Accepted"), inArray(participations.id, db.select({ id: writeups.participationId }).from(writeups))),
        ),
      )
      .all(),
  ]);
  // Newest writeup first, then teams by name as people read them (SQLite sorts names by character code).
  rows.sort((a, b) => (b.w?.uploadTime ?? -Infinity) - (a.w?.uploadTime ?? -Infinity) || compareNames(a.team.name, b.team.name) || a.p.id - b.p.id);
  const list: AdminWriteupList = { divisions: {}, writeups: [], unsubmitted: [] };
  for (const d of divisionRows) list.divisions[String(d.id)] = d.name;
  for (const { p, team, w } of rows) {
    if (w) {
      list.writeups.push({
        id: p.id,
        team: toTeam(team),
        url: writeupUrl(w.fileHash, w.fileName),
        uploadTimeUtc: w.uploadTime,
        divisionId: p.divisionId,
        fileName: w.fileName,
        fileSize: w.size,
      });
    } else {
      list.unsubmitted.push({ id: p.id, team: toTeam(team), divisionId: p.divisionId });
    }
  }
  return list;
}

/**
 * GET admin/writeups/{gameId}/all: a gzipped tar streamed from R2 one file at a time. Entries sit in a
 * folder named like the archive, each named `{team name}-{stored name}`.
 */
export async function writeupArchive({ db, bucket, now }: WriteupDeps, gameId: number): Promise<{ name: string; body: ReadableStream<Uint8Array> }> {
  const game = await requireGame(db, gameId);
  const rows = await db
    .select({ teamName: teams.name, w: writeups })
    .from(writeups)
    .innerJoin(participations, eq(participations.id, writeups.participationId))
    .innerJoin(teams, eq(teams.id, participations.teamId))
    .where(eq(participations.gameId, gameId))
    .orderBy(asc(teams.name), asc(participations.id))
    .all();
  const folder = writeupArchiveFolder(game.title, now);
  const entries: TarEntry[] = [
    { name: `${folder}/`, size: 0, mtime: now },
    ...rows.map(({ teamName, w }) => ({
      name: writeupArchiveEntry(folder, teamName, w.fileName),
      size: w.size,
      mtime: w.uploadTime,
      open: async () => (await bucket.get(blobKey(w.fileHash)))?.body ?? null,
    })),
  ];
  return { name: writeupArchiveName(game.title, now), body: gzipStream(createTarStream(entries)) };
}

/** DELETE edit/games/{id}/writeups: removes every writeup of the game and releases their files. */
export async function deleteAllWriteups(deps: Omit<WriteupDeps, "now">, gameId: number): Promise<number> {
  const { db } = deps;
  await requireGame(db, gameId);
  const ofGame = db.select({ id: participations.id }).from(participations).where(eq(participations.gameId, gameId));
  const gone = await db.delete(writeups).where(inArray(writeups.participationId, ofGame)).returning({ hash: writeups.fileHash }).all();
  for (const { hash } of gone) await releaseFile(deps, hash);
  return gone.length;
}

