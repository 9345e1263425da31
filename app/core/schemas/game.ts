import { z } from "zod";
import { typeMessage } from "./messages";
import { queryInt } from "./query";
import { isOneLine, ONE_LINE } from "./text";
import { PARTICIPATION_STATUSES, type NoticeType, type ParticipationStatus, type Role } from "../enums";

/** Game field limits of api.md §3. Messages are i18n keys in the `errors` namespace. */
export const GAME_TITLE_MAX = 64;
export const GAME_SUMMARY_MAX = 1024;
export const GAME_CONTENT_MAX = 100_000;
export const GAME_INVITE_CODE_MAX = 32;
export const DIVISION_NAME_MAX = 31;
export const WRITEUP_NOTE_MAX = 10_000;
export const NOTICE_CONTENT_MAX = 10_000;
export const EDIT_GAME_PAGE_MAX = 100;
export const GAME_PAGE_MAX = 50;
export const NOTICE_PAGE_MAX = 100;
export const NOTICE_SKIP_MAX = 300;
const INT_MAX = 2147483647;

/**
 * Whether an ISO date's day exists in its month: `Date.parse` rolls 2024-02-30 over to 1 March instead of
 * refusing it. Strings without a leading `YYYY-MM-DD` are left to `Date.parse`.
 */
