import { createContext, data, type RouterContextProvider } from "react-router";
import { ERROR_FIELD_HEADER } from "~/core/errors";
import { ApiError, type ApiCall } from "~/lib/api";
import { keepInput, type KeptInput } from "~/lib/kept-input";
import { changedNothing } from "~/lib/revalidate";
import { getInstance, getLocale } from "~/middleware/i18next";

/** The JSON API's handler, for a page's server action to call in the same request (workers/app.ts sets it). */
export const apiHandlerContext = createContext<(request: Request) => Promise<Response>>();

/**
 * A form submitted before the page's JavaScript ran (or without it) reaches the route's server `action`
 * instead of its `clientAction`. The server action does what the browser would: it calls the same API,
 * in process, as the browser that posted the form — its cookies, address and Origin/Sec-Fetch-Site (the
 * API's cross-site defence and rate limits apply as they do to the browser's own call) — in the page's
 * language. `answer` puts the cookies the API set (a new session) on the action's answer.
 */
export function apiForForm(request: Request, context: Readonly<RouterContextProvider>, language: string, unknownError: string) {
  const handler = context.get(apiHandlerContext);
  const setCookies: string[] = [];
  const call: ApiCall = async <T>(path: string, { method = "GET", body }: { method?: string; body?: unknown } = {}) => {
    const headers = new Headers(request.headers);
    for (const name of ["content-length", "content-type", "if-match", "if-none-match"]) headers.delete(name);
    headers.set("Accept", "application/json");
    headers.set("Accept-Language", language);
    if (body !== undefined) headers.set("Content-Type", "application/json");
    const response = await handler(
      new Request(new URL(path, request.url), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    );
    setCookies.push(...response.headers.getSetCookie());
    const value: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const title = typeof value === "object" && value !== null && typeof (value as { title?: unknown }).title === "string" ? (value as { title: string }).title : unknownError;
      throw new ApiError(title, response.status, response.headers.get(ERROR_FIELD_HEADER), response.headers.has("Retry-After"));
    }
    return value as T;
  };

  /** The action's answer (a redirect, or data for the page) with the cookies the API set. */
  function answer<T>(result: T | Response) {
    if (result instanceof Response) {
      for (const cookie of setCookies) result.headers.append("Set-Cookie", cookie);
      return result;
    }
    const headers = new Headers();
    for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
    return data(result as Exclude<T, Response>, { headers });
  }

  return { call, answer };
}

/**
 * A route's server `action` for a form whose client action is `submit(form, api)`: the same submission, with
 * the API called in process (a form posted before the page's JavaScript ran). The page it answers is drawn
 * anew, so a refusal (`unchanged(…)`) carries the fields named in `keep` back to it (app/lib/kept-input.ts);
 * name no password or captcha token there.
 */
export function formActionInProcess<T extends object, K extends string = never>(
  submit: (form: FormData, call: ApiCall) => Promise<T | Response>,
  keep: readonly K[] = [],
) {
  return async ({ request, context }: { request: Request; context: Readonly<RouterContextProvider> }) => {
    const form = await request.formData();
    const { call, answer } = apiForForm(request, context, getLocale(context), getInstance(context).t("error.unknown"));
    const result = await submit(form, call);
    if (result instanceof Response || !changedNothing(result) || keep.length === 0) return answer<T | (T & KeptInput<K>)>(result);
    return answer<T | (T & KeptInput<K>)>({ ...result, ...keepInput(form, keep) });
  };
}
