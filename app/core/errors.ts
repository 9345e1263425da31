/**
 * One error type for every broken rule. `code` is also the i18n key (namespace `errors`) of the
 * localised message; `status` is the HTTP status (game-state codes 10001/10002 travel as HTTP 400).
 */
export type ErrorParams = Record<string, string | number>;

export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly params: ErrorParams | undefined;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string> | undefined;
  /** The request field the refusal is about, when it is about one (see errorField). */
  readonly field: string | null;

  constructor(status: number, code: string, params?: ErrorParams, headers?: Record<string, string>, field?: string | null) {
    super(code);
    this.name = "AppError";
    this.status = status;
    this.code = code;
    this.params = params;
    this.headers = headers;
    this.field = field ?? errorField(code);
  }

  /** HTTP status to send: the body status, except game-state codes which are sent as 400. */
  get httpStatus(): number {
    return this.status >= 10000 ? 400 : this.status;
  }
}

/**
 * The request field each refusal about one field concerns, by code (api.md's field names; POST
 * team/accept, whose body is the invite code alone, calls it `inviteCode`). The API names it in the
 * `X-Error-Field` header, so a form shows the message at that field rather than above the form.
 * Validation failures name the field of their first failing rule instead (workers/api/registry.ts).
 */
const FIELD_OF_CODE: Readonly<Record<string, string>> = {
  "account.username_taken": "userName",
  "account.email_taken": "email",
  "account.email_domain_not_allowed": "email",
  "account.email_domain_not_allowed_change": "newMail",
  "account.wrong_old_password": "old",
  "team.invite_malformed": "inviteCode",
  "team.invite_incorrect": "inviteCode",
  "game.division_required": "divisionId",
  "game.division_unknown": "divisionId",
  "game.invite_code_required": "inviteCode",
  "game.invite_code_incorrect": "inviteCode",
  "game.end_before_start": "end",
  "game.writeup_deadline_before_end": "writeupDeadline",
};

/** The request field a refusal's code is about, or null when it concerns the request as a whole. */
export function errorField(code: string): string | null {
  return Object.hasOwn(FIELD_OF_CODE, code) ? FIELD_OF_CODE[code]! : null;
}

/** The response header naming the request field a refusal is about. */
export const ERROR_FIELD_HEADER = "X-Error-Field";

export const badRequest = (code: string, params?: ErrorParams) => new AppError(400, code, params);
export const unauthorized = (code = "auth.login_required", params?: ErrorParams) => new AppError(401, code, params);
export const forbidden = (code = "auth.access_denied", params?: ErrorParams) => new AppError(403, code, params);
export const notFound = (code = "common.not_found", params?: ErrorParams) => new AppError(404, code, params);
/** 405: the address has routes, none for this method; `allow` lists the ones it has (the Allow header). */
export const methodNotAllowed = (allow: readonly string[]) =>
  new AppError(405, "common.method_not_allowed", undefined, { Allow: allow.join(", ") });
export const conflict = (code: string, params?: ErrorParams) => new AppError(409, code, params);
/** 412: a write's `If-Match` names a version other than the stored one (app/core/http/if-match.ts). */
export const preconditionFailed = (code = "common.changed_elsewhere") => new AppError(412, code);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, "common.too_many_requests", { seconds: retryAfterSeconds }, { "Retry-After": String(retryAfterSeconds) });

/** Game-state codes of api.md §1. */
export const GAME_NOT_STARTED = 10001;
export const GAME_ENDED = 10002;

/** The error body of the API contract. */
export interface ErrorBody {
  title: string;
  status: number;
}