function calendarDateExists(value: string): boolean {
  const match = /^\s*(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return true;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The latest time a request may give, 9999-12-31T23:59:59.999Z: the date-time fields of the forms (and
 * ISO 8601 without an expanded year) stop at year 9999, so a later stored time could not be shown or saved.
 */
export const TIME_MAX = 253_402_300_799_999;

/** A time in a request: Unix milliseconds or an ISO 8601 string (api.md §1); always ms after parsing. */
export const timeSchema = z.union([z.number(), z.string()], "validation.invalid_time").transform((value, ctx) => {
  const ms =
    typeof value === "number" ? value : /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : calendarDateExists(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms) || ms < 0) {
    ctx.addIssue({ code: "custom", message: "validation.invalid_time" });
    return z.NEVER;
  }
  if (ms > TIME_MAX) {
    ctx.addIssue({ code: "custom", message: "validation.time_too_late" });
    return z.NEVER;
  }
  return Math.trunc(ms);
});

const count = z.number(typeMessage("validation.invalid_type")).int().min(0).max(INT_MAX);

export const challengeConfigSchema = z.object({
  challengeId: z.number().int().positive(),
  permissions: z.number().int().min(0).max(INT_MAX),
});

/** A game's or a division's invitation code, typed into a one-line field. */
const inviteCode = z.string().trim().max(GAME_INVITE_CODE_MAX, "validation.invite_code_length").refine(isOneLine, ONE_LINE);

export const divisionSchema = z.object({
  id: z.number().int().positive().nullish(),
  name: z
    .string("validation.division_name_length")
    .trim()
    .min(1, "validation.division_name_length")
    .max(DIVISION_NAME_MAX, "validation.division_name_length")
    .refine(isOneLine, ONE_LINE),
  inviteCode: inviteCode.nullish(),
  defaultPermissions: z.number().int().min(0).max(INT_MAX).nullish(),
  challengeConfigs: z.array(challengeConfigSchema).max(1000).nullish(),
});

/** Every editable field of GameInfoModel; read-only fields (id, poster, publicKey, teamHashSalt) are ignored. */
const gameFields = {
  title: z.string(typeMessage("validation.invalid_type")).trim().max(GAME_TITLE_MAX, "validation.game_title_length").refine(isOneLine, ONE_LINE).nullish(),
  summary: z.string().max(GAME_SUMMARY_MAX).refine(isOneLine, ONE_LINE).nullish(),
  content: z.string().max(GAME_CONTENT_MAX).nullish(),
  hidden: z.boolean().nullish(),
  acceptWithoutReview: z.boolean().nullish(),
  writeupRequired: z.boolean().nullish(),
  practiceMode: z.boolean().nullish(),
  inviteCode: inviteCode.nullish(),
  teamMemberCountLimit: count.nullish(),
  containerCountLimit: count.nullish(),
  start: timeSchema.nullish(),
  end: timeSchema.nullish(),
  writeupDeadline: timeSchema.nullish(),
  writeupNote: z.string().max(WRITEUP_NOTE_MAX).nullish(),
  /** Invalid packed values are stored as the default (rules.md §3). */
  bloodBonus: z.number().int().nullish(),
  divisions: z.array(divisionSchema).max(100).nullish(),
};

/** POST edit/games: title, start and end are required (checked by the service for one clear message). */
export const gameCreateSchema = z.object(gameFields);
/** PUT edit/games/{id}: partial; `divisions`, when sent, is the full list. */
export const gameUpdateSchema = z.object(gameFields);

export const editGamesQuerySchema = z.object({
  count: queryInt(z.number().int().min(0).max(EDIT_GAME_PAGE_MAX)).default(100),
  skip: queryInt(z.number().int().min(0)).default(0),
});

export const gamesQuerySchema = z.object({
  count: queryInt(z.number().int().min(0).max(GAME_PAGE_MAX)).default(10),
  skip: queryInt(z.number().int().min(0)).default(0),
});

export const noticesQuerySchema = z.object({
  count: queryInt(z.number().int().min(0).max(NOTICE_PAGE_MAX)).default(NOTICE_PAGE_MAX),
  skip: queryInt(z.number().int().min(0).max(NOTICE_SKIP_MAX)).default(0),
});

export const joinGameSchema = z.object({
  teamId: z.number(typeMessage("validation.team_required")).int().positive("validation.team_required"),
  divisionId: z.number().int().positive().nullish(),
  inviteCode: z.string().max(GAME_INVITE_CODE_MAX * 4).nullish(),
});

export const noticeSchema = z.object({
  content: z.string(typeMessage("notice.content_empty")).max(NOTICE_CONTENT_MAX),
});

/**
 * The status the caller last saw (an added, optional field): when the stored status is another, the review is
 * refused with 409 and nothing changes — a stale page cannot replace another admin's decision made meanwhile.
 */
const expectedStatusSchema = z.enum(PARTICIPATION_STATUSES).nullish();

export const participationReviewSchema = z
  .object({ divisionId: z.number().int().positive().nullish(), expectedStatus: expectedStatusSchema })
  .nullish();

export const participationUpdateSchema = z.object({
  status: z.string().nullish(),
  divisionId: z.number().int().positive().nullish(),
  expectedStatus: expectedStatusSchema,
});

export type GameCreateInput = z.infer<typeof gameCreateSchema>;
export type GameUpdateInput = z.infer<typeof gameUpdateSchema>;
export type DivisionInput = z.infer<typeof divisionSchema>;
export type JoinGameInput = z.infer<typeof joinGameSchema>;

/** DivisionModel (api.md §4). */
export interface DivisionInfo {
  id: number;
  name: string;
  inviteCode: string;
  defaultPermissions: number;
  challengeConfigs: { challengeId: number; permissions: number }[];
}

/** GameInfoModel (edit, api.md §4). */
export interface GameInfo {
  id: number;
  title: string;
  hidden: boolean;
  summary: string;
  content: string;
  acceptWithoutReview: boolean;
  writeupRequired: boolean;
  inviteCode: string;
  teamMemberCountLimit: number;
  containerCountLimit: number;
  poster: string | null;
  publicKey: string;
  teamHashSalt: string;
  practiceMode: boolean;
  start: number;
  end: number;
  writeupDeadline: number;
  writeupNote: string;
  bloodBonus: number;
  divisions: DivisionInfo[];
}

/** BasicGameInfoModel (api.md §4). */
export interface BasicGameInfo {
  id: number;
  title: string;
  summary: string;
  poster: string | null;
  limit: number;
  start: number;
  end: number;
}

/** DetailedGameInfoModel (api.md §4); divisions also say whether they can be chosen when joining. */
export interface DetailedGameInfo {
  id: number;
  title: string;
  summary: string;
  content: string;
  hidden: boolean;
  divisions: { id: number; name: string; inviteCodeRequired: boolean; joinable: boolean }[];
  inviteCodeRequired: boolean;
  /**
   * The caller's teams that already take part (not Rejected), an added property: a member joining one of
   * them joins in its division (none to choose), and gives an invitation code only when it says so.
   */
  teamParticipations: {
    teamId: number;
    division: number | null;
    status: ParticipationStatus;
    inviteCodeRequired: boolean;
    /** Its registered members still in the team (an added property; those the member limit counts): against the game's `limit`, whether one more may join. */
    members: number;
  }[];
  writeupRequired: boolean;
  poster: string | null;
  limit: number;
  teamCount: number;
  division: number | null;
  teamName: string | null;
  /** The team the caller is registered with in this game, any status (an added property); null when none. */
  teamId: number | null;
  /**
   * The team the caller played this game for and has since left (an added property; null otherwise): the
   * registration stays, so the caller joins this game with no other team, but plays in it no more (their
   * `status` is then Unsubmitted, `teamId` and `teamName` null).
   */
  leftTeamName: string | null;
  practiceMode: boolean;
  status: ParticipationStatus;
  start: number;
  end: number;
}

export interface GameNoticeInfo {
  id: number;
  type: NoticeType;
  values: string[];
  time: number;
}

/** ProfileUserInfoModel as listed in the admin participation view. */
export interface ParticipationMemberInfo {
  userId: string;
  userName: string;
  email: string;
  bio: string;
  phone: string;
  realName: string;
  stdNumber: string;
  avatar: string | null;
  role: Role;
}

/** One row of GET game/{id}/participations (Admin). */
export interface ParticipationInfo {
  id: number;
  team: {
    id: number;
    locked: boolean;
    captainId: string;
    name: string;
    bio: string;
    avatar: string | null;
    members: ParticipationMemberInfo[];
  };
  registeredMembers: string[];
  /**
   * Registered members who have left the team since (an added property): they stay registered in this game
   * through it and in its crew, but no longer play for it; not in `team.members`.
   */
  formerMembers: ParticipationMemberInfo[];
  divisionId: number | null;
  status: ParticipationStatus;
}

/** Review statuses an admin may set (api.md §7). */
export const REVIEW_STATUSES = ["Pending", "Accepted", "Rejected", "Suspended"] as const satisfies readonly ParticipationStatus[];
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** A status name matched case-insensitively, else null. */
export function parseReviewStatus(value: string): ReviewStatus | null {
  const lower = value.trim().toLowerCase();
  return REVIEW_STATUSES.find((s) => s.toLowerCase() === lower) ?? null;
}
