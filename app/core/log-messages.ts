import { withoutBidiControls } from "./bidi";
import type { ChallengeType, RegisterStatus, Role } from "./enums";
import type { ReviewStatus } from "./schemas/game";

/**
 * Log messages as a key and parameters (DECISIONS.md, 2026-11-26 nineteenth session). One template per
 * key, `adminLogs.messages.{key}` in common.json, writes both texts of a record:
 * - the stored English `msg` (api.md LogMessageModel): the en-US template with identifiers as they are
 *   (`Accepted`, `FirstBlood`, `role=Monitor`), so tools reading it see the text they always did;
 * - what an admin reads: the template of the reader's language with those identifiers as labels.
 */

/**
 * Why a container agent did not do what it was asked: `unavailable`, it was not tried (unknown or
 * unhealthy); `unreachable`, the call failed; `answered`, it answered an error. `agent` names it.
 */
export type AgentFailure =
  | { kind: "unavailable"; agent: string }
  | { kind: "unreachable"; agent?: string | undefined }
  /** `message` is the agent's own words (not translated; the agent writes them). */
  | { kind: "answered"; agent?: string | undefined; status: number; code: string; message: string };

/** A container released without its agent. */
export interface ReleasedContainer {
  id: string;
  failure: AgentFailure;
}

/**
 * Why an agent removed a container: its own reason (app/core/agent-protocol.ts `container.destroyed`),
 * or, where it says `unknown` (the platform left it out of its known instances), the platform's reason for
 * that (`gameEnded`: the game ended and practice mode is off; core/game/phase.ts containerUnwantedReason).
 */
export type RemovalReason = "request" | "expired" | "unknown" | "failed" | "exited" | "gameEnded";

type None = Record<string, never>;
type Released = { failure: AgentFailure };

/** Every log message and its parameters. Names and titles are plain values; the others are described in PARAM_KINDS. */
export interface LogParams {
  registered: { status: RegisterStatus };
  signInFailed: { reason: string };
  signedIn: None;
  passwordChanged: None;
  passwordResetByMail: None;
  recoveryMailFailed: { user: string };
  verificationMailFailed: { user: string };
  emailChangeMailFailed: { user: string };
  mailUnconfirmed: { user: string };
  settingsChanged: { fields: string[] };
  teamEdited: { team: string; id: number };
  teamLocked: { team: string; id: number };
  teamUnlocked: { team: string; id: number };
  teamDeleted: { id: number };
  teamMemberRemoved: { user: string; team: string; id: number };
  usersImported: { rows: number };
  userUpdated: { user: string; fields: string[]; role: Role | null };
  userDeleted: { user: string; id: string };
  userPasswordReset: { user: string };
  /** Records written before the team and game were named (teamParticipationStatus since). */
  participationStatus: { id: number; status: ReviewStatus };
  participationUpdated: { id: number };
  teamParticipationStatus: { id: number; team: string; game: number; status: ReviewStatus };
  teamParticipationUpdated: { id: number; team: string; game: number };
  writeupUploaded: { team: number; game: number; file: string; size: number };
  writeupReplaced: { team: number; game: number; file: string; size: number };
  writeupsDeleted: { deleted: number; game: number };
  unexpectedError: { reference: string; method: string; path: string };
  agentCallbackRefused: { method: string; path: string };
  containerRemovedByAgent: { id: string; agent: string; reason: RemovalReason };
  capturesDeleted: { deleted: number; participation: number; challenge: number };
  challengeCreated: { title: string; id: number; type: ChallengeType; game: number };
  acceptedCountsRecomputed: { game: number };
  challengeEnabled: { title: string; id: number; game: number };
  challengeDisabled: { title: string; id: number; game: number };
  challengeDeleted: { title: string; id: number; game: number };
  flagsAdded: { added: number; title: string; id: number };
  flagDeleted: { flag: number; title: string; id: number };
  challengeEdited: { title: string; id: number; game: number };
  gameCreated: { title: string; id: number };
  gameDeleted: { id: number };
  gameEdited: { title: string; id: number };
  posterUploaded: { game: number };
  posterRemoved: { game: number };
  noticePosted: { id: number; game: number };
  noticeEdited: { id: number; game: number };
  noticeDeleted: { id: number; game: number };
  postCreated: { title: string; id: string };
  postEdited: { title: string; id: string };
  postDeleted: { id: string };
  logoUploaded: None;
  logoReset: None;
  testContainerStarted: { id: string; title: string; challenge: number; entry: string };
  testContainerStopped: { id: string; title: string; challenge: number };
  testContainerReleased: { id: string; title: string; challenge: number } & Released;
  containerDestroyedByAdmin: { id: string };
  containerReleasedByAdmin: { id: string } & Released;
  containerNoAgent: { challenge: number; image: string };
  containerStartFailed: { challenge: number; image: string; agentUrl: string } & Released;
  containerStarted: { team: string; id: string; title: string; challenge: number; agent: string; entry: string };
  containerLimitDestroyed: { id: string; team: string; limit: number };
  containerLimitReleased: { id: string; team: string; limit: number } & Released;
  containerNotExtended: { id: string; team: string } & Released;
  containerExtended: { team: string; id: string; until: number };
  containerDestroyedByTeam: { team: string; id: string };
  containerReleasedByTeam: { team: string; id: string } & Released;
  containersReleasedOfChallenges: { released: number; total: number; challenges: number[]; containers: ReleasedContainer[]; more: number };
  containersReleasedOfGame: { released: number; total: number; game: number; containers: ReleasedContainer[]; more: number };
  containersReleasedOfTeam: { released: number; total: number; team: string; containers: ReleasedContainer[]; more: number };
  noDynamicAttachment: { title: string; id: number; team: string };
  solved: { team: string; title: string; id: number };
  solvedBlood: { team: string; title: string; id: number; type: "FirstBlood" | "SecondBlood" | "ThirdBlood" };
}

