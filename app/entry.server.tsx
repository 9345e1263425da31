import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { type EntryContext, type HandleErrorFunction, type RouterContextProvider, ServerRouter } from "react-router";
import { env } from "cloudflare:workers";
import { SESSION_COOKIE } from "~/.server/auth/session";
import { readCookie } from "~/core/http/cookie";
import { captchaSettingsFromEnv } from "~/.server/captcha/verify";
import { NonceContext } from "~/lib/nonce";
import { getInstanceOrDefault } from "~/middleware/i18next";
import { makeNonce, pageCsp } from "../workers/security-headers";

export const streamTimeout = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  // A fresh script nonce per page: only our inline scripts carry it (see workers/security-headers.ts).
  const nonce = makeNonce();
  let shellRendered = false;
  const userAgent = request.headers.get("user-agent");

  const body = await renderToReadableStream(
    <NonceContext.Provider value={nonce}>
      <I18nextProvider i18n={getInstanceOrDefault(loadContext)}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </I18nextProvider>
    </NonceContext.Provider>,
    {
      nonce,
      signal: AbortSignal.timeout(streamTimeout + 1000),
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors before the shell is ready are logged by React Router itself.
        if (shellRendered) console.error(error);
      },
    },
  );
  shellRendered = true;

  // Crawlers get the whole document at once.
  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode) await body.allReady;

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // A signed-in page shows who is signed in (and private pages more): the browser keeps no copy of it, so
  // Back after signing out asks the server again instead of showing the page from its cache.
  if (readCookie(request.headers.get("cookie"), SESSION_COOKIE) !== null) responseHeaders.set("Cache-Control", "private, no-store");
  responseHeaders.set(
    "Content-Security-Policy",
    pageCsp(nonce, new URL(request.url).host, captchaSettingsFromEnv(env).provider),
  );
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  // Aborted requests (the user navigated away) are not failures.
  if (request.signal.aborted) return;
  console.error(error);
};
