import { and, eq } from "drizzle-orm";
import type { RefreshWhat } from "../../../workers/game-room/types";
import type { Db } from "../db/client";
import { participationMembers, participations } from "../db/schema";

/**
 * The game's room (GameRoom Durable Object, `game:{id}`) as seen from services and handlers. Every change
 * to what the room caches (game, divisions, participations, challenges, flags, instances) must call
 * `refreshRoom` and await it, so the board and the judge see the change before the call returns.
 */
export interface RoomEnv {
  GAME_ROOM: Env["GAME_ROOM"];
}

export function roomOf(env: RoomEnv, gameId: number) {
  return env.GAME_ROOM.get(env.GAME_ROOM.idFromName(`game:${gameId}`));
}

export async function refreshRoom(env: RoomEnv, gameId: number, what: RefreshWhat = "all"): Promise<void> {
  await roomOf(env, gameId).refresh(gameId, what);
}

export type { RefreshWhat };

/** Refreshes the room of the game a participation belongs to (review, division change). */
export async function refreshRoomOfParticipation(env: RoomEnv, db: Db, participationId: number): Promise<void> {
  const row = await db.select({ gameId: participations.gameId }).from(participations).where(eq(participations.id, participationId)).get();
  if (row) await refreshRoom(env, row.gameId, "participations");
}

/** The games a team has joined: their rooms hold its participation, members and solves. */
export async function gamesOfTeam(db: Db, teamId: number): Promise<number[]> {
  const rows = await db.select({ gameId: participations.gameId }).from(participations).where(eq(participations.teamId, teamId)).all();
  return rows.map((r) => r.gameId);
}

/** Refreshes the rooms of every game a team plays (its name, bio, avatar or members are in them). */
export async function refreshRoomsOfTeam(env: RoomEnv, db: Db, teamId: number): Promise<void> {
  await refreshRooms(env, await gamesOfTeam(db, teamId), "participations");
}

/**
 * A user's name is on the solves and events of every game they play: after a rename those rooms rebuild
 * (renames are rare; the board must not show the old name).
 */
export async function refreshRoomsOfUser(env: RoomEnv, db: Db, userId: string): Promise<void> {
  await refreshRooms(env, await gamesOfUser(db, userId), "solves");
}

/** The games a user plays in (read before deleting the user: the memberships go with them). */
export async function gamesOfUser(db: Db, userId: string): Promise<number[]> {
  const rows = await db.select({ gameId: participationMembers.gameId }).from(participationMembers).where(eq(participationMembers.userId, userId)).all();
  return rows.map((r) => r.gameId);
}

/**
 * After a user (re)enters a team: the games they stayed registered in through it when they left (teams.ts
 * removeMember), whose rooms must learn that they play for the team again.
 */
export async function refreshRoomsOfReturn(env: RoomEnv, db: Db, teamId: number, userId: string): Promise<void> {
  const rows = await db
    .select({ gameId: participationMembers.gameId })
    .from(participationMembers)
    .innerJoin(participations, eq(participations.id, participationMembers.participationId))
    .where(and(eq(participationMembers.userId, userId), eq(participations.teamId, teamId)))
    .all();
  await refreshRooms(env, rows.map((r) => r.gameId), "participations");
}

export async function refreshRooms(env: RoomEnv, gameIds: readonly number[], what: RefreshWhat): Promise<void> {
  await Promise.all(gameIds.map((gameId) => refreshRoom(env, gameId, what)));
}
