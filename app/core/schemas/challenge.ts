import { z } from "zod";
import { typeMessage } from "./messages";
import { CHALLENGE_CATEGORIES, CHALLENGE_TYPES, type ChallengeCategory, type ChallengeType, FILE_TYPES, type FileType, NETWORK_MODES, type NetworkMode } from "../enums";
import { FLAG_MAX } from "../flags/template";
import { timeSchema } from "./game";
import { isOneLine, ITEM_ONE_LINE, ONE_LINE } from "./text";

/** Challenge field limits of api.md §3. Messages are i18n keys in the `errors` namespace. */
export const CHALLENGE_TITLE_MAX = 64;
export const CHALLENGE_CONTENT_MAX = 100_000;
export const HINT_MAX = 1000;
export const HINTS_MAX = 50;
export const CONTAINER_IMAGE_MAX = 255;
export const FILE_NAME_MAX = 255;
export const REMOTE_URL_MAX = 2048;
export const FLAGS_PER_REQUEST_MAX = 1000;
export const SUBMISSION_LIMIT_MAX = 10_000;
const INT_MAX = 2147483647;

const int = (min: number, max: number) => z.number(typeMessage("validation.invalid_type")).int().min(min).max(max);

const title = z
  .string("validation.challenge_title_length")
  .trim()
  .min(1, "validation.challenge_title_length")
  .max(CHALLENGE_TITLE_MAX, "validation.challenge_title_length")
  .refine(isOneLine, ONE_LINE);

export const challengeCreateSchema = z.object({
  title,
  category: z.enum(CHALLENGE_CATEGORIES, "validation.challenge_category"),
  type: z.enum(CHALLENGE_TYPES, "validation.challenge_type"),
});
export type ChallengeCreateInput = z.infer<typeof challengeCreateSchema>;

/**
 * ChallengeUpdateModel: every field optional. `type` is fixed at creation: the stored type may be sent back
 * (a tool saves what it read), another one is refused (`updateChallenge`).
 */
export const challengeUpdateSchema = z.object({
  type: z.enum(CHALLENGE_TYPES, "validation.challenge_type").nullish(),
  title: title.nullish(),
  content: z.string(typeMessage("validation.invalid_type")).max(CHALLENGE_CONTENT_MAX).nullish(),
  category: z.enum(CHALLENGE_CATEGORIES, "validation.challenge_category").nullish(),
  // Each hint has a one-line input in the challenge editor.
  hints: z
    .array(z.string(typeMessage("validation.invalid_type")).max(HINT_MAX).refine(isOneLine, ITEM_ONE_LINE), typeMessage("validation.invalid_type"))
    .max(HINTS_MAX)
    .nullish(),
  flagTemplate: z.string(typeMessage("validation.invalid_type")).refine(isOneLine, ONE_LINE).nullish(),
  isEnabled: z.boolean(typeMessage("validation.invalid_type")).nullish(),
  containerImage: z
    .string(typeMessage("validation.invalid_type"))
    .trim()
    .max(CONTAINER_IMAGE_MAX)
    .refine((image) => image === "" || isImageReference(image), "challenge.image_format")
    .nullish(),
  memoryLimit: int(32, 1_048_576).nullish(),
  cpuCount: int(1, 1024).nullish(),
  storageLimit: int(1, 1_048_576).nullish(),
  exposePort: int(1, 65535).nullish(),
  networkMode: z.enum(NETWORK_MODES, "validation.invalid_value").nullish(),
  enableTrafficCapture: z.boolean(typeMessage("validation.invalid_type")).nullish(),
  disableBloodBonus: z.boolean(typeMessage("validation.invalid_type")).nullish(),
  /** 0 clears the deadline. */
  deadlineUtc: timeSchema.nullish(),
  submissionLimit: int(0, SUBMISSION_LIMIT_MAX).nullish(),
  originalScore: int(0, INT_MAX).nullish(),
  minScoreRate: z.number(typeMessage("validation.invalid_type")).min(0).max(1).nullish(),
  difficulty: z.number(typeMessage("validation.invalid_type")).gt(0, "validation.difficulty_positive").max(1_000_000).nullish(),
  fileName: z
    .string("validation.invalid_type")
    .trim()
    .min(1, "validation.file_name_length")
    .max(FILE_NAME_MAX, "validation.file_name_length")
    .refine(isOneLine, ONE_LINE)
    .nullish(),
});
export type ChallengeUpdateInput = z.infer<typeof challengeUpdateSchema>;

/**
 * A Docker image reference: `[registry[:port]/]name[/name…][:tag][@digest]`, names in lower case
 * (the grammar of the distribution reference, without IPv6 registries).
 */
