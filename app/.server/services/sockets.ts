import { eq } from "drizzle-orm";
import type { Role } from "~/core/enums";
import { channelsToClose, staffViewLost } from "~/core/permissions";
import type { Channel } from "~/core/protocol";
import type { Db } from "../db/client";
import { games } from "../db/schema";
import { type RoomEnv, roomOf } from "./room";

export interface SocketEnv extends RoomEnv {
  ADMIN_HUB: Env["ADMIN_HUB"];
}

/** Rooms asked at once (each is a Durable Object call; a platform may hold hundreds of games). */
const ROOMS_AT_ONCE = 16;
const ALL_CHANNELS: readonly Channel[] = ["admin", "monitor", "game"];

const adminHub = (env: SocketEnv) => env.ADMIN_HUB.get(env.ADMIN_HUB.idFromName("admin"));

/**
 * Asks every game's room, a few at a time. A room that is not running is woken for this only (it does not
 * load its game). The `npm start` socket relay hears the room's order on its feed and applies it to the
 * player sockets it holds.
 */
async function eachRoom(env: SocketEnv, db: Db, ask: (room: ReturnType<typeof roomOf>, gameId: number) => Promise<unknown>): Promise<void> {
  const ids = (await db.select({ id: games.id }).from(games).all()).map((row) => row.id);
  for (let i = 0; i < ids.length; i += ROOMS_AT_ONCE) {
    await Promise.all(ids.slice(i, i + ROOMS_AT_ONCE).map((id) => ask(roomOf(env, id), id)));
  }
}

/**
 * Cuts a user off the live sockets their changed account no longer opens (`channelsToClose`): the admin
 * hub's log feed, every game room's monitor feed, and every player feed when banned, deleted or their
 * sessions revoked. A monitor or an admin made a user (`staffViewLost`) also loses the player feeds of hidden
 * games they do not play, and the boards of those they do (core/socket-access).
 */
export async function disconnectUser(env: SocketEnv, db: Db, userId: string, before: Role, after: Role | null, revoked = false): Promise<void> {
  const channels = channelsToClose(before, after, revoked);
  const unstaffed = staffViewLost(before, after, revoked);
  if (channels.length === 0 && !unstaffed) return;
  const work: Promise<unknown>[] = [];
  if (channels.includes("admin")) work.push(adminHub(env).disconnectUser(userId, ["admin"]));
  const roomChannels = channels.filter((channel) => channel !== "admin");
  if (roomChannels.length > 0 || unstaffed) {
    work.push(
      eachRoom(env, db, async (room, gameId) => {
        if (roomChannels.length > 0) await room.disconnectUser(userId, roomChannels);
        if (unstaffed) await room.reauthorize(gameId, { unstaffed: [userId] });
      }),
    );
  }
  await Promise.all(work);
}

/** Closes every live socket of users whose sessions were all revoked (passwords reset in a batch import). */
export async function disconnectUsers(env: SocketEnv, db: Db, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await Promise.all([adminHub(env).disconnectUser(userIds, ["admin"]), eachRoom(env, db, (room) => room.disconnectUser(userIds, ALL_CHANNELS))]);
}

/** Closes every live socket one session opened (signed out): log feed, monitor feeds, player feeds. */
export async function disconnectSession(env: SocketEnv, db: Db, session: string): Promise<void> {
  await Promise.all([adminHub(env).disconnectSession(session), eachRoom(env, db, (room) => room.disconnectSession(session))]);
}

/**
 * An organiser changed an enabled challenge: every page of the game hears `challengeChanged` (only the id),
 * and one showing that challenge reads it again (a new submission limit, deadline, text or attachment).
 * Not a room refresh: nothing the room judges or ranks with changes, and the submission path is untouched.
 * Before the start no page shows a challenge (its reads are refused): nothing is sent, so no open page's
 * feed moves (a page greeted just after a message for all reads its lists again). A push that fails is
 * only logged: the page's next read (120 s, or a reconnect's) brings the change.
 */
export async function announceChallengeChange(deps: { env: RoomEnv; db: Db; now: number }, gameId: number, challengeId: number): Promise<void> {
  const game = await deps.db.select({ start: games.startTime }).from(games).where(eq(games.id, gameId)).get();
  if (!game || deps.now < game.start) return;
  try {
    await roomOf(deps.env, gameId).publish("game", "challengeChanged", { id: challengeId });
  } catch (error) {
    console.error("challenge change push failed", error);
  }
}

/**
 * A team's container of a challenge was started, extended or destroyed (by a member, an admin, its expiry,
 * the challenge's end): the team's open pages hear `containerChanged` and read the challenge again, so a
 * teammate's panel shows the container that runs now, or none.
 */
export async function announceContainerChange(env: RoomEnv, gameId: number, teamId: number, challengeId: number): Promise<void> {
  try {
    await roomOf(env, gameId).publish("game", "containerChanged", { challengeId }, teamId);
  } catch (error) {
    console.error("container change push failed", error);
  }
}
