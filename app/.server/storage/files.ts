import { count, desc, eq, gt, lte, sql } from "drizzle-orm";
import { badRequest, notFound } from "~/core/errors";
import { FILE_LIMITS } from "~/core/http/body-limit";
import type { Db } from "../db/client";
import { attachments, configEntries, files, games, teams, users, writeups } from "../db/schema";
import { type DetectedKind, detectImage, isPdf, MIME_BY_KIND } from "./magic-bytes";

/** Image uploads (avatar, poster, logo): 1 B – 3 MB. */
export const IMAGE_LIMIT = FILE_LIMITS.image;
/** Writeups: one PDF, 1 B – 20 MB. */
export const PDF_LIMIT = FILE_LIMITS.pdf;

export type UploadKind = "image" | "pdf" | "any";

export interface StoredFile {
  hash: string;
  name: string;
  size: number;
  contentType: string;
}

export interface StorageDeps {
  db: Db;
  bucket: R2Bucket;
  now: number;
}

const HASH_RE = /^[0-9a-f]{64}$/;
export const isFileHash = (s: string) => HASH_RE.test(s);

/** The R2 key of a blob: `uploads/{hash[0..2]}/{hash[2..4]}/{hash}`. */
export const blobKey = (hash: string) => `uploads/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Reads an upload after checking its size (1 B … limit) and, for images and PDFs, its first bytes.
 * Throws 400 `file.invalid` ("Please check file format and size") otherwise.
 */
export async function readValidatedUpload(
  file: unknown,
  kind: UploadKind,
  limit: number,
  invalidCode = "file.invalid",
): Promise<{ bytes: Uint8Array<ArrayBuffer>; contentType: string }> {
  if (!(file instanceof Blob)) throw badRequest(invalidCode);
  if (file.size < 1 || file.size > limit) throw badRequest(invalidCode);
  const bytes = new Uint8Array(await file.arrayBuffer());
  let detected: DetectedKind | null = null;
  if (kind === "image") detected = detectImage(bytes);
  else if (kind === "pdf") detected = isPdf(bytes) ? "pdf" : null;
  if (kind !== "any" && !detected) throw badRequest(invalidCode);
  const contentType = detected ? MIME_BY_KIND[detected] : file.type || "application/octet-stream";
  return { bytes, contentType };
}

/**
 * Stores bytes in R2 under their SHA-256 and adds one reference to the `files` row (created on first use).
 * Storing the same content twice keeps one blob with two references. `rename`: a named upload (POST
 * /api/assets) gives a stored row its name; role uploads (avatar, poster, logo, writeup) leave it.
 */
export async function storeBytes(
  { db, bucket, now }: StorageDeps,
  bytes: Uint8Array<ArrayBuffer>,
  meta: { name: string; contentType: string; rename?: boolean },
): Promise<StoredFile> {
  const hash = await sha256Hex(bytes);
  const existing = await db.select({ hash: files.hash, name: files.name }).from(files).where(eq(files.hash, hash)).get();
  if (!existing || !(await bucket.head(blobKey(hash)))) {
    await bucket.put(blobKey(hash), bytes, { httpMetadata: { contentType: meta.contentType } });
  }
  await db
    .insert(files)
    .values({ hash, name: meta.name, size: bytes.byteLength, contentType: meta.contentType, referenceCount: 1, uploadTime: now })
    .onConflictDoUpdate({
      target: files.hash,
      set: { referenceCount: sql`${files.referenceCount} + 1`, ...(meta.rename ? { name: meta.name } : {}) },
    })
    .run();
  // Attachments keep the name they were given when attached (attachments.name), so a rename here reaches
  // only the file list and attachments made from now on.
  return { hash, name: meta.rename ? meta.name : (existing?.name ?? meta.name), size: bytes.byteLength, contentType: meta.contentType };
}

/** Validates and stores an upload in one step (see readValidatedUpload and storeBytes). */
export async function storeUpload(
  deps: StorageDeps,
  file: unknown,
  opts: { kind: UploadKind; limit: number; name: string; invalidCode?: string },
): Promise<StoredFile> {
  const { bytes, contentType } = await readValidatedUpload(file, opts.kind, opts.limit, opts.invalidCode);
  return storeBytes(deps, bytes, { name: opts.name, contentType });
}

/**
 * Drops one reference; when none remain the row and the blob are removed (then it answers true). Unknown
 * or null hashes are ignored.
 */
export async function releaseFile({ db, bucket }: Omit<StorageDeps, "now">, hash: string | null | undefined): Promise<boolean> {
  if (!hash) return false;
  const row = await db
    .update(files)
    .set({ referenceCount: sql`${files.referenceCount} - 1` })
    .where(eq(files.hash, hash))
    .returning({ referenceCount: files.referenceCount })
    .get();
  if (!row || row.referenceCount > 0) return false;
  return dropIfUnreferenced({ db, bucket }, hash);
}

/** One statement per file changing its count by `sign` × its entries in `hashes` (entries without a hash skipped). */
function countStatements(db: Db, hashes: readonly (string | null | undefined)[], sign: 1 | -1) {
  const counts = new Map<string, number>();
  for (const hash of hashes) if (hash) counts.set(hash, (counts.get(hash) ?? 0) + 1);
  return [...counts].map(([hash, n]) => db.update(files).set({ referenceCount: sql`${files.referenceCount} + ${sign * n}` }).where(eq(files.hash, hash)));
}

/** The statements that add one reference per entry of `hashes` to its file, for the batch of the rows that use them. */
export const referenceStatements = (db: Db, hashes: readonly string[]) => countStatements(db, hashes, 1);

/**
 * The statements that take one reference per entry of `hashes` off its file, for the batch of the change that
 * drops those uses: rows and references go in one transaction, so a runtime dying between them leaves no
 * reference that nothing holds. `dropUnreferenced` then removes the files left at zero.
 */
export const releaseStatements = (db: Db, hashes: readonly (string | null | undefined)[]) => countStatements(db, hashes, -1);

/** After a batch of `releaseStatements`: deletes those of the files that no longer have a reference. */
export async function dropUnreferenced(deps: Omit<StorageDeps, "now">, hashes: readonly (string | null | undefined)[]): Promise<void> {
  for (const hash of new Set(hashes)) if (hash) await dropIfUnreferenced(deps, hash);
}

/** Deletes a file at zero references, row and blob; true when it went. */
async function dropIfUnreferenced({ db, bucket }: Omit<StorageDeps, "now">, hash: string): Promise<boolean> {
  // Another upload may have added a reference in between: delete only while still at zero.
  let gone: { hash: string } | undefined;
  try {
    gone = await db
      .delete(files)
      .where(sql`${files.hash} = ${hash} and ${files.referenceCount} <= 0`)
      .returning({ hash: files.hash })
      .get();
  } catch (err) {
    // A row (attachment, writeup) still refers to the file by foreign key: it stays, with one reference.
    if (!/FOREIGN KEY constraint failed/i.test(String((err as { cause?: unknown })?.cause ?? err))) throw err;
    await db.update(files).set({ referenceCount: 1 }).where(sql`${files.hash} = ${hash} and ${files.referenceCount} <= 0`).run();
    return false;
  }
  if (!gone) return false;
  await bucket.delete(blobKey(hash));
  return true;
}

/** The stored row of a file, or null. */
export async function getFile(db: Db, hash: string) {
  return (await db.select().from(files).where(eq(files.hash, hash)).get()) ?? null;
}

// ── Assets (api.md §8) ───────────────────────────────────────────────────────────────────────────────

/** Largest single file of POST /api/assets (challenge attachments): 100 MB, the Workers request limit. */
export const ASSET_LIMIT = FILE_LIMITS.attachment;

/** A stored name: the base name of the upload, without control characters or slashes, at most 255 characters. */
export function sanitizeFileName(name: string, fallback = "file"): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex -- control characters are what is being removed
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 255);
  return clean && clean !== "." && clean !== ".." ? clean : fallback;
}

/**
 * The name a browser sent as a multipart filename: forms escape `"`, CR and LF as `%22`, `%0D` and `%0A`
 * (HTML spec, multipart/form-data encoding) and escape nothing else, so exactly those are decoded.
 */
