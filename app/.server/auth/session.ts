import { and, eq, gt, sql } from "drizzle-orm";
import { createDb, type Db } from "../db/client";
import { sessions, users } from "../db/schema";
import { readCookie } from "~/core/http/cookie";
import type { CurrentUser } from "./current-user";

export const SESSION_COOKIE = "flagstaff_session";
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Slide the expiry at most once an hour, and the last-visit record at most every 5 s (rules.md §14). */
const SLIDE_AFTER_MS = 60 * 60 * 1000;
const LAST_VISIT_EVERY_MS = 5000;

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let hex = "";
  for (const b of digest) hex += HEX[b];
  return hex;
}

/**
 * Session id → its hash, for the ids this isolate has seen lately: every request of a session (a flag
 * storm) would otherwise hash the same id again (2.5 % of the thread in the submission storm's profile).
 * A pure function's memo (a revoked id still hashes to its row, which is gone); cleared whole when full.
 */
const HASH_MEMO_MAX = 20_000;
const hashMemo = new Map<string, string>();

async function sessionIdHash(id: string): Promise<string> {
  const known = hashMemo.get(id);
  if (known !== undefined) return known;
  const hash = await sha256Hex(id);
  if (hashMemo.size >= HASH_MEMO_MAX) hashMemo.clear();
  hashMemo.set(id, hash);
  return hash;
}


function isSecure(request: Request): boolean {
  return new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
}

/** The Set-Cookie value for a new session id (HttpOnly, SameSite=Lax, Secure behind TLS). */
export function sessionCookie(request: Request, id: string): string {
  const secure = isSecure(request) ? "; Secure" : "";
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_MS / 1000}${secure}`;
}

export function clearedSessionCookie(request: Request): string {
  const secure = isSecure(request) ? "; Secure" : "";
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`;
}

/** Starts a session: a fresh random id (no fixation possible), only its hash stored. Returns the cookie id. */
export async function createSession(db: Db, userId: string, now: number): Promise<string> {
  const id = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  await db.insert(sessions).values({ idHash: await sha256Hex(id), userId, createdAt: now, expiresAt: now + SESSION_TTL_MS });
  return id;
}

/**
 * The hash of the request's session id (what D1 stores, never the id itself), or null without a session
 * cookie: live sockets record it, so signing out closes what the session opened.
 */
export async function sessionHashOf(request: Request): Promise<string | null> {
  const id = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
  if (!id || id.length > 128) return null;
  return sessionIdHash(id);
}

/** Ends the request's session. Returns its hash (null without a session cookie). */
export async function revokeSession(db: Db, request: Request): Promise<string | null> {
  const idHash = await sessionHashOf(request);
  if (!idHash) return null;
  sessionCache.delete(idHash);
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
  return idHash;
}

