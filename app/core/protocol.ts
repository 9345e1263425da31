/**
 * The real-time message protocol (rules.md §11), shared by the Durable Objects and the browser.
 * Servers push `{type, seq, data}` text frames; clients send only "ping".
 */
import type { AnswerResult, EventType, LogLevel, NoticeType, TaskStatus } from "./enums";
import type { BoardDelta } from "./game-room/delta";
import type { GameAccessChange } from "./socket-access";

export interface GameNotice {
  id: number;
  type: NoticeType;
  values: string[];
  time: number;
}

export interface GameEvent {
  type: EventType;
  values: string[];
  time: number;
  user: string | null;
  team: string | null;
  /** The team's id (added to api.md's GameEvent: the monitor's team filter matches on it). */
  teamId: number | null;
}

export interface SubmissionRecord {
  id: number;
  answer: string;
  status: AnswerResult;
  time: number;
  user: string;
  team: string;
  challenge: string;
  /** The challenge's and the team's ids (added to api.md's Submission: the monitor's filters match on them). */
  challengeId: number;
  teamId: number | null;
  /** The address it came from (spec §3; added to api.md's Submission: monitors compare teams' addresses). */
  ip: string;
}

export interface Verdict {
  submissionId: number;
  challengeId: number;
  /** CheatDetected is sent as WrongAnswer. */
  status: Exclude<AnswerResult, "CheatDetected">;
}

/** api.md LogMessageModel; `msg` is the English text. */
export interface LogMessage {
  time: number;
  name: string | null;
  level: Exclude<LogLevel, "All">;
  ip: string | null;
  msg: string;
  status: TaskStatus | null;
  /**
   * Added properties: the message's key and parameters (app/core/log-messages.ts), from which the page
   * writes the text in the reader's language. Absent on records written before them.
   */
  key?: string;
  params?: Record<string, unknown>;
}

/** A scoreboard change since the previous version (the changed challenges and items only); see game-room/delta. */
export type ScoreboardDelta = BoardDelta;

/** Which stream a socket subscribed to. */
export type Channel = "game" | "monitor" | "admin";

export type ServerMessage =
  /**
   * `lastAt`: when the channel's last message for all was sent (server clock, ms; absent from older
   * servers). A page whose data was read after it missed nothing; one that read before may have missed it
   * and refetches (app/lib/realtime.ts).
   */
  | { type: "hello"; seq: number; data: { channel: Channel; lastAt?: number } }
  | { type: "pong"; seq: number; data: null }
  | { type: "notice"; seq: number; data: GameNotice }
  /** A Normal notice was deleted: clients drop it from their list. */
  | { type: "noticeDeleted"; seq: number; data: { id: number } }
  | { type: "scoreboard"; seq: number; data: ScoreboardDelta }
  | { type: "verdict"; seq: number; data: Verdict }
  | { type: "event"; seq: number; data: GameEvent }
  | { type: "submission"; seq: number; data: SubmissionRecord }
  | { type: "log"; seq: number; data: LogMessage }
  /**
   * An organiser changed an enabled challenge (its text, hints, limit, deadline, attachment, container
   * settings): a page showing it reads it again. To the whole game channel; only the id travels.
   */
  | { type: "challengeChanged"; seq: number; data: { id: number } }
  /** The team's container of a challenge was started, extended or destroyed: to that team's sockets only. */
  | { type: "containerChanged"; seq: number; data: { challengeId: number } };

export type ServerMessageType = ServerMessage["type"];

/**
 * The challenge a pushed message says may have changed for the team's player (an organiser's edit, the
 * team's container), or null: a page showing that challenge reads it again.
 */
export function changedChallengeOf(message: ServerMessage): number | null {
  if (message.type === "challengeChanged") return message.data.id;
  if (message.type === "containerChanged") return message.data.challengeId;
  return null;
}
export type PayloadOf<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>["data"];

/** Headers the Worker sets when it hands an authenticated socket to a Durable Object. */
export const HUB_HEADERS = {
  userId: "x-flagstaff-user",
  channel: "x-flagstaff-channel",
  teamId: "x-flagstaff-team",
  boardReader: "x-flagstaff-board-reader",
  /** The hash of the session that opened the socket (as D1 keys it): signing out closes what it opened. */
  session: "x-flagstaff-session",
  /** "1": opened by a monitor or an admin (who see hidden games by their role). */
  staff: "x-flagstaff-staff",
  /** "1": the socket is the `npm start` socket relay's feed of the channel (see RELAY_TOKEN_HEADER). */
  relay: "x-flagstaff-relay",
} as const;

/**
 * `npm start` only (scripts/lib/socket-relay.mjs): the launcher holds the players' game sockets and
 * proves itself to the Worker with this header, carrying the per-process FLAGSTAFF_RELAY_TOKEN.
 */
export const RELAY_TOKEN_HEADER = "x-flagstaff-relay-token";

/** Who a relayed message is for: every socket of the channel, one team's, or the board's readers only. */
export interface RelayRoute {
  seq: number;
  teamId: number | null;
  boardReadersOnly: boolean;
}

