import { and, asc, desc, eq, sql } from "drizzle-orm";
import { badRequest, notFound } from "~/core/errors";
import type { GameNoticeInfo } from "~/core/schemas/game";
import type { Db } from "../db/client";
import { type GameNotice, gameNotices } from "../db/schema";
import { requireGame } from "./games";

export interface NoticeDeps {
  db: Db;
  now: number;
  /** Pushes a notice to the game's sockets (the game's Durable Object). */
  publish: (gameId: number, notice: GameNoticeInfo) => Promise<unknown>;
  /** Tells the game's sockets that a notice is gone. */
  publishDeleted: (gameId: number, noticeId: number) => Promise<unknown>;
}

export const toNoticeInfo = (n: GameNotice): GameNoticeInfo => ({ id: n.id, type: n.type, values: n.values, time: n.publishTime });

function requireContent(content: string): string {
  const trimmed = content.trim();
  if (!trimmed) throw badRequest("notice.content_empty");
  return trimmed;
}

async function requireNormalNotice(db: Db, gameId: number, noticeId: number): Promise<GameNotice> {
  const notice = await db
    .select()
    .from(gameNotices)
    .where(and(eq(gameNotices.id, noticeId), eq(gameNotices.gameId, gameId)))
    .get();
  if (!notice) throw notFound("notice.not_found");
  if (notice.type !== "Normal") throw badRequest("notice.not_normal");
  return notice;
}

/** GET edit/games/{id}/notices: every notice, newest first. */
export async function listAllNotices(db: Db, gameId: number): Promise<GameNoticeInfo[]> {
  await requireGame(db, gameId);
  const rows = await db
    .select()
    .from(gameNotices)
    .where(eq(gameNotices.gameId, gameId))
    .orderBy(desc(gameNotices.publishTime), desc(gameNotices.id))
    .all();
  return rows.map(toNoticeInfo);
}

/** GET game/{id}/notices: Normal notices first, each group newest first. */
export async function listGameNotices(db: Db, gameId: number, page: { count: number; skip: number }): Promise<GameNoticeInfo[]> {
  const rows = await db
    .select()
    .from(gameNotices)
    .where(eq(gameNotices.gameId, gameId))
    .orderBy(asc(sql`${gameNotices.type} <> 'Normal'`), desc(gameNotices.publishTime), desc(gameNotices.id))
    .limit(page.count)
    .offset(page.skip)
    .all();
  return rows.map(toNoticeInfo);
}

/** POST edit/games/{id}/notices: a Normal notice, pushed to the game's sockets. */
export async function createNotice({ db, now, publish }: NoticeDeps, gameId: number, content: string): Promise<GameNoticeInfo> {
  const text = requireContent(content);
  await requireGame(db, gameId);
  const row = await db.insert(gameNotices).values({ gameId, type: "Normal", values: [text], publishTime: now }).returning().get();
  const notice = toNoticeInfo(row);
  await publish(gameId, notice);
  return notice;
}

/** PUT edit/games/{id}/notices/{nid}: Normal notices only; the edit is pushed again and dated now. */
export async function updateNotice({ db, now, publish }: NoticeDeps, gameId: number, noticeId: number, content: string): Promise<GameNoticeInfo> {
  const text = requireContent(content);
  await requireNormalNotice(db, gameId, noticeId);
  const row = await db
    .update(gameNotices)
    .set({ values: [text], publishTime: now })
    .where(and(eq(gameNotices.id, noticeId), eq(gameNotices.type, "Normal")))
    .returning()
    .get();
  if (!row) throw notFound("notice.not_found");
  const notice = toNoticeInfo(row);
  await publish(gameId, notice);
  return notice;
}

/** DELETE edit/games/{id}/notices/{nid}: Normal notices only; open pages drop it at once. */
export async function deleteNotice({ db, publishDeleted }: Pick<NoticeDeps, "db" | "publishDeleted">, gameId: number, noticeId: number): Promise<void> {
  await requireNormalNotice(db, gameId, noticeId);
  // Of two deletes at once, the one that deleted nothing answers 404 (and announces nothing), as a later one would.
  const gone = await db
    .delete(gameNotices)
    .where(and(eq(gameNotices.id, noticeId), eq(gameNotices.type, "Normal")))
    .returning({ id: gameNotices.id })
    .get();
  if (!gone) throw notFound("notice.not_found");
  await publishDeleted(gameId, noticeId);
}