export async function revokeAllSessions(db: Db, userId: string): Promise<void> {
  forgetCachedUser(userId);
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/**
 * In-isolate session cache (DECISIONS.md "session cache"): session id hash → the resolved user, reused for
 * SESSION_CACHE_TTL_MS so a burst of requests of one session (flag submissions) costs one D1 read. A ban,
 * a role change or a password change made elsewhere therefore takes effect within that TTL; in this isolate
 * at once, because every change to a user or its sessions calls `forgetCachedUser` / `revokeAllSessions`.
 * A cached user is only ever used to grant: guards re-read D1 before refusing (`resolveCurrentUser(…, {fresh})`).
 */
export const SESSION_CACHE_TTL_MS = 2000;
/**
 * Past the TTL, a caller that can run work after its response (`waitUntil`) still gets the cached user,
 * up to this age, while the session is re-read in the background — together with every other session
 * that went stale in the same REVALIDATE_EVERY_MS, in one D1 query (DECISIONS.md "Sessions re-validated
 * in batches"). A submission storm from 1,000 teams thus costs four D1 reads a second instead of one per
 * request.
 */
export const SESSION_STALE_MAX_MS = 30_000;
const REVALIDATE_BATCH = 400;
const REVALIDATE_EVERY_MS = 250;
const SESSION_CACHE_MAX = 10_000;
interface CachedSession {
  user: CurrentUser;
  expiresAt: number;
  checkedAt: number;
  /** The client address of the request that last read it (for the last-visit record). */
  ip: string;
}
const sessionCache = new Map<string, CachedSession>();

/** Drops every cached session of a user in this isolate (after any change to the user or its sessions). */
export function forgetCachedUser(userId: string): void {
  for (const [key, entry] of sessionCache) if (entry.user.id === userId) sessionCache.delete(key);
}

const staleSessions = new Set<string>();
let revalidating = false;

/** Queues a cached session for the next background re-read; starts one unless one is running. */
function revalidateLater(db: Db, idHash: string, waitUntil: (promise: Promise<unknown>) => void): void {
  staleSessions.add(idHash);
  if (revalidating) return;
  revalidating = true;
  waitUntil(
    revalidateStale(db)
      .catch((error: unknown) => console.error("session re-validation failed", error))
      .finally(() => {
        revalidating = false;
      }),
  );
}

/** Re-reads the queued sessions in batches; each cached entry is replaced, or dropped when gone or banned. */
async function revalidateStale(db: Db): Promise<void> {
  while (staleSessions.size > 0) {
    // Gather the sessions going stale meanwhile: one read per interval, not one per request.
    await new Promise((resolve) => setTimeout(resolve, REVALIDATE_EVERY_MS));
    const hashes = [...staleSessions].slice(0, REVALIDATE_BATCH);
    for (const h of hashes) staleSessions.delete(h);
    const started = new Map(hashes.map((h) => [h, sessionCache.get(h)]));
    const now = Date.now();
    const rows = await db
      .select({ idHash: sessions.idHash, ...userColumns })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(sql`${sessions.idHash} IN (SELECT value FROM json_each(${JSON.stringify(hashes)}))`, gt(sessions.expiresAt, now)));
    const found = new Map(rows.map((r) => [r.idHash, r]));
    const writes: Promise<unknown>[] = [];
    for (const [idHash, before] of started) {
      // Changed meanwhile (forgotten after a change to the user, or read afresh): leave it as it is.
      if (!before || sessionCache.get(idHash) !== before) continue;
      const row = found.get(idHash);
      if (!row || row.role === "Banned") {
        sessionCache.delete(idHash);
        continue;
      }
      writes.push(...touchSession(db, idHash, row, now, before.ip));
      cacheSession(idHash, { user: userOf(row), expiresAt: row.expiresAt, checkedAt: now, ip: before.ip });
    }
    await Promise.all(writes);
  }
}

const userColumns = {
  id: users.id,
  userName: users.userName,
  email: users.email,
  role: users.role,
  avatarHash: users.avatarHash,
  language: users.language,
  lastVisitedTime: users.lastVisitedTime,
  expiresAt: sessions.expiresAt,
};
type SessionRow = { id: string; userName: string; email: string; role: CurrentUser["role"]; avatarHash: string | null; language: string; lastVisitedTime: number; expiresAt: number };

const userOf = (row: SessionRow): CurrentUser => ({
  id: row.id,
  userName: row.userName,
  email: row.email,
  role: row.role,
  avatar: avatarUrl(row.avatarHash),
  language: row.language,
});

/** The session's sliding expiry and the user's last visit, when due. */
function touchSession(db: Db, idHash: string, row: SessionRow, now: number, ip: string): Promise<unknown>[] {
  const writes: Promise<unknown>[] = [];
  if (row.expiresAt - now < SESSION_TTL_MS - SLIDE_AFTER_MS) {
    writes.push(db.update(sessions).set({ expiresAt: now + SESSION_TTL_MS }).where(eq(sessions.idHash, idHash)).run());
  }
  if (now - row.lastVisitedTime > LAST_VISIT_EVERY_MS) {
    const flush = recordVisit(db, row.id, now, ip, row.lastVisitedTime === 0);
    if (flush) writes.push(flush);
  }
  return writes;
}

