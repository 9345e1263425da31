import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { AgentCaptureFile } from "~/core/agent-protocol";
import { notFound } from "~/core/errors";
import { gzipStream } from "~/core/http/encoding";
import { createTarStream, type TarEntry } from "~/core/tar";
import { compareNames } from "~/core/text-fold";
import { type AgentsEnv, type AgentStatus, agentStatuses, agentsConfigured, deleteAgentCapture, downloadAgentCapture, listAgentCaptures, reachableAgent } from "../agents";
import { avatarUrl } from "../auth/session";
import { inChunks } from "../db/chunks";
import type { Db } from "../db/client";
import { challenges, containers, divisions, participations, teams, trafficCaptures } from "../db/schema";
import { requireGame } from "./games";

/**
 * Traffic captures (rules.md §9): agents keep finished pcap files (gzip) until the platform collects them
 * into R2 at `capture/{challengeId}/{participationId}/{file}`, with a traffic_captures row each. Collection
 * runs on an agent's `capture.ready` callback and as a sweep whenever monitors list captures. A file is ours
 * only when its container (a UUID) is one of ours and names the same challenge and team; any other file is
 * left on its agent until it is an hour old, then dropped (its challenge or team deleted since): an agent
 * another platform also uses, or that platform's file between its close and its collection, is never taken.
 */

export interface CaptureDeps {
  db: Db;
  now: number;
  env: AgentsEnv;
  bucket: R2Bucket;
}

export interface FileRecord {
  fileName: string;
  size: number;
  updateTime: number;
}

const R2_PREFIX = "capture/";
/** A sweep of every agent runs at most this often per isolate (a `capture.ready` callback pulls at once). */
const SWEEP_INTERVAL_MS = 5_000;
let lastSweep = 0;
/** A finished capture of no container of ours is dropped from its agent once this old (by its `createdAt`). */
export const UNKNOWN_CAPTURE_DROP_MS = 60 * 60_000;

const KEY_PATTERN = /^(\d{1,15})\/(\d{1,15})\/([0-9a-f]{12}-[0-9a-z]{1,32}\.pcap)$/;
const FILE_PATTERN = /^[0-9a-f]{12}-[0-9a-z]{1,32}\.pcap$/;

/** Uncompressed size of a single-member gzip (its ISIZE trailer). */
function gunzippedSize(gz: Uint8Array): number {
  if (gz.length < 18) return 0;
  const view = new DataView(gz.buffer, gz.byteOffset, gz.byteLength);
  return view.getUint32(gz.length - 4, true);
}

/**
 * Moves one finished capture of a container of ours from its agent into R2 and records it, then deletes the
 * agent's copy. Another file stays on the agent until UNKNOWN_CAPTURE_DROP_MS after its creation.
 */
async function collect(deps: CaptureDeps, agent: AgentStatus, file: AgentCaptureFile): Promise<boolean> {
  const { db, env, bucket, now } = deps;
  const match = KEY_PATTERN.exec(file.key);
  if (!match) return false;
  const challengeId = Number(match[1]);
  const participationId = Number(match[2]);
  const fileName = match[3]!;
  // The container names both: a challenge and team id alone may be another platform's (ids repeat, UUIDs do not).
  const owner = await db
    .select({ id: containers.id })
    .from(containers)
    .where(and(eq(containers.id, file.instanceId.toLowerCase()), eq(containers.challengeId, challengeId), eq(containers.participationId, participationId)))
    .get();
  if (!owner) {
    if (now - file.createdAt < UNKNOWN_CAPTURE_DROP_MS) return false;
    await deleteAgentCapture(env, agent, file.key);
    return false;
  }
  const data = await downloadAgentCapture(env, agent, file.key);
  const r2Key = `${R2_PREFIX}${file.key}`;
  const rawSize = gunzippedSize(data);
  await bucket.put(r2Key, data, {
    httpMetadata: { contentType: "application/vnd.tcpdump.pcap", contentEncoding: "gzip" },
    customMetadata: { rawSize: String(rawSize), packets: String(file.packets), dropped: String(file.dropped) },
  });
  await db
    .insert(trafficCaptures)
    .values({ challengeId, participationId, containerId: owner.id, r2Key, fileName, size: data.byteLength, rawSize, createdAt: file.createdAt })
    .onConflictDoNothing()
    .run();
  await deleteAgentCapture(env, agent, file.key);
  return true;
}

/** Collects every finished capture of every reachable agent (throttled unless `force`). */
export async function sweepCaptures(deps: CaptureDeps, force = false): Promise<number> {
  if (!agentsConfigured(deps.env)) return 0;
  // A clock that went back (a corrected host clock) sweeps at once rather than waiting for the old time.
  if (!force && deps.now >= lastSweep && deps.now - lastSweep < SWEEP_INTERVAL_MS) return 0;
  lastSweep = deps.now;
  let collected = 0;
  for (const agent of await agentStatuses(deps.env, deps.now)) {
    if (!agent.reachable) continue;
    try {
      const { captures } = await listAgentCaptures(deps.env, agent);
      for (const file of captures) if (await collect(deps, agent, file)) collected++;
    } catch (error) {
      // One agent's failure must not hide the others' files; the next sweep retries.
      console.error(`capture sweep of ${agent.url} failed`, error);
    }
  }
  return collected;
}