export function decodeMultipartFileName(name: string): string {
  return name.replace(/%22|%0D|%0A/g, (escape) => (escape === "%22" ? '"' : escape === "%0D" ? "\r" : "\n"));
}

/**
 * POST /api/assets: stores each upload (any type, 1 B – ASSET_LIMIT) with one reference. `filename`
 * names the file when exactly one is sent. 400 `asset.no_file` without files, `asset.empty_file` for
 * an empty or oversized one (nothing is stored then).
 */
export async function storeAssets(deps: StorageDeps, uploads: unknown[], filename?: string | null): Promise<{ hash: string; name: string }[]> {
  const blobs = uploads.filter((u): u is File => u instanceof Blob);
  if (blobs.length === 0) throw badRequest("asset.no_file");
  if (blobs.some((b) => b.size < 1 || b.size > ASSET_LIMIT)) throw badRequest("asset.empty_file");
  const result: { hash: string; name: string }[] = [];
  for (const blob of blobs) {
    const name = sanitizeFileName(blobs.length === 1 && filename ? filename : decodeMultipartFileName((blob as File).name ?? ""));
    const { bytes, contentType } = await readValidatedUpload(blob, "any", ASSET_LIMIT, "asset.empty_file");
    const stored = await storeBytes(deps, bytes, { name, contentType, rename: true });
    result.push({ hash: stored.hash, name: stored.name });
  }
  return result;
}

