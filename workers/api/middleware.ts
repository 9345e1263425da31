import type { Context, MiddlewareHandler } from "hono";
import { createDb } from "~/.server/db/client";
import { clientIp } from "~/.server/auth/session";
import { AppError, ERROR_FIELD_HEADER, type ErrorBody, forbidden, tooManyRequests } from "~/core/errors";
import { languageFromAcceptLanguage } from "~/core/i18n/languages";
import { getTranslator } from "~/core/i18n/translator";
import { type Limiter, SlidingWindowLimiter, TokenBucketLimiter } from "~/core/rate-limit";
import type { ApiEnv } from "./context";
import { getUser } from "./guard";
import { logEvent } from "./log";

/** Sets language, translator, database, clock and client IP for the request. */
export const apiContext: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const lang = languageFromAcceptLanguage(c.req.header("accept-language"));
  c.set("lang", lang);
  c.set("t", getTranslator(lang));
  c.set("db", createDb(c.env.DB));
  c.set("now", Date.now());
  c.set("ip", clientIp(c.req.raw));
  c.set("user", undefined);
  await next();
  // The server's clock in ms: the browser corrects countdowns and "not scored" with it (app/lib/server-clock.ts).
  // Set on the finished response, whoever made it: the cached answers (ETag, 304) and the room's pass-through
  // build their own Response, which `c.header` before `next()` does not reach.
  // A WebSocket upgrade (101) is left as it is: a copy would lose its socket.
  if (c.res.status === 101) return;
  const time = String(c.get("now"));
  try {
    c.res.headers.set("X-Server-Time", time);
  } catch {
    // Headers of a fetched response are immutable: answer with a copy.
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set("X-Server-Time", time);
  }
};

/**
 * Cross-site request defence for writes: a browser's cross-site request carries `Sec-Fetch-Site:
 * cross-site` or a foreign `Origin`; both are refused. (Cookies are also SameSite=Lax.)
 */
export const csrfGuard: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const method = c.req.method;
  if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS") {
    const site = c.req.header("sec-fetch-site");
    const origin = c.req.header("origin");
    if (site === "cross-site" || site === "same-site") throw forbidden("auth.cross_site");
    if (origin && !sameHost(origin, c.req.url)) throw forbidden("auth.cross_site");
  }
  await next();
};

/** Whether an Origin header names this host; "null" and malformed origins never do. */
function sameHost(origin: string, url: string): boolean {
  try {
    return new URL(origin).host === new URL(url).host;
  } catch {
    return false;
  }
}

const isLoopback = (ip: string) => ip === "::1" || ip.startsWith("127.") || ip === "::ffff:127.0.0.1";
export const rateLimitDisabled = (c: Context<ApiEnv>) => String(c.env.FLAGSTAFF_DISABLE_RATE_LIMIT) === "true";

/** Limiters live in the isolate (one process locally); see DECISIONS.md. Flag submission's bucket is the game room's own. */
const globalLimiter = new SlidingWindowLimiter(150, 60_000, 6);
export const limiters = {
  /** register, login, recovery, passwordreset, changeemail: 20 per 150 s per IP and per account. */
  register: new SlidingWindowLimiter(20, 150_000, 5),
  /** game list, posts list. */
  query: new TokenBucketLimiter(100, 10, 10_000),
  /** container create, extend, destroy (per team). */
  container: new TokenBucketLimiter(120, 30, 10_000),
} satisfies Record<string, Limiter>;

/** The global limit: 150 requests a minute per signed-in user, else per IP; loopback is exempt. */
export const globalRateLimit: MiddlewareHandler<ApiEnv> = async (c, next) => {
  if (!rateLimitDisabled(c) && !isLoopback(c.get("ip"))) {
    const user = await getUser(c);
    const wait = globalLimiter.hit(user ? `u:${user.id}` : `ip:${c.get("ip")}`, c.get("now"));
    if (wait > 0) throw tooManyRequests(wait);
  }
  await next();
};

/**
 * Applies a named bucket to each key (e.g. the IP and the account named); throws 429 when any is exhausted.
 * Keys of an account, user or team always count. An address key (`ip:`) is skipped for a loopback client:
 * `npm start` serves loopback only, so every local client shares that one address (DECISIONS.md).
 */
export function enforceLimit(c: Context<ApiEnv>, limiter: Limiter, keys: string[]): void {
  if (rateLimitDisabled(c)) return;
  const loopback = isLoopback(c.get("ip"));
  let wait = 0;
  for (const key of keys) {
    if (loopback && key.startsWith("ip:")) continue;
    wait = Math.max(wait, limiter.hit(key, c.get("now")));
  }
  if (wait > 0) throw tooManyRequests(wait);
}

/** Maps every thrown error to the `{title, status}` body in exactly one place; never leaks internals. */
export function errorResponse(c: Context<ApiEnv>, err: unknown): Response {
  const t = c.get("t") ?? getTranslator("en-US");
  if (err instanceof AppError) {
    const params = { ...err.params };
    const body: ErrorBody = { title: t(err.code, params), status: err.status };
    // The body keeps the contract's shape; the field a refusal is about travels beside it.
    const headers = err.field ? { ...err.headers, [ERROR_FIELD_HEADER]: err.field } : err.headers;
    return c.json(body, err.httpStatus as 400, headers);
  }
  const reference = crypto.randomUUID().slice(0, 8);
  console.error(`[${reference}]`, err);
  void logEvent(c, {
    level: "Error",
    logger: "Api",
    text: { key: "unexpectedError", params: { reference, method: c.req.method, path: new URL(c.req.url).pathname } },
    exception: err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : String(err),
    status: "Failed",
  });
  const body: ErrorBody = { title: t("common.unexpected", { reference }), status: 500 };
  return c.json(body, 500);
}
