import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { FileType } from "~/core/enums";
import { badRequest, notFound } from "~/core/errors";
import type { AttachmentInfo, AttachmentInput, FlagCreateInput, FlagInfo } from "~/core/schemas/challenge";
import { inChunks } from "../db/chunks";
import type { Db } from "../db/client";
import { bumpVersion } from "../db/versions";
import { type Attachment, attachments, type Challenge, challenges, files, flags, gameInstances, participations, teams } from "../db/schema";
import { dropUnreferenced, referenceStatements, releaseStatements } from "../storage/files";

export interface FlagDeps {
  db: Db;
  bucket: R2Bucket;
}

/** The download URL of a local file under a given name (`/assets/{hash}/{name}`). */
export const assetUrl = (hash: string, name: string) => `/assets/${hash}/${encodeURIComponent(name)}`;

/** AttachmentInfo of a row; `name` is the download name of a Local file. */
export function toAttachmentInfo(row: Attachment, name: string): AttachmentInfo {
  const url = row.type === "Local" && row.fileHash ? assetUrl(row.fileHash, name) : row.type === "Remote" ? row.remoteUrl : null;
  return { id: row.id, type: row.type, url, fileSize: row.type === "Local" ? row.fileSize : null };
}

interface AttachmentSpec {
  type: FileType;
  fileHash?: string | null | undefined;
  remoteUrl?: string | null | undefined;
}

/** Checks that the fields a type needs are present (Local: a hash, Remote: a URL). */
function requireSpec({ type, fileHash, remoteUrl }: AttachmentSpec): AttachmentSpec {
  if (type === "Local" && !fileHash) throw badRequest("challenge.file_required");
  if (type === "Remote" && !remoteUrl) throw badRequest("challenge.url_required");
  return { type, fileHash: type === "Local" ? fileHash : null, remoteUrl: type === "Remote" ? remoteUrl : null };
}

/**
 * Adds one reference to each Local file (the attachment rows will point at it); 400 when a hash is unknown.
 * Returns each file's size and current name by hash (an attachment keeps the name it is given now).
 */
async function referenceFiles(db: Db, hashes: string[]): Promise<Map<string, { size: number; name: string }>> {
  const known = await knownFiles(db, hashes);
  const updates = referenceStatements(db, hashes);
  if (updates.length > 0) await db.batch(updates as [(typeof updates)[number], ...(typeof updates)[number][]]);
  return known;
}

/** Size and name of each file named; `challenge.file_unknown` when one is not stored. */
async function knownFiles(db: Db, hashes: string[]): Promise<Map<string, { size: number; name: string }>> {
  const known = new Map<string, { size: number; name: string }>();
  const distinct = [...new Set(hashes)];
  if (distinct.length === 0) return known;
  const rows = await inChunks(distinct, (part) =>
    db.select({ hash: files.hash, size: files.size, name: files.name }).from(files).where(inArray(files.hash, part)).all(),
  );
  for (const r of rows) known.set(r.hash, { size: r.size, name: r.name });
  if (known.size !== distinct.length) throw badRequest("challenge.file_unknown");
  return known;
}

/** The attachment row of a spec, with the size and name of its Local file. */
function attachmentValues(spec: AttachmentSpec, known: Map<string, { size: number; name: string }>) {
  const file = spec.fileHash ? known.get(spec.fileHash) : undefined;
  return { type: spec.type, fileHash: spec.fileHash ?? null, remoteUrl: spec.remoteUrl ?? null, fileSize: file?.size ?? null, name: file?.name ?? null };
}

/** Removes attachment rows and releases their files (the blob goes with its last reference). */
export async function deleteAttachments({ db, bucket }: FlagDeps, ids: (number | null)[]): Promise<void> {
  const statements = await deleteAttachmentStatements(db, ids);
  if (statements.batch.length === 0) return;
  await db.batch(statements.batch as [(typeof statements.batch)[number], ...(typeof statements.batch)[number][]]);
  await dropUnreferenced({ db, bucket }, statements.hashes);
}

/**
 * The statements that delete these attachment rows and take their files' references, for one batch (a runtime
 * dying half-way leaves neither rows without references nor references without rows), and the files named:
 * `dropUnreferenced` removes those left without a reference once the batch is stored.
 */
