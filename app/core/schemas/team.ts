import { z } from "zod";
import { hasBidiControl } from "../bidi";
import { typeMessage } from "./messages";
import { queryInt } from "./query";
import { isOneLine, ONE_LINE } from "./text";

/** Team field limits of api.md §3. Messages are i18n keys in the `errors` namespace. */
export const TEAM_NAME_MAX = 20;
export const TEAM_BIO_MAX = 72;
export const ADMIN_TEAM_PAGE_MAX = 500;
export const ADMIN_TEAM_SEARCH_MAX = 30;

export const teamNameSchema = z
  .string("validation.team_name_length")
  .trim()
  .min(1, "validation.team_name_length")
  .max(TEAM_NAME_MAX, "validation.team_name_length")
  .refine(isOneLine, ONE_LINE)
  // A name that turns text around would pass for another team's and reverse the notices it appears in.
  .refine((name) => !hasBidiControl(name), "validation.team_name_direction");

export const teamBioSchema = z.string().trim().max(TEAM_BIO_MAX, "validation.team_bio_length");

export const teamCreateSchema = z.object({
  name: teamNameSchema,
  bio: teamBioSchema.nullish(),
});

/** PUT team/{id}: an omitted or null field is left unchanged. */
export const teamUpdateSchema = z.object({
  name: teamNameSchema.nullish(),
  bio: teamBioSchema.nullish(),
});

export const adminTeamUpdateSchema = teamUpdateSchema.extend({
  locked: z.boolean().nullish(),
});

/** POST team/accept: the body is a JSON string, the invite code. */
export const inviteCodeSchema = z.string("team.invite_malformed").max(256, "team.invite_malformed");

export const transferSchema = z.object({
  newCaptainId: z.string(typeMessage("validation.required")).trim().min(1).max(64),
});

export const teamVerifySchema = z.object({
  teamToken: z.string().trim().min(1).max(256),
  publicKey: z.string().trim().min(1).max(256),
});

export const pageQuerySchema = z.object({
  count: queryInt(z.number().int().min(0).max(ADMIN_TEAM_PAGE_MAX)).default(100),
  skip: queryInt(z.number().int().min(0)).default(0),
});

export const searchQuerySchema = z.object({
  hint: z.string().trim().max(64).default(""),
});

export type TeamCreateInput = z.infer<typeof teamCreateSchema>;
export type TeamUpdateInput = z.infer<typeof teamUpdateSchema>;
export type AdminTeamUpdateInput = z.infer<typeof adminTeamUpdateSchema>;

/** TeamUserInfoModel (api.md §4). */
export interface TeamMemberInfo {
  id: string;
  userName: string;
  bio: string;
  avatar: string | null;
  captain: boolean;
}

/** TeamInfoModel (api.md §4). */
export interface TeamInfo {
  id: number;
  name: string;
  bio: string;
  avatar: string | null;
  locked: boolean;
  members: TeamMemberInfo[];
}

/** GET /api/team: the caller's teams, each saying whether its lock is in force now (rules.md §2). */
export interface MyTeamInfo extends TeamInfo {
  /** Locked and in an accepted (or suspended) game that has not ended: no kick, leave, transfer or disband. */
  lockInForce: boolean;
  /**
   * What keeps the captain from disbanding the team, or null: the lock; a game now running; results in a
   * game (Accepted or Suspended in a game that has started), which only an admin deletes.
   */
  disbandBlockedBy: "locked" | "running" | "results" | null;
}

export interface ArrayResponse<T> {
  data: T[];
  length: number;
  total: number;
}