export type LogKey = keyof LogParams;

/** A log message: what code passes to writeLog. */
export type LogText = { [K in LogKey]: { key: K; params: LogParams[K] } }[LogKey];

/** A translation function: i18next's `t`, fixed to the `common` namespace. */
export type LogTranslate = (key: string, options?: Record<string, unknown>) => string;

export interface LogRenderOptions {
  t: LogTranslate;
  /** Whether the translation `key` exists (a missing template or label falls back). */
  exists: (key: string) => boolean;
  /** `record`: the stored English text (t is en-US); `reader`: what an admin reads in their language. */
  mode: "record" | "reader";
  /** How the reader sees a time (Unix ms); the record writes ISO 8601. */
  formatTime?: (ms: number) => string;
}

const TEMPLATE = "adminLogs.messages";
const VALUES = "adminLogs.values";

/** Labels of the fields PUT admin/users changes (the edit dialog's own labels). */
const USER_FIELD_LABELS: Record<string, string> = {
  userName: "adminUsers.userName",
  email: "adminUsers.email",
  realName: "adminUsers.realName",
  stdNumber: "adminUsers.stdNumber",
  phone: "adminUsers.phone",
  bio: "adminUsers.bio",
  role: "adminUsers.role",
  emailConfirmed: "adminUsers.active",
};

/** Labels of the platform settings (the settings page's own labels). */
const SETTINGS_FIELD_LABELS: Record<string, string> = {
  "accountPolicy.allowRegister": "settings.account.allowRegister",
  "accountPolicy.activeOnRegister": "settings.account.activeOnRegister",
  "accountPolicy.useCaptcha": "settings.account.useCaptcha",
  "accountPolicy.emailConfirmationRequired": "settings.account.emailConfirmation",
  "accountPolicy.emailDomainList": "settings.account.domains",
  "globalConfig.title": "settings.platform.name",
  "globalConfig.slogan": "settings.platform.slogan",
  "globalConfig.description": "settings.platform.description",
  "globalConfig.footerInfo": "settings.platform.footer",
  "globalConfig.customTheme": "settings.platform.colour",
  "globalConfig.logoHash": "settings.platform.logo",
  "globalConfig.faviconHash": "adminLogs.values.favicon",
  "containerPolicy.defaultLifetime": "settings.container.defaultLifetime",
  "containerPolicy.extensionDuration": "settings.container.extension",
  "containerPolicy.renewalWindow": "settings.container.renewalWindow",
  "containerPolicy.autoDestroyOnLimitReached": "settings.container.autoDestroy",
  "containerPolicy.extraFlagEnvNames": "settings.container.extraFlagEnv",
};

