import { etagMatches } from "~/core/http/conditional";
import type { BodyCoding } from "~/core/http/encoding";
import type { BoardRead } from "./types";

/**
 * The scoreboard bytes a game's room has served, shared with the Worker's scoreboard route when both run in
 * one isolate (`npm start`: one runtime process; on Cloudflare a room usually lives elsewhere, and this map
 * stays empty there). A read found here skips the room's RPC, the larger part of a read's cost.
 *
 * Only a public board of a started game, in a version with no solve waiting for its batch, is copied; the
 * room withdraws its game's copies whenever its board or game changes (a new version, a pending solve, a
 * refresh, a reset) before anything else can read. A copy lives COPY_TTL_MS, less than a room idles before
 * the runtime evicts it (≈ 10 s), so no copy outlives the room that vouches for it; the read after that goes
 * to the room again and copies the bytes anew.
 */
export const COPY_TTL_MS = 2_000;

interface Variant {
  etag: string;
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer> | null;
}

interface GameCopies {
  version: number;
  changedAt: number;
  expiresAt: number;
  /** By page: "all" or "{skip}:{count}". */
  variants: Map<string, Variant>;
}

const copies = new Map<number, GameCopies>();
/** Reads answered from a copy (counted for the module's tests). */
export const boardCopyStats = { hits: 0 };

/** The key of a read's page. */
export const pageKey = (skip: number | undefined, count: number | undefined): string => (count === undefined ? "all" : `${skip ?? 0}:${count}`);

/** The room forgets its game's copies: its board or its game is about to change. */
export function withdrawBoardCopies(gameId: number): void {
  copies.delete(gameId);
}

/**
 * The room keeps a page of the board version it just served. A copy of an older version than the one held is
 * refused (a slow read finishing after a newer one); a newer version replaces the game's copies.
 */
export function keepBoardCopy(gameId: number, version: number, changedAt: number, key: string, variant: Variant, now: number): void {
  let game = copies.get(gameId);
  if (game && game.version > version) return;
  if (!game || game.version < version) {
    game = { version, changedAt, expiresAt: 0, variants: new Map() };
    copies.set(gameId, game);
  }
  game.expiresAt = now + COPY_TTL_MS;
  const held = game.variants.get(key);
  // A page's identity bytes may come before its gzipped ones (or the other way round).
  game.variants.set(key, { etag: variant.etag, body: variant.body, gzip: variant.gzip ?? held?.gzip ?? null });
}

/** A read answered from a copy, as the room would answer it; null when there is none for this read. */
export function readBoardCopy(gameId: number, key: string, opts: { etag: string | null; coding: BodyCoding }, now: number): BoardRead | null {
  const game = copies.get(gameId);
  if (!game) return null;
  if (now >= game.expiresAt) {
    copies.delete(gameId);
    return null;
  }
  const variant = game.variants.get(key);
  if (!variant) return null;
  const validators = { etag: variant.etag, changedAt: game.changedAt, at: now };
  let read: BoardRead | null;
  if (opts.etag && etagMatches(opts.etag, variant.etag)) read = { kind: "notModified", ...validators };
  else if (opts.coding === "gzip") read = variant.gzip ? { kind: "ok", body: variant.gzip, coding: "gzip", ...validators } : null;
  else read = { kind: "ok", body: variant.body, coding: "identity", ...validators };
  if (read) boardCopyStats.hits++;
  return read;
}
