/**
 * Who may hold a game's player socket (rules.md §11), and what becomes of an open one when that changes.
 * Pure and free of value imports: the `npm start` socket relay (scripts/lib/socket-relay.mjs) loads this
 * file under Node and applies the same rule to the sockets it holds.
 */

/** What a viewer may see of one game: the same rule for REST (services/game-access) and sockets. */
export interface GameView {
  /** Notices and the socket itself (hidden games: monitors, admins and the game's players). */
  canView: boolean;
  /** The scoreboard (hidden games: monitors and admins only). */
  canReadBoard: boolean;
}

/** `staff`: a monitor or an admin; `teamId`: the viewer's team in the game when its participation is Accepted. */
export function gameView(hidden: boolean, viewer: { staff: boolean; teamId: number | null }): GameView {
  return { canView: !hidden || viewer.staff || viewer.teamId !== null, canReadBoard: !hidden || viewer.staff };
}

/** What an open player socket was granted (at the upgrade, narrowed since). */
export interface GameSocketHolder {
  userId: string | null;
  staff: boolean;
  teamId: number | null;
  boardReader: boolean;
}

/**
 * A change to who may hold the game's player sockets, sent by the game's room to its own sockets and to
 * the relay's. `teams`: the Accepted team of these users now (null: none); with `complete`, the list is
 * every user's (a user absent has none). `unstaffed`: users no longer monitors or admins.
 */
export interface GameAccessChange {
  hidden: boolean;
  teams?: Record<string, number | null>;
  complete?: boolean;
  unstaffed?: string[];
}

/**
 * An open socket after a change: null when its holder may no longer see the game (the socket closes, 4403),
 * else what it may still receive — the same object when nothing changed. Access only narrows here: a
 * socket's team is the runtime's tag of it, fixed when it opened, so a socket never gains a team (or the
 * board) in place; the page's next socket does.
 */
export function reauthorizeGameSocket<T extends GameSocketHolder>(holder: T, change: GameAccessChange): T | null {
  const { userId } = holder;
  const staff = holder.staff && !(userId !== null && change.unstaffed?.includes(userId) === true);
  let teamId = holder.teamId;
  if (teamId !== null && userId !== null) {
    const { teams } = change;
    const now = teams !== undefined && Object.hasOwn(teams, userId) ? (teams[userId] ?? null) : change.complete ? null : teamId;
    if (now !== teamId) teamId = null;
  }
  const view = gameView(change.hidden, { staff, teamId });
  if (!view.canView) return null;
  const boardReader = holder.boardReader && view.canReadBoard;
  if (staff === holder.staff && teamId === holder.teamId && boardReader === holder.boardReader) return holder;
  return { ...holder, staff, teamId, boardReader };
}

/**
 * The users whose Accepted team is no longer the one they had (user id → team now, or null), between two
 * reads of a game's accepted members: what the relay needs to hear after a participation change.
 */
export function lostTeams(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): Record<string, number | null> {
  const changed: Record<string, number | null> = {};
  for (const [userId, teamId] of before) {
    const now = after.get(userId) ?? null;
    if (now !== teamId) changed[userId] = now;
  }
  return changed;
}
