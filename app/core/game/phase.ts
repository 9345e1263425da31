import { AppError, GAME_ENDED, GAME_NOT_STARTED } from "../errors";

/** The time state of a game (rules.md §1); "the window" is start ≤ t < end. */
export type GamePhase = "NotStarted" | "Running" | "Ended";

export interface GameTimes {
  startTime: number;
  endTime: number;
  practiceMode: boolean;
}

export function computeGamePhase(game: Pick<GameTimes, "startTime" | "endTime">, now: number): GamePhase {
  if (now < game.startTime) return "NotStarted";
  if (now < game.endTime) return "Running";
  return "Ended";
}

/** True inside the window (solves score, bloods count). */
export const isInWindow = (game: Pick<GameTimes, "startTime" | "endTime">, t: number) => t >= game.startTime && t < game.endTime;

/**
 * Whether players may use the game (details, challenge detail, submit, containers): running, or ended with
 * practice mode on.
 */
export function canPlay(game: GameTimes, now: number): boolean {
  const phase = computeGamePhase(game, now);
  return phase === "Running" || (phase === "Ended" && game.practiceMode);
}

/**
 * Why the platform no longer keeps a team's container of this game (rules.md §8), or null while it does:
 * after the end without practice mode its team can neither use, extend nor destroy it. The agent is told
 * (POST api/agent/instances leaves it out) and removes it; the admin log gives this reason for the removal.
 */
export function containerUnwantedReason(game: GameTimes, now: number): "gameEnded" | null {
  return computeGamePhase(game, now) === "Ended" && !game.practiceMode ? "gameEnded" : null;
}

/** Whether joining is allowed: any time except after the end with practice mode off. */
export function canJoin(game: GameTimes, now: number): boolean {
  return !(computeGamePhase(game, now) === "Ended" && !game.practiceMode);
}

export const gameNotStarted = () => new AppError(GAME_NOT_STARTED, "game.not_started");
export const gameEnded = () => new AppError(GAME_ENDED, "game.ended");

/** Throws 10001 before the start and 10002 after the end with practice mode off. */
export function assertPlayable(game: GameTimes, now: number): void {
  const phase = computeGamePhase(game, now);
  if (phase === "NotStarted") throw gameNotStarted();
  if (phase === "Ended" && !game.practiceMode) throw gameEnded();
}

/** Throws 10002 when the game has ended and practice mode is off (joining is allowed otherwise). */
export function assertJoinable(game: GameTimes, now: number): void {
  if (!canJoin(game, now)) throw gameEnded();
}