/**
 * A message on a relay feed: one header line `seq team readers` (team `-` for everyone, readers `1` for
 * board readers only), a newline, then the frame exactly as a socket receives it. The relay reads the
 * header and sends the rest untouched, so a message costs the room one send whatever the audience.
 */
export function relayFrame(route: RelayRoute, frame: string): string {
  return `${route.seq} ${route.teamId ?? "-"} ${route.boardReadersOnly ? 1 : 0}\n${frame}`;
}

/**
 * Several relay messages in one feed send, in order, joined by newlines: a frame is one line, since
 * JSON.stringify never writes a raw newline. The room sends a flush's messages (its verdicts) at once,
 * one send instead of one per verdict.
 */
export function relayFrames(messages: string[]): string {
  return messages.join("\n");
}

/**
 * A relay feed's order to close one user's sockets (their access changed: role, ban, deletion): a header
 * `x <close code>`, then the user's id as a JSON string. The relay knows each socket's owner from the
 * Worker's identity answer.
 */
export function relayCloseUser(userId: string, code: number): string {
  return `x ${code}\n${JSON.stringify(userId)}`;
}

/** A relay feed's order to close the sockets one session opened (signed out): `s <close code>`, the session as a JSON string. */
export function relayCloseSession(session: string, code: number): string {
  return `s ${code}\n${JSON.stringify(session)}`;
}

/**
 * A relay feed's order to close all its sockets with a code of the room's (the game was deleted: 4404, so
 * the pages stop instead of reconnecting as after a lost feed's 1012): `g <close code>`, the reason as a
 * JSON string. The room sends it before it closes the feed itself.
 */
export function relayCloseAll(code: number, reason: string): string {
  return `g ${code}\n${JSON.stringify(reason)}`;
}

/**
 * A relay feed's order to check its sockets again (core/socket-access: a team's participation, the game's
 * visibility or a user's role changed): a header `a`, then the change as JSON.
 */
export function relayReauthorize(change: GameAccessChange): string {
  return `a\n${JSON.stringify(change)}`;
}

/** One item of a relay feed send: a routed frame, or an order to close or re-check sockets. */
export type RelayItem =
  | { route: RelayRoute; frame: string }
  | { closeUser: string; code: number }
  | { closeSession: string; code: number }
  | { closeAll: string; code: number }
  | { reauthorize: GameAccessChange };

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isAccessChange(value: unknown): value is GameAccessChange {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  if (typeof v.hidden !== "boolean") return false;
  if (v.complete !== undefined && typeof v.complete !== "boolean") return false;
  if (v.unstaffed !== undefined && !(Array.isArray(v.unstaffed) && v.unstaffed.every((u) => typeof u === "string"))) return false;
  if (v.teams === undefined) return true;
  if (typeof v.teams !== "object" || v.teams === null || Array.isArray(v.teams)) return false;
  return Object.values(v.teams).every((t) => t === null || Number.isInteger(t));
}

/** The items of a relay feed send (one or several), or null when it is not one. */
export function parseRelayFrames(text: string): RelayItem[] | null {
  const lines = text.split("\n");
  if (lines.length % 2 !== 0) return null;
  const out: RelayItem[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const all = /^g (\d{4})$/.exec(lines[i]!);
    if (all) {
      const reason = parseJson(lines[i + 1]!);
      if (typeof reason !== "string") return null;
      out.push({ closeAll: reason, code: Number(all[1]) });
      continue;
    }
    const close = /^([xs]) (\d{4})$/.exec(lines[i]!);
    if (close) {
      const owner = parseJson(lines[i + 1]!);
      if (typeof owner !== "string" || owner === "") return null;
      out.push(close[1] === "x" ? { closeUser: owner, code: Number(close[2]) } : { closeSession: owner, code: Number(close[2]) });
      continue;
    }
    if (lines[i] === "a") {
      const change = parseJson(lines[i + 1]!);
      if (!isAccessChange(change)) return null;
      out.push({ reauthorize: change });
      continue;
    }
    const [seq, team, readers, extra] = lines[i]!.split(" ");
    if (extra !== undefined || !/^\d+$/.test(seq ?? "") || !/^(-|\d+)$/.test(team ?? "") || (readers !== "0" && readers !== "1")) return null;
    out.push({ route: { seq: Number(seq), teamId: team === "-" ? null : Number(team), boardReadersOnly: readers === "1" }, frame: lines[i + 1]! });
  }
  return out;
}

/**
 * Close codes that end a feed: the holder may no longer have the socket (signed out, banned, role or team
 * changed, game hidden: the page asks once again as whoever its cookies now name, and stops if refused —
 * app/lib/realtime.ts), or the game was deleted (the page does not reconnect).
 */
export const CLOSE_ACCESS_ENDED = 4403;
export const CLOSE_GAME_DELETED = 4404;
export const FINAL_CLOSE_CODES: ReadonlySet<number> = new Set([CLOSE_ACCESS_ENDED, CLOSE_GAME_DELETED]);

/** Close codes 1005/1006 are reserved and cannot be sent (stack-notes): map them to 1000. */
export function safeCloseCode(code: number): number {
  return code === 1005 || code === 1006 || code < 1000 || code > 4999 ? 1000 : code;
}