/** `capture.ready` from an agent: collects that file now. */
export async function captureReady(deps: CaptureDeps, agentId: string, file: AgentCaptureFile): Promise<boolean> {
  const agent = await reachableAgent(deps.env, agentId, deps.now);
  if (!agent) return false;
  return collect(deps, agent, file);
}

// ── Monitor API ──────────────────────────────────────────────────────────────────────────────────────

/** GET game/games/{id}/captures: the game's challenges with capture on and their file counts. */
export async function listCaptureChallenges(deps: CaptureDeps, gameId: number) {
  const { db } = deps;
  await requireGame(db, gameId);
  await sweepCaptures(deps);
  const captured = and(eq(challenges.gameId, gameId), eq(challenges.enableTrafficCapture, true));
  const [rows, counts] = await Promise.all([
    db
      .select({ id: challenges.id, title: challenges.title, category: challenges.category, type: challenges.type, isEnabled: challenges.isEnabled })
      .from(challenges)
      .where(captured)
      .orderBy(asc(challenges.id))
      .all(),
    // Joined rather than listing the challenge ids: D1 binds at most 100 parameters.
    db
      .select({ challengeId: trafficCaptures.challengeId, n: count() })
      .from(trafficCaptures)
      .innerJoin(challenges, eq(challenges.id, trafficCaptures.challengeId))
      .where(captured)
      .groupBy(trafficCaptures.challengeId)
      .all(),
  ]);
  const byId = new Map(counts.map((c) => [c.challengeId, c.n]));
  return rows.map((r) => ({ ...r, count: byId.get(r.id) ?? 0 }));
}

async function requireChallengeId(db: Db, challengeId: number) {
  const row = await db.select({ id: challenges.id, gameId: challenges.gameId }).from(challenges).where(eq(challenges.id, challengeId)).get();
  if (!row) throw notFound("challenge.not_found");
  return row;
}

/** GET game/captures/{cid}: the teams (participations) with files for a challenge. */
export async function listCaptureTeams(deps: CaptureDeps, challengeId: number) {
  const { db } = deps;
  await requireChallengeId(db, challengeId);
  await sweepCaptures(deps);
  const rows = await db
    .select({ id: participations.id, teamId: teams.id, name: teams.name, division: divisions.name, avatarHash: teams.avatarHash, n: count() })
    .from(trafficCaptures)
    .innerJoin(participations, eq(participations.id, trafficCaptures.participationId))
    .innerJoin(teams, eq(teams.id, participations.teamId))
    .leftJoin(divisions, eq(divisions.id, participations.divisionId))
    .where(eq(trafficCaptures.challengeId, challengeId))
    .groupBy(participations.id)
    .all();
  rows.sort((a, b) => compareNames(a.name, b.name) || a.id - b.id);
  return rows.map((r) => ({ id: r.id, teamId: r.teamId, name: r.name, division: r.division ?? null, avatar: avatarUrl(r.avatarHash), count: r.n }));
}

async function requireParticipationOf(db: Db, challengeId: number, participationId: number) {
  const challenge = await requireChallengeId(db, challengeId);
  const row = await db
    .select({ id: participations.id })
    .from(participations)
    .where(and(eq(participations.id, participationId), eq(participations.gameId, challenge.gameId)))
    .get();
  if (!row) throw notFound("capture.not_found");
}

const filesOf = (db: Db, challengeId: number, participationId: number) =>
  db
    .select()
    .from(trafficCaptures)
    .where(and(eq(trafficCaptures.challengeId, challengeId), eq(trafficCaptures.participationId, participationId)))
    .orderBy(asc(trafficCaptures.createdAt), asc(trafficCaptures.id))
    .all();

/**
 * GET game/captures/{cid}/{teamId}: FileRecord[]. `size` is the pcap's, the bytes a download gives once its
 * `Content-Encoding: gzip` is undone (and an entry of the `.tar.gz`); files collected before that was kept
 * (migration 0006) read it from their object's metadata.
 */
export async function listCaptureFiles(deps: CaptureDeps, challengeId: number, participationId: number): Promise<FileRecord[]> {
  await requireParticipationOf(deps.db, challengeId, participationId);
  await sweepCaptures(deps);
  const files = await filesOf(deps.db, challengeId, participationId);
  const sizes = await Promise.all(
    files.map(async (f) => f.rawSize ?? Number((await deps.bucket.head(f.r2Key))?.customMetadata?.rawSize ?? f.size)),
  );
  return files.map((f, i) => ({ fileName: f.fileName, size: sizes[i]!, updateTime: f.createdAt }));
}