function cacheSession(idHash: string, entry: CachedSession): void {
  sessionCache.delete(idHash);
  if (sessionCache.size >= SESSION_CACHE_MAX) {
    // Oldest first (insertion order): drop the first entry, and any already stale ones with it.
    for (const [key, e] of sessionCache) {
      if (sessionCache.size < SESSION_CACHE_MAX && entry.checkedAt - e.checkedAt < SESSION_CACHE_TTL_MS) break;
      sessionCache.delete(key);
    }
  }
  sessionCache.set(idHash, entry);
}

export function clientIp(request: Request): string {
  return request.headers.get("cf-connecting-ip") ?? request.headers.get("x-real-ip") ?? "127.0.0.1";
}

export const avatarUrl = (hash: string | null) => (hash ? `/assets/${hash}/avatar` : null);

/**
 * Last-visit records are written in batches: a user's first visit ever, or the first visit after a quiet
 * second, is written at once (with every visit waiting), later ones wait for the next request after VISIT_FLUSH_MS, so a burst of
 * requests from many users (a submission storm) costs one D1 write a second instead of one per request
 * (BENCHMARKS.md). A visit made within a second of a write is stored with the next request after that
 * second (by anyone, in this isolate); it is lost if the isolate stops first.
 */
const VISIT_FLUSH_MS = 1000;
const pendingVisits = new Map<string, [number, string]>();
let lastVisitFlush = 0;

function recordVisit(db: Db, userId: string, now: number, ip: string, firstVisit: boolean): Promise<unknown> | null {
  pendingVisits.set(userId, [now, ip]);
  if (!firstVisit && now - lastVisitFlush < VISIT_FLUSH_MS && now >= lastVisitFlush) return null;
  lastVisitFlush = now;
  const rows = [...pendingVisits].map(([id, [time, from]]) => [id, time, from]);
  pendingVisits.clear();
  return db.run(
    sql`UPDATE users SET last_visited_time = x.t, last_visited_ip = x.ip
        FROM (SELECT json_extract(j.value, '$[0]') AS id, json_extract(j.value, '$[1]') AS t, json_extract(j.value, '$[2]') AS ip FROM json_each(${JSON.stringify(rows)}) j) x
        WHERE users.id = x.id AND users.last_visited_time < x.t`,
  );
}

/**
 * Resolves the request's user from its session cookie. The user is re-read from D1 at most every
 * SESSION_CACHE_TTL_MS per session in this isolate (`fresh` forces a read); with `waitUntil`, a stale entry
 * (up to SESSION_STALE_MAX_MS) answers while the re-read runs in the background, so a ban or a deletion made
 * in another isolate takes effect within 2.25 s plus one request. Changes made through this isolate drop the
 * entry at once. Banned users have no session. Slides the expiry and records the visit.
 */
export async function resolveCurrentUser(
  db: Db,
  request: Request,
  now = Date.now(),
  opts: { fresh?: boolean; waitUntil?: (promise: Promise<unknown>) => void } = {},
): Promise<CurrentUser | null> {
  const id = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
  if (!id || id.length > 128) return null;
  const idHash = await sessionIdHash(id);
  const cached = sessionCache.get(idHash);
  if (cached && !opts.fresh && now >= cached.checkedAt && cached.expiresAt > now) {
    const age = now - cached.checkedAt;
    if (age < SESSION_CACHE_TTL_MS) return cached.user;
    if (age < SESSION_STALE_MAX_MS && opts.waitUntil) {
      revalidateLater(db, idHash, opts.waitUntil);
      return cached.user;
    }
  }
  const row = await db
    .select(userColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)))
    .get();
  if (!row || row.role === "Banned") {
    sessionCache.delete(idHash);
    return null;
  }
  const ip = clientIp(request);
  await Promise.all(touchSession(db, idHash, row, now, ip));
  const user = userOf(row);
  cacheSession(idHash, { user, expiresAt: row.expiresAt, checkedAt: now, ip });
  return user;
}

/** For loaders: the signed-in user or null (`fresh` skips the session cache, e.g. before refusing). */
export function getCurrentUser(request: Request, env: Env, opts: { fresh?: boolean } = {}): Promise<CurrentUser | null> {
  return resolveCurrentUser(createDb(env.DB), request, Date.now(), opts);
}