const IMAGE_REFERENCE =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]+)?\/)?[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$/;
export const isImageReference = (value: string) => IMAGE_REFERENCE.test(value);

const fileHash = z.string(typeMessage("validation.invalid_type")).trim().toLowerCase().regex(/^[0-9a-f]{64}$/, "challenge.file_unknown");
const remoteUrl = z
  .string("validation.invalid_type")
  .trim()
  .max(REMOTE_URL_MAX, "challenge.bad_url")
  .refine((s) => isHttpUrl(s), "challenge.bad_url");

export function isHttpUrl(value: string): boolean {
  // `new URL` would quietly encode a space; a link with white space in it was mistyped.
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

export const attachmentSchema = z.object({
  attachmentType: z.enum(FILE_TYPES, "validation.invalid_value"),
  fileHash: fileHash.nullish(),
  remoteUrl: remoteUrl.nullish(),
});
export type AttachmentInput = z.infer<typeof attachmentSchema>;

export const flagCreateSchema = z.object({
  // A player submits a flag through a one-line input: one with a line break could never be typed.
  flag: z.string("challenge.flag_length").trim().min(1, "challenge.flag_length").max(FLAG_MAX, "challenge.flag_length").refine(isOneLine, ONE_LINE),
  attachmentType: z.enum(FILE_TYPES, "validation.invalid_value").nullish(),
  fileHash: fileHash.nullish(),
  remoteUrl: remoteUrl.nullish(),
});
export const flagsCreateSchema = z.array(flagCreateSchema, typeMessage("validation.invalid_type")).min(1, "challenge.flags_empty").max(FLAGS_PER_REQUEST_MAX, "challenge.flags_too_many");
export type FlagCreateInput = z.infer<typeof flagCreateSchema>;

/** The parts of a template problem message: rules.md §6 validity, one i18n key per problem. */
export const TEMPLATE_PROBLEM_CODES = {
  blank: "challenge.template_blank",
  too_long: "challenge.template_too_long",
  too_trivial: "challenge.template_too_trivial",
  flag_too_long: "challenge.template_flag_too_long",
} as const;

// ── Response models (api.md §4) ───────────────────────────────────────────────────────────────────────

export interface AttachmentInfo {
  id: number;
  type: FileType;
  /** `/assets/{hash}/{name}` for Local, the link for Remote, null for None. */
  url: string | null;
  fileSize: number | null;
}

export interface FlagInfo {
  id: number;
  flag: string;
  attachment: AttachmentInfo | null;
  /** DynamicAttachment: the team the pair was handed to, null while unused (always null for other types). */
  team: string | null;
}

/** ChallengeInfoModel (edit list). */
export interface ChallengeEditInfo {
  id: number;
  title: string;
  category: ChallengeCategory;
  type: ChallengeType;
  isEnabled: boolean;
  score: number;
  minScore: number;
  originalScore: number;
  deadlineUtc: number | null;
  /** Teams that solved it (its stored solve count, as in ChallengeEditDetailModel). */
  acceptedCount: number;
}

/** ChallengeEditDetailModel. */
export interface ChallengeEditDetail {
  id: number;
  title: string;
  content: string;
  category: ChallengeCategory;
  type: ChallengeType;
  hints: string[];
  flagTemplate: string | null;
  isEnabled: boolean;
  acceptedCount: number;
  fileName: string;
  attachment: AttachmentInfo | null;
  /** The admin test container (issue of containers); null while none runs. */
  /** The admin test container; `testFlag` is the flag it was given (DynamicContainer), else null. */
  testContainer: null | { status: string; startedAt: number; expectStopAt: number; entry: string; testFlag: string | null };
  flags: FlagInfo[];
  containerImage: string | null;
  memoryLimit: number;
  cpuCount: number;
  storageLimit: number;
  exposePort: number;
  networkMode: NetworkMode;
  enableTrafficCapture: boolean;
  disableBloodBonus: boolean;
  deadlineUtc: number | null;
  submissionLimit: number;
  originalScore: number;
  minScoreRate: number;
  difficulty: number;
}

/** ChallengeDetailModel (player). */
export interface ChallengeDetail {
  id: number;
  title: string;
  content: string;
  category: ChallengeCategory;
  hints: string[];
  score: number;
  type: ChallengeType;
  context: { closeTime: number | null; instanceEntry: string | null; url: string | null; fileSize: number | null };
  /** Submission limit; 0 = unlimited. */
  limit: number;
  /** The team's submissions for this challenge so far. */
  attempts: number;
  deadline: number | null;
}

/** A board entry of the player's challenge list (ChallengeInfo of api.md §4). */
export interface PlayerChallengeInfo {
  id: number;
  title: string;
  category: ChallengeCategory;
  score: number;
  solved: number;
  deadline: number | null;
  /** Whether the caller's team has solved it. */
  solvedByMe: boolean;
  /**
   * The team's solve earned no points (after the end or the deadline, or by a division that scores nothing):
   * the scoreboard's 0-point solve, marked "not scored" on the card too.
   */
  solvedUnscored: boolean;
}
