/** Enumerations of the API contract (shared/reference/api.md §2). On the wire only names are used. */

export const ROLES = ["Banned", "User", "Monitor", "Admin"] as const;
export type Role = (typeof ROLES)[number];
/** Numeric rank of a role: a check passes when rank(role) >= rank(required). */
export const roleRank = (role: Role): number => ROLES.indexOf(role);

export const REGISTER_STATUSES = ["LoggedIn", "AdminConfirmationRequired", "EmailConfirmationRequired"] as const;
export type RegisterStatus = (typeof REGISTER_STATUSES)[number];

export const PARTICIPATION_STATUSES = ["Pending", "Accepted", "Rejected", "Suspended", "Unsubmitted"] as const;
export type ParticipationStatus = (typeof PARTICIPATION_STATUSES)[number];

export const CHALLENGE_CATEGORIES = [
  "Misc", "Crypto", "Pwn", "Web", "Reverse", "Blockchain", "Forensics",
  "Hardware", "Mobile", "PPC", "AI", "Pentest", "OSINT",
] as const;
export type ChallengeCategory = (typeof CHALLENGE_CATEGORIES)[number];

export const CHALLENGE_TYPES = ["StaticAttachment", "StaticContainer", "DynamicAttachment", "DynamicContainer"] as const;
export type ChallengeType = (typeof CHALLENGE_TYPES)[number];
export const isContainerType = (t: ChallengeType) => t === "StaticContainer" || t === "DynamicContainer";
export const isDynamicType = (t: ChallengeType) => t === "DynamicAttachment" || t === "DynamicContainer";

export const NOTICE_TYPES = ["Normal", "FirstBlood", "SecondBlood", "ThirdBlood", "NewHint", "NewChallenge"] as const;
export type NoticeType = (typeof NOTICE_TYPES)[number];

export const EVENT_TYPES = ["Normal", "ContainerStart", "ContainerDestroy", "FlagSubmit", "CheatDetected"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const ANSWER_RESULTS = ["FlagSubmitted", "Accepted", "WrongAnswer", "CheatDetected", "NotFound"] as const;
export type AnswerResult = (typeof ANSWER_RESULTS)[number];

export const SUBMISSION_TYPES = ["Unaccepted", "FirstBlood", "SecondBlood", "ThirdBlood", "Normal"] as const;
export type SubmissionType = (typeof SUBMISSION_TYPES)[number];

export const TASK_STATUSES = ["Pending", "Success", "Failed", "Duplicate", "Denied", "NotFound", "Exit"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const FILE_TYPES = ["None", "Local", "Remote"] as const;
export type FileType = (typeof FILE_TYPES)[number];

export const CONTAINER_STATUSES = ["Pending", "Running", "Destroyed"] as const;
export type ContainerStatus = (typeof CONTAINER_STATUSES)[number];

export const NETWORK_MODES = ["Open", "Isolated", "Custom"] as const;
export type NetworkMode = (typeof NETWORK_MODES)[number];

export const PORT_MAPPING_TYPES = ["Default", "PlatformProxy"] as const;
export type PortMappingType = (typeof PORT_MAPPING_TYPES)[number];

export const CAPTCHA_PROVIDERS = ["None", "GoogleRecaptcha", "CloudflareTurnstile"] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

export const LOG_LEVELS = ["All", "Debug", "Information", "Warning", "Error", "Fatal"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** GamePermission bit set (a number on the wire). */
export const GamePermission = {
  JoinGame: 1,
  RankOverall: 2,
  RequireReview: 4,
  ViewChallenge: 256,
  SubmitFlags: 512,
  GetScore: 1024,
  GetBlood: 2048,
  AffectDynamicScore: 4096,
  All: 2147483647,
} as const;