type Params = Record<string, unknown>;
type Render = (value: unknown, params: Params, o: LogRenderOptions) => string;

/** A parameter as text for its sentence, without direction controls that would turn the sentence around. */
const str = (value: unknown): string => (typeof value === "string" ? withoutBidiControls(value) : typeof value === "number" ? String(value) : "");
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const translate = (o: LogRenderOptions, key: string, values: Params = {}): string => o.t(key, { replace: values });
/** The label under `key`, else the value itself (an identifier this version has no label for). */
const labelOr = (o: LogRenderOptions, key: string | undefined, value: string): string => (key && o.exists(key) ? translate(o, key) : value);

/** An identifier (a status, role, type): itself in the record, its label for the reader. */
const enumLabel =
  (prefix: string): Render =>
  (value, _params, o) =>
    o.mode === "record" ? str(value) : labelOr(o, `${prefix}.${str(value)}`, str(value));

const join = (o: LogRenderOptions, items: string[]): string => items.join(translate(o, `${VALUES}.separator`));

/** A list of changed fields (names in the record, labels for the reader); "nothing" when empty. */
const fieldList =
  (labels: Record<string, string>, valued?: (field: string, params: Params) => string | null, valueLabel?: string): Render =>
  (value, params, o) => {
    const fields = list(value).map(str);
    if (fields.length === 0) return translate(o, `${VALUES}.nothing`);
    return join(
      o,
      fields.map((field) => {
        const name = o.mode === "record" ? field : labelOr(o, Object.hasOwn(labels, field) ? labels[field] : undefined, field);
        const set = valued?.(field, params);
        if (set == null) return name;
        const shown = o.mode === "record" || !valueLabel ? set : labelOr(o, `${valueLabel}.${set}`, set);
        return translate(o, `${VALUES}.fieldSet`, { field: name, value: shown });
      }),
    );
  };

function renderFailure(value: unknown, o: LogRenderOptions): string {
  const f = (value && typeof value === "object" ? value : {}) as Partial<Record<string, unknown>>;
  const agent = str(f.agent);
  if (f.kind === "unavailable") return translate(o, `${VALUES}.agentUnavailable`, { agent });
  const text =
    f.kind === "answered"
      ? translate(o, `${VALUES}.agentAnswered`, { status: str(f.status), code: str(f.code), message: str(f.message) })
      : translate(o, `${VALUES}.agentUnreachable`);
  return agent ? translate(o, `${VALUES}.agentNamed`, { agent, failure: text }) : text;
}

const failure: Render = (value, _params, o) => renderFailure(value, o);

/** Released containers, each with why, and how many more were not listed. */
const releasedList: Render = (value, params, o) => {
  const items = list(value).map((item) => {
    const c = (item && typeof item === "object" ? item : {}) as Partial<ReleasedContainer>;
    return translate(o, `${VALUES}.releasedContainer`, { id: str(c.id), problem: renderFailure(c.failure, o) });
  });
  const more = typeof params.more === "number" && params.more > 0 ? translate(o, `${VALUES}.andMore`, { more: params.more }) : "";
  return join(o, items) + more;
};

/** Ids shown as `#1, #2`. */
const idList: Render = (value, _params, o) => join(o, list(value).map((id) => `#${str(id)}`));

const time: Render = (value, _params, o) => {
  const ms = typeof value === "number" ? value : Number.NaN;
  if (!Number.isFinite(ms)) return str(value);
  return o.mode === "reader" && o.formatTime ? o.formatTime(ms) : new Date(ms).toISOString();
};

/** A sign-in refusal's error code: its sentence in both texts (the record has always said it in words). */
const signInReason: Render = (value, _params, o) => labelOr(o, `${VALUES}.signInFailure.${str(value)}`, str(value));

