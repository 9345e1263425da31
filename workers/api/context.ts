import type { Context } from "hono";
import type { CurrentUser } from "~/.server/auth/current-user";
import type { Db } from "~/.server/db/client";
import type { Language } from "~/core/i18n/languages";
import type { Translate } from "~/core/i18n/translator";

/** Per-request values every handler can read (set once by the context middleware). */
export interface ApiVariables {
  lang: Language;
  t: Translate;
  db: Db;
  now: number;
  ip: string;
  /** Resolved lazily by the auth guard; undefined until then. */
  user: CurrentUser | null | undefined;
}

export type ApiEnv = { Bindings: Env; Variables: ApiVariables };
export type ApiContext = Context<ApiEnv>;

/** The request's `waitUntil` (work that may finish after the response), when the runtime gives one. */
export function backgroundOf(c: ApiContext): ((promise: Promise<unknown>) => void) | undefined {
  try {
    const ctx = c.executionCtx;
    return (promise) => ctx.waitUntil(promise);
  } catch {
    return undefined;
  }
}