export async function deleteAttachmentStatements(db: Db, ids: (number | null)[]) {
  const list = [...new Set(ids.filter((id): id is number => id != null))];
  const rows = await inChunks(list, (part) => db.select({ hash: attachments.fileHash }).from(attachments).where(inArray(attachments.id, part)).all());
  const hashes = rows.map((r) => r.hash);
  const deletes = [];
  for (let i = 0; i < list.length; i += 90) deletes.push(db.delete(attachments).where(inArray(attachments.id, list.slice(i, i + 90))));
  return { batch: [...deletes, ...releaseStatements(db, hashes)], hashes };
}

/** POST edit/games/{id}/challenges/{cid}/attachment: replaces the shared attachment of a static challenge. */
export async function setChallengeAttachment(deps: FlagDeps, challenge: Challenge, input: AttachmentInput): Promise<void> {
  const { db } = deps;
  if (challenge.type === "DynamicAttachment") throw badRequest("challenge.attachment_on_flags");
  const spec = requireSpec({ type: input.attachmentType, fileHash: input.fileHash, remoteUrl: input.remoteUrl });
  let attachmentId: number | null = null;
  if (spec.type !== "None") {
    const known = await referenceFiles(db, spec.fileHash ? [spec.fileHash] : []);
    const row = await db
      .insert(attachments)
      .values(attachmentValues(spec, known))
      .returning({ id: attachments.id })
      .get();
    attachmentId = row.id;
  }
  // Swapped only against the attachment last read, so that of concurrent calls each releases the one it
  // replaced and no attachment row (with its file's reference) is left behind by a lost update.
  let replaced = challenge.attachmentId;
  for (;;) {
    const swapped = await db
      .update(challenges)
      .set({ attachmentId, version: bumpVersion(challenges.version) })
      .where(and(eq(challenges.id, challenge.id), replaced == null ? isNull(challenges.attachmentId) : eq(challenges.attachmentId, replaced)))
      .returning({ id: challenges.id })
      .get();
    if (swapped) break;
    const current = await db.select({ attachmentId: challenges.attachmentId }).from(challenges).where(eq(challenges.id, challenge.id)).get();
    if (!current) {
      // The challenge was deleted meanwhile: the new attachment has nothing to belong to.
      await deleteAttachments(deps, [attachmentId]);
      throw notFound("challenge.not_found");
    }
    replaced = current.attachmentId;
  }
  await deleteAttachments(deps, [replaced]);
}

/**
 * POST edit/games/{id}/challenges/{cid}/flags. Static types: plain flags. DynamicAttachment: (flag,
 * attachment) pairs with a Local file or a Remote link. DynamicContainer: refused (flags are generated).
 * Flags are unique within the challenge, also against the ones already stored; nothing is stored on error.
 */
export async function addFlags(deps: FlagDeps, challenge: Challenge, input: FlagCreateInput[]): Promise<void> {
  const { db } = deps;
  if (challenge.type === "DynamicContainer") throw badRequest("challenge.flags_generated");
  const dynamic = challenge.type === "DynamicAttachment";
  const texts = input.map((f) => f.flag);
  // The refusals name the flag: in a batch of fifty the admin would otherwise search for it by hand.
  const repeated = texts.find((text, i) => texts.indexOf(text) !== i);
  if (repeated !== undefined) throw badRequest("challenge.flag_repeated", { flag: repeated });
  const clashes = await inChunks(texts, (part) =>
    db
      .select({ flag: flags.flag })
      .from(flags)
      .where(and(eq(flags.challengeId, challenge.id), inArray(flags.flag, part)))
      .limit(1)
      .all(),
  );
  const stored = texts.find((text) => clashes.some((c) => c.flag === text));
  if (stored !== undefined) throw badRequest("challenge.flag_exists", { flag: stored });
  const specs = input.map((f) => {
    if (!dynamic) {
      // Other types' flags carry no attachment: one sent with a flag would be dropped without a word.
      if ((f.attachmentType && f.attachmentType !== "None") || f.fileHash || f.remoteUrl) throw badRequest("challenge.flag_attachment_not_dynamic");
      return null;
    }
    const type = f.attachmentType ?? (f.fileHash ? "Local" : f.remoteUrl ? "Remote" : "None");
    if (type === "None") throw badRequest("challenge.flag_attachment_required");
    return requireSpec({ type, fileHash: f.fileHash, remoteUrl: f.remoteUrl });
  });
  const hashes = specs.flatMap((s) => (s?.fileHash ? [s.fileHash] : []));
  const known = await knownFiles(db, hashes);
  // One batch is one transaction: the flags, their attachments and the files' references are all stored or
  // none (a runtime dying half-way leaves no attachment that no flag holds). Each flag takes the id of the
  // attachment inserted just before it.
  type Statement = Parameters<Db["batch"]>[0][number];
  const batch: Statement[] = [
    // The challenge's edit version moves with its flags (GET edit/games/{id}/challenges/{cid} lists them).
    db.update(challenges).set({ version: bumpVersion(challenges.version) }).where(eq(challenges.id, challenge.id)),
    ...referenceStatements(db, hashes),
  ];
  if (dynamic) {
    input.forEach((f, i) => {
      batch.push(db.insert(attachments).values(attachmentValues(specs[i]!, known)));
      batch.push(db.insert(flags).values({ challengeId: challenge.id, flag: f.flag, attachmentId: sql`last_insert_rowid()` }));
    });
  } else {
    for (let i = 0; i < input.length; i += 20) {
      batch.push(db.insert(flags).values(input.slice(i, i + 20).map((f) => ({ challengeId: challenge.id, flag: f.flag }))));
    }
  }
  try {
    await db.batch(batch as [Statement, ...Statement[]]);
  } catch (err) {
    if (/UNIQUE constraint failed/i.test(String((err as { cause?: unknown })?.cause ?? err))) throw badRequest("challenge.flag_duplicate");
    throw err;
  }
}