/** The parameters that are not shown as they are, by message. Every key is listed (the list of known keys). */
export const PARAM_KINDS: { [K in LogKey]: Partial<Record<keyof LogParams[K], Render>> } = {
  registered: { status: enumLabel(`${VALUES}.registerStatus`) },
  signInFailed: { reason: signInReason },
  signedIn: {},
  passwordChanged: {},
  passwordResetByMail: {},
  recoveryMailFailed: {},
  verificationMailFailed: {},
  emailChangeMailFailed: {},
  mailUnconfirmed: {},
  settingsChanged: { fields: fieldList(SETTINGS_FIELD_LABELS) },
  teamEdited: {},
  teamLocked: {},
  teamUnlocked: {},
  teamDeleted: {},
  teamMemberRemoved: {},
  usersImported: {},
  userUpdated: { fields: fieldList(USER_FIELD_LABELS, (field, params) => (field === "role" && typeof params.role === "string" ? params.role : null), "role") },
  userDeleted: {},
  userPasswordReset: {},
  participationStatus: { status: enumLabel("games.status") },
  participationUpdated: {},
  teamParticipationStatus: { status: enumLabel("games.status") },
  teamParticipationUpdated: {},
  writeupUploaded: {},
  writeupReplaced: {},
  writeupsDeleted: {},
  unexpectedError: {},
  agentCallbackRefused: {},
  containerRemovedByAgent: { reason: enumLabel(`${VALUES}.removalReason`) },
  capturesDeleted: {},
  challengeCreated: { type: enumLabel("challenge.type") },
  acceptedCountsRecomputed: {},
  challengeEnabled: {},
  challengeDisabled: {},
  challengeDeleted: {},
  flagsAdded: {},
  flagDeleted: {},
  challengeEdited: {},
  gameCreated: {},
  gameDeleted: {},
  gameEdited: {},
  posterUploaded: {},
  posterRemoved: {},
  noticePosted: {},
  noticeEdited: {},
  noticeDeleted: {},
  postCreated: {},
  postEdited: {},
  postDeleted: {},
  logoUploaded: {},
  logoReset: {},
  testContainerStarted: {},
  testContainerStopped: {},
  testContainerReleased: { failure },
  containerDestroyedByAdmin: {},
  containerReleasedByAdmin: { failure },
  containerNoAgent: {},
  containerStartFailed: { failure },
  containerStarted: {},
  containerLimitDestroyed: {},
  containerLimitReleased: { failure },
  containerNotExtended: { failure },
  containerExtended: { until: time },
  containerDestroyedByTeam: {},
  containerReleasedByTeam: { failure },
  containersReleasedOfChallenges: { challenges: idList, containers: releasedList },
  containersReleasedOfGame: { containers: releasedList },
  containersReleasedOfTeam: { containers: releasedList },
  noDynamicAttachment: {},
  solved: {},
  solvedBlood: { type: enumLabel("notices.type") },
};

/**
 * Messages whose template has plural forms (`{key}_one`, `{key}_other`, i18next's suffixes), by the
 * parameter that counts.
 */
export const PLURAL_COUNT: Partial<Record<LogKey, string>> = { usersImported: "rows" };

export const isLogKey = (key: unknown): key is LogKey => typeof key === "string" && Object.hasOwn(PARAM_KINDS, key);

/**
 * The text of a message, or null when this version does not know its key or has no template for it
 * (the reader then sees the stored English text). Names and titles are inserted as they are: i18next does
 * not escape (React does, on render) and does not interpolate inside values.
 */
export function renderLogText(key: unknown, params: unknown, o: LogRenderOptions): string | null {
  if (!isLogKey(key)) return null;
  const counted = PLURAL_COUNT[key];
  if (!o.exists(counted === undefined ? `${TEMPLATE}.${key}` : `${TEMPLATE}.${key}_other`)) return null;
  const given = (params && typeof params === "object" && !Array.isArray(params) ? params : {}) as Params;
  const kinds = PARAM_KINDS[key] as Record<string, Render | undefined>;
  const values: Params = {};
  for (const [name, value] of Object.entries(given)) {
    const kind = Object.hasOwn(kinds, name) ? kinds[name] : undefined;
    values[name] = kind ? kind(value, given, o) : typeof value === "number" ? value : str(value);
  }
  if (counted === undefined) return translate(o, `${TEMPLATE}.${key}`, values);
  const count = given[counted];
  return o.t(`${TEMPLATE}.${key}`, { replace: values, count: typeof count === "number" ? count : 0 });
}
