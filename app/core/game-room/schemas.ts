import { z } from "zod";
import { ANSWER_RESULTS } from "../enums";
import { queryBoolean, queryEnum, queryInt } from "../schemas/query";
import { codePointLength } from "../text-length";

/** Request schemas of the game room calls (api.md §10). */

export const FLAG_MAX_LENGTH = 127;
export const MONITOR_PAGE_MAX = 100;

/** POST game/{id}/challenges/{cid}: the flag text is checked by `checkFlagText` for the rules' own messages. */
export const submitSchema = z.object({ flag: z.unknown().optional() }).optional();

/**
 * The flag's own checks (rules.md §7 step 1) on the text matched, i.e. without surrounding whitespace
 * (the answer stored is that text too): a code, or null when fine. Its length is in characters, as the admin's
 * flag schema counts it, so every flag an admin can add can be submitted.
 */
export function checkFlagText(flag: unknown): string | null {
  if (flag !== undefined && flag !== null && typeof flag !== "string") return "submission.flag_type";
  if (typeof flag !== "string" || flag.trim() === "") return "submission.flag_empty";
  if (codePointLength(flag.trim()) > FLAG_MAX_LENGTH) return "submission.flag_too_long";
  return null;
}

export const eventsQuerySchema = z.object({
  hideContainer: queryBoolean,
  /** Only this team's events: the monitor's team filter. */
  teamId: queryInt(z.number().int().positive()).optional(),
  count: queryInt(z.number().int().min(0).max(MONITOR_PAGE_MAX)).default(MONITOR_PAGE_MAX),
  skip: queryInt(z.number().int().min(0)).default(0),
});

export const submissionsQuerySchema = z.object({
  type: queryEnum(ANSWER_RESULTS).optional(),
  /** Only this challenge's or this team's submissions: the monitor's filters. */
  challengeId: queryInt(z.number().int().positive()).optional(),
  teamId: queryInt(z.number().int().positive()).optional(),
  count: queryInt(z.number().int().min(0).max(MONITOR_PAGE_MAX)).default(MONITOR_PAGE_MAX),
  skip: queryInt(z.number().int().min(0)).default(0),
});

/** GET game/{id}/scoreboard: optional paging of the items (the rest of the board is always whole). */
export const scoreboardQuerySchema = z.object({
  count: queryInt(z.number().int().min(1).max(1000)).optional(),
  skip: queryInt(z.number().int().min(0)).default(0),
});