/** How many avatars, posters, the logo, attachments and writeups use a file (each holds one reference). */
async function countFileUses(db: Db, hash: string): Promise<number> {
  const row = await db
    .select({
      uses: sql<number>`(select count(*) from ${users} where ${users.avatarHash} = ${hash})
        + (select count(*) from ${teams} where ${teams.avatarHash} = ${hash})
        + (select count(*) from ${games} where ${games.posterHash} = ${hash})
        + (select count(*) from ${attachments} where ${attachments.fileHash} = ${hash})
        + (select count(*) from ${writeups} where ${writeups.fileHash} = ${hash})
        + (select count(*) from ${configEntries} where ${configEntries.key} = 'globalConfig' and json_extract(${configEntries.value}, '$.logoHash') = ${hash})`,
    })
    .from(sql`(select 1)`)
    .get();
  return Number(row?.uses ?? 0);
}

/**
 * DELETE /api/assets/{hash}: drops a reference that only an upload holds (the blob goes with the last
 * one) and says whether the file is gone; 404 when unknown, 400 `asset.in_use` when every reference
 * belongs to an avatar, poster, the logo, an attachment or a writeup (dropping one would leave it
 * pointing at nothing).
 */
export async function deleteAsset(deps: Omit<StorageDeps, "now">, hash: string): Promise<{ gone: boolean }> {
  const file = isFileHash(hash) ? await getFile(deps.db, hash) : null;
  if (!file) throw notFound("asset.not_found");
  // No reference left (a release cut off before its drop): nothing holds it, it goes now.
  if (file.referenceCount <= 0) return { gone: await dropIfUnreferenced(deps, hash) };
  if (file.referenceCount <= (await countFileUses(deps.db, hash))) throw badRequest("asset.in_use");
  return { gone: await releaseFile(deps, hash) };
}

/**
 * Drops files left at zero references: a release takes its reference off in one step and drops the file in
 * the next, and a runtime dying between them leaves such a row (served nowhere, listed nowhere). Run in the
 * background of the admin's file list; at most `limit` a call.
 */
export async function sweepUnreferenced(deps: Omit<StorageDeps, "now">, limit = 100): Promise<number> {
  const rows = await deps.db.select({ hash: files.hash }).from(files).where(lte(files.referenceCount, 0)).limit(limit).all();
  let dropped = 0;
  for (const { hash } of rows) if (await dropIfUnreferenced(deps, hash)) dropped++;
  return dropped;
}

/** GET /api/admin/files: `ArrayResponse<LocalFile>`, newest first (files with a reference: see sweepUnreferenced). */
export async function listFiles(db: Db, { count: take, skip }: { count: number; skip: number }) {
  const held = gt(files.referenceCount, 0);
  const [rows, total] = await Promise.all([
    db
      .select({ hash: files.hash, name: files.name })
      .from(files)
      .where(held)
      .orderBy(desc(files.uploadTime), files.hash)
      .limit(take)
      .offset(skip)
      .all(),
    db.select({ n: count() }).from(files).where(held).get(),
  ]);
  return { data: rows, length: rows.length, total: total?.n ?? 0 };
}
