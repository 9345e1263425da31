import type { Role } from "~/core/enums";
import { channelsToClose } from "~/core/permissions";
import type { Db } from "../db/client";
import { games } from "../db/schema";
import { type RoomEnv, roomOf } from "./room";

export interface SocketEnv extends RoomEnv {
  ADMIN_HUB: Env["ADMIN_HUB"];
}

/** Rooms asked at once (each is a Durable Object call; a platform may hold hundreds of games). */
const ROOMS_AT_ONCE = 16;

/**
 * Cuts a user off the live sockets their changed account no longer opens (`channelsToClose`): the admin
 * hub's log feed, and every game room's monitor feed (and player feed when banned, deleted or reset).
 * A room that is not running is woken for this only (it does not load its game). The `npm start` relay
 * holds player sockets itself; those follow the session check on their next reconnect.
 */
export async function disconnectUser(env: SocketEnv, db: Db, userId: string, before: Role, after: Role | null, revoked = false): Promise<void> {
  const channels = channelsToClose(before, after, revoked);
  if (channels.length === 0) return;
  const work: Promise<unknown>[] = [];
  if (channels.includes("admin")) work.push(env.ADMIN_HUB.get(env.ADMIN_HUB.idFromName("admin")).disconnectUser(userId, ["admin"]));
  const roomChannels = channels.filter((channel) => channel !== "admin");
  if (roomChannels.length > 0) {
    const ids = (await db.select({ id: games.id }).from(games).all()).map((row) => row.id);
    work.push(
      (async () => {
        for (let i = 0; i < ids.length; i += ROOMS_AT_ONCE) {
          await Promise.all(ids.slice(i, i + ROOMS_AT_ONCE).map((id) => roomOf(env, id).disconnectUser(userId, roomChannels)));
        }
      })(),
    );
  }
  await Promise.all(work);
}