/** GET game/captures/{cid}/{teamId}/{file}: the stored gzip bytes (served with Content-Encoding: gzip). */
export async function getCaptureFile(deps: CaptureDeps, challengeId: number, participationId: number, fileName: string): Promise<{ name: string; body: ReadableStream; size: number }> {
  if (!FILE_PATTERN.test(fileName)) throw notFound("capture.not_found");
  const row = await deps.db
    .select()
    .from(trafficCaptures)
    .where(and(eq(trafficCaptures.challengeId, challengeId), eq(trafficCaptures.participationId, participationId), eq(trafficCaptures.fileName, fileName)))
    .get();
  const object = row ? await deps.bucket.get(row.r2Key) : null;
  if (!row || !object) throw notFound("capture.not_found");
  return { name: row.fileName, body: object.body, size: object.size };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** `Capture-{cid}-{teamId}-{yyyyMMdd-HH.mm.ss}Z.tar.gz` (UTC). */
export function captureArchiveName(challengeId: number, participationId: number, now: number): string {
  const d = new Date(now);
  const stamp = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-${pad(d.getUTCHours())}.${pad(d.getUTCMinutes())}.${pad(d.getUTCSeconds())}`;
  return `Capture-${challengeId}-${participationId}-${stamp}Z.tar.gz`;
}

/** GET game/captures/{cid}/{teamId}/all: a .tar.gz of the plain pcaps; 404 when there are none. */
export async function captureArchive(deps: CaptureDeps, challengeId: number, participationId: number): Promise<{ name: string; body: ReadableStream<Uint8Array> }> {
  const { db, bucket, now } = deps;
  await requireParticipationOf(db, challengeId, participationId);
  await sweepCaptures(deps);
  const files = await filesOf(db, challengeId, participationId);
  const heads = await Promise.all(files.map((f) => bucket.head(f.r2Key)));
  const present = files.map((f, i) => ({ f, head: heads[i] })).filter((x) => x.head != null);
  if (present.length === 0) throw notFound("capture.none");
  const entries: TarEntry[] = present.map(({ f, head }) => ({
    name: f.fileName,
    size: Number(head!.customMetadata?.rawSize ?? 0),
    mtime: f.createdAt,
    open: async () => {
      const object = await bucket.get(f.r2Key);
      return object ? (object.body.pipeThrough(new DecompressionStream("gzip")) as ReadableStream<Uint8Array>) : null;
    },
  }));
  return { name: captureArchiveName(challengeId, participationId, now), body: gzipStream(createTarStream(entries)) };
}

async function deleteRows(deps: Pick<CaptureDeps, "db" | "bucket">, rows: { id: number; r2Key: string }[]): Promise<number> {
  await inChunks(rows, async (part) => {
    await deps.bucket.delete(part.map((r) => r.r2Key));
    await deps.db.delete(trafficCaptures).where(inArray(trafficCaptures.id, part.map((r) => r.id))).run();
    return part;
  });
  return rows.length;
}

/** DELETE game/captures/{cid}/{teamId}/all: 404 when there is nothing to delete. */
export async function deleteAllCaptures(deps: CaptureDeps, challengeId: number, participationId: number): Promise<number> {
  await requireParticipationOf(deps.db, challengeId, participationId);
  const rows = await filesOf(deps.db, challengeId, participationId);
  if (rows.length === 0) throw notFound("capture.none");
  return deleteRows(deps, rows);
}

/** DELETE game/captures/{cid}/{teamId}/{file}. */
export async function deleteCaptureFile(deps: CaptureDeps, challengeId: number, participationId: number, fileName: string): Promise<void> {
  const row = FILE_PATTERN.test(fileName)
    ? await deps.db
        .select()
        .from(trafficCaptures)
        .where(and(eq(trafficCaptures.challengeId, challengeId), eq(trafficCaptures.participationId, participationId), eq(trafficCaptures.fileName, fileName)))
        .get()
    : undefined;
  if (!row) throw notFound("capture.not_found");
  await deleteRows(deps, [row]);
}

/** Removes the stored files of some challenges (before the challenges or their game are deleted). */
export async function deleteCapturesOfChallenges(deps: Pick<CaptureDeps, "db" | "bucket">, challengeIds: number[]): Promise<number> {
  const rows = await inChunks(challengeIds, (part) =>
    deps.db.select({ id: trafficCaptures.id, r2Key: trafficCaptures.r2Key }).from(trafficCaptures).where(inArray(trafficCaptures.challengeId, part)).all(),
  );
  return deleteRows(deps, rows);
}

export async function deleteCapturesOfGame(deps: Pick<CaptureDeps, "db" | "bucket">, gameId: number): Promise<number> {
  const ids = (await deps.db.select({ id: challenges.id }).from(challenges).where(eq(challenges.gameId, gameId)).all()).map((r) => r.id);
  return deleteCapturesOfChallenges(deps, ids);
}