/**
 * DELETE edit/games/{id}/challenges/{cid}/flags/{flagId}: the flag and its attachment. An enabled challenge
 * keeps its last flag (rules.md §5: it could not be enabled without one, and no answer would be right);
 * the check is part of the one delete statement, so two deletes at once cannot both pass it.
 */
export async function deleteFlag(deps: FlagDeps, challengeId: number, flagId: number): Promise<void> {
  const keepsAFlag = sql`((
    select c.is_enabled = 0 or c.type = 'DynamicContainer' from ${challenges} c where c.id = ${challengeId}
  ) or (select count(*) from ${flags} f where f.challenge_id = ${challengeId}) > 1)`;
  const row = await deps.db
    .delete(flags)
    .where(and(eq(flags.id, flagId), eq(flags.challengeId, challengeId), keepsAFlag))
    .returning({ attachmentId: flags.attachmentId })
    .get();
  if (!row) {
    const exists = await deps.db.select({ id: flags.id }).from(flags).where(and(eq(flags.id, flagId), eq(flags.challengeId, challengeId))).get();
    throw exists ? badRequest("challenge.last_flag") : notFound("challenge.flag_not_found");
  }
  await deps.db.update(challenges).set({ version: bumpVersion(challenges.version) }).where(eq(challenges.id, challengeId)).run();
  await deleteAttachments(deps, [row.attachmentId]);
}

/**
 * The flags of a challenge with their attachments (dynamic ones under the common file name) and, for a
 * DynamicAttachment pair already handed out, the team holding it (an admin deleting it must know).
 */
export async function listFlags(db: Db, challenge: Challenge): Promise<FlagInfo[]> {
  const rows = await db
    .select({ flag: flags, attachment: attachments, team: teams.name })
    .from(flags)
    .leftJoin(attachments, eq(attachments.id, flags.attachmentId))
    .leftJoin(gameInstances, eq(gameInstances.flagId, flags.id))
    .leftJoin(participations, eq(participations.id, gameInstances.participationId))
    .leftJoin(teams, eq(teams.id, participations.teamId))
    .where(eq(flags.challengeId, challenge.id))
    .orderBy(flags.id)
    .all();
  return rows.map(({ flag, attachment, team }) => ({
    id: flag.id,
    flag: flag.flag,
    attachment: attachment ? toAttachmentInfo(attachment, challenge.fileName) : null,
    team,
  }));
}

/**
 * The shared attachment of a static challenge, downloaded under the name it was attached with: not the
 * shared file row's, which a later upload of the same bytes (maybe for another challenge) renames.
 */
export async function getChallengeAttachment(db: Db, challenge: Challenge): Promise<AttachmentInfo | null> {
  if (challenge.attachmentId == null) return null;
  const row = await db.select().from(attachments).where(eq(attachments.id, challenge.attachmentId)).get();
  return row ? toAttachmentInfo(row, row.name ?? challenge.fileName) : null;
}

/** Whether a challenge has at least one flag row. */
export async function hasFlags(db: Db, challengeId: number): Promise<boolean> {
  return (await db.select({ id: flags.id }).from(flags).where(eq(flags.challengeId, challengeId)).limit(1).get()) !== undefined;
}
