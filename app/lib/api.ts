import i18next from "i18next";
import { ERROR_FIELD_HEADER } from "~/core/errors";
import { IDEMPOTENCY_KEY_HEADER } from "~/core/http/idempotency";
import { ifMatchFor } from "~/core/http/if-match";
import type { ReadVersion } from "~/core/ui/save-on-version";
import { noteServerTime } from "./server-clock";

/** The API's error body (api.md §1): a localised title and a status. */
export class ApiError extends Error {
  readonly title: string;
  readonly status: number;
  /** The request field the refusal is about (the `X-Error-Field` header), for a form to show it there. */
  readonly field: string | null;
  /** Whether the answer said to ask again later (`Retry-After`): a 429, or a 409 while an earlier request under the same Idempotency-Key runs. */
  readonly retryLater: boolean;

  constructor(title: string, status: number, field: string | null = null, retryLater = false) {
    super(title);
    this.name = "ApiError";
    this.title = title;
    this.status = status;
    this.field = field;
    this.retryLater = retryLater;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * Refusals that end any page reading the API itself: the session ended (signed out in another tab, or
 * expired). The other sets and the hook that ends a page are in app/lib/session-end.ts; this one and
 * endsPage are here because useCachedList (app/lib/list-cache.ts), which most pages run, needs them: kept
 * out of session-end's own chunk, which only the monitor and admin pages need.
 */
export const SESSION_ENDED: readonly number[] = [401];

/** Whether an error is a refusal with one of `statuses` (see ACCESS_ENDED in app/lib/session-end.ts). */
export function endsPage(error: unknown, statuses: readonly number[]): error is ApiError {
  return isApiError(error) && statuses.includes(error.status);
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

/** Calls the JSON API and rejects with an ApiError: `api` in the browser, app/.server/in-process-api.ts in a server action. */
export type ApiCall = <T = unknown>(path: string, options?: { method?: Method; body?: unknown }) => Promise<T>;

interface RequestOptions {
  method?: Method;
  body?: unknown;
  signal?: AbortSignal;
  /** The ETag of the version a write is based on: sent as `If-Match` (the write is refused with 412 when stale). */
  ifMatch?: string | null;
  /**
   * For a GET read again and again (a list refreshed every few seconds): its last answer is kept with its
   * ETag, sent as `If-None-Match`, and a 304 gives back that same answer (the same object, so nothing
   * re-renders) without the body travelling again.
   */
  revalidate?: boolean;
  /**
   * Sent as `Idempotency-Key` with a POST: the server does the request once per key and gives a retry
   * under the same key the first answer (app/lib/idempotency.ts makes and keeps the keys).
   */
  idempotencyKey?: string;
}

/** The last answer of each `revalidate` GET, by path; the oldest goes beyond KEPT_ANSWERS_MAX. */
const keptAnswers = new Map<string, { etag: string; value: unknown }>();
const KEPT_ANSWERS_MAX = 8;

function keepAnswer(path: string, etag: string | null, value: unknown) {
  keptAnswers.delete(path);
  if (etag === null) return;
  keptAnswers.set(path, { etag, value });
  for (const oldest of keptAnswers.keys()) {
    if (keptAnswers.size <= KEPT_ANSWERS_MAX) break;
    keptAnswers.delete(oldest);
  }
}

/** Forgets the kept answers (on logout: they hold what this user saw). */
export function forgetKeptAnswers() {
  keptAnswers.clear();
}

function isErrorBody(value: unknown): value is { title: string; status?: number } {
  return typeof value === "object" && value !== null && typeof (value as { title?: unknown }).title === "string";
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  if (!(response.headers.get("Content-Type") ?? "").includes("json")) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Calls the JSON API from the browser with the current UI language in Accept-Language, so server
 * messages come back in it. Rejects with an ApiError carrying the body's `{title, status}`.
 */
export async function api<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiVersioned<T>(path, options)).value;
}

/** A write refused because the resource changed since the version it was based on (412). */
export const isStaleWrite = (error: unknown): boolean => isApiError(error) && error.status === 412;

/** As `api`, with the answer's ETag: a versioned edit resource and the stored version it was read at. */
export async function apiVersioned<T>(path: string, { method = "GET", body, signal, ifMatch, revalidate = false, idempotencyKey }: RequestOptions = {}): Promise<ReadVersion<T>> {
  const headers = new Headers({ Accept: "application/json" });
  const language = i18next.resolvedLanguage ?? i18next.language;
  if (language) headers.set("Accept-Language", language);
  if (body !== undefined) headers.set("Content-Type", "application/json");
  const condition = ifMatchFor(ifMatch);
  if (condition) headers.set("If-Match", condition);
  if (idempotencyKey !== undefined) headers.set(IDEMPOTENCY_KEY_HEADER, idempotencyKey);
  const keeps = revalidate && method === "GET";
  // A request with its own If-None-Match bypasses the browser's cache, which hands the 304 over as it is.
  const kept = keeps ? keptAnswers.get(path) : undefined;
  if (kept) headers.set("If-None-Match", kept.etag);

  let response: Response;
  const sentAt = Date.now();
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(i18next.t("common:error.network"), 0);
  }

  noteServerTime(response.headers, sentAt, Date.now());
  if (kept && response.status === 304) return { value: kept.value as T, etag: kept.etag };
  const data = await readBody(response);
  if (!response.ok) {
    const retryLater = response.headers.has("Retry-After");
    if (isErrorBody(data)) throw new ApiError(data.title, typeof data.status === "number" ? data.status : response.status, response.headers.get(ERROR_FIELD_HEADER), retryLater);
    throw new ApiError(i18next.t("common:error.unknown"), response.status, null, retryLater);
  }
  const etag = response.headers.get("ETag");
  if (keeps) keepAnswer(path, etag, data);
  return { value: data as T, etag };
}

/**
 * A refusal about one of `fields` (the request fields a form shows): that field and the message, for the
 * form to show at the field; null for any other failure (shown for the form as a whole).
 */
export function fieldError<F extends string>(error: unknown, fields: readonly F[]): { field: F; message: string } | null {
  if (!isApiError(error) || error.field === null) return null;
  const field = fields.find((f) => f === error.field);
  return field === undefined ? null : { field, message: error.title };
}

/** The message to show for a failed call: the server's localised title, else a generic sentence. */
export function errorMessage(error: unknown): string {
  if (isApiError(error)) return error.title;
  return i18next.t("common:error.unknown");
}

/**
 * For a browser loader: an API 404 becomes the route's 404 response, so the page shows "not found" (the
 * 404 screen) instead of the error screen with a stack; other failures pass through.
 */
export function orNotFound<T>(call: Promise<T>): Promise<T> {
  return call.catch((error: unknown) => {
    if (isApiError(error) && error.status === 404) throw new Response("Not Found", { status: 404 });
    throw error;
  });
}

/** A browser's "could not fetch at all" (Chrome, Firefox and Safari wordings), as opposed to an error answer. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError && /failed to fetch|networkerror|load failed|network connection/i.test(error.message);
}
