import type { GameInfo } from "~/core/schemas/game";
import { api } from "./api";

/** The request of each router navigation (its signal) → the game read for it. */
const readsOfNavigation = new WeakMap<AbortSignal, { id: number; game: Promise<GameInfo> }>();

/**
 * GET /api/edit/games/{id} for a browser loader, read once per navigation or revalidation: the admin game
 * layout and its page run their loaders together (with one request, hence one signal) and both need the
 * game. A later navigation or revalidation has another signal, so reads again.
 */
export function loadEditGame(request: Request, id: number): Promise<GameInfo> {
  const signal = request.signal;
  const read = readsOfNavigation.get(signal);
  if (read?.id === id) return read.game;
  const game = api<GameInfo>(`/api/edit/games/${id}`, { signal });
  readsOfNavigation.set(signal, { id, game });
  return game;
}
