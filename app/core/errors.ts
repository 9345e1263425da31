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

  constructor(status: number, code: string, params?: ErrorParams, headers?: Record<string, string>) {
    super(code);
    this.name = "AppError";
    this.status = status;
    this.code = code;
    this.params = params;
    this.headers = headers;
  }

  /** HTTP status to send: the body status, except game-state codes which are sent as 400. */
  get httpStatus(): number {
    return this.status >= 10000 ? 400 : this.status;
  }
}

export const badRequest = (code: string, params?: ErrorParams) => new AppError(400, code, params);
export const unauthorized = (code = "auth.login_required", params?: ErrorParams) => new AppError(401, code, params);
export const forbidden = (code = "auth.access_denied", params?: ErrorParams) => new AppError(403, code, params);
export const notFound = (code = "common.not_found", params?: ErrorParams) => new AppError(404, code, params);
export const conflict = (code: string, params?: ErrorParams) => new AppError(409, code, params);
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
