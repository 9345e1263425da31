import type { AnswerResult } from "~/core/enums";
import type { BodyCoding } from "~/core/http/encoding";

/** Typed RPC payloads of the GameRoom (the Worker validates the flag text; the room the rest). */
export interface SubmitRequest {
  gameId: number;
  challengeId: number;
  userId: string;
  userName: string;
  answer: string;
  ip: string;
}

export type RoomRefusal = { ok: false; status: number; code: string; retryAfter?: number };
export type SubmitResult = { ok: true; id: number } | RoomRefusal;

export type StatusResult = { ok: true; status: Exclude<AnswerResult, "CheatDetected"> } | RoomRefusal;

export type BoardRead =
  | { kind: "notFound" }
  | { kind: "notStarted" }
  | { kind: "hidden" }
  | ({ kind: "notModified" } & BoardValidators)
  | ({ kind: "ok"; body: Uint8Array<ArrayBuffer>; coding: BodyCoding } & BoardValidators);

/**
 * `changedAt`: when the room made this board version (its updateTimeUtc; every version gets a fresh
 * one); `at`: the room's clock at the read. Both from the room's clock, so the Worker can tell whether
 * the version is 1 s old (Last-Modified, app/core/http/conditional.ts) without trusting its own clock.
 */
export interface BoardValidators {
  etag: string;
  changedAt: number;
  at: number;
}

/** What changed, for `refresh`: the room reloads it from D1 and updates the board before returning. */
export type RefreshWhat =
  | "game"
  | "participations"
  | "challenges"
  | { challengeId: number }
  /** A team's instance of a challenge got its own flag (first open): only that row is re-read. */
  | { challengeId: number; participationId: number }
  | "all"
  /** Rows the room keeps were deleted (a team and its submissions): rebuild everything from D1. */
  | "solves";

/**
 * `body`: GameDetailModel as JSON (the API's answer); `gameTitle`, `end`, `practiceMode` and `hidden` for
 * pages rendering it (the challenges page closes itself at the end when there is no practice mode, and
 * offers no scoreboard tab for a hidden game).
 */
export type DetailsResult = { ok: true; body: string; gameTitle: string; end: number; practiceMode: boolean; hidden: boolean } | RoomRefusal;
