import { env } from "cloudflare:workers";
import i18next from "i18next";
import localeChunks from "virtual:flagstaff/locale-chunks";
import { type CSSProperties, type ReactNode, useEffect } from "react";
import { useTranslation } from "react-i18next";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Navigate,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
  useLocation,
  useRouteLoaderData,
} from "react-router";
import { getCurrentUser } from "~/.server/auth/session";
import { createDb } from "~/.server/db/client";
import { getClientConfig } from "~/.server/services/config";
import { portMappingOf } from "~/.server/services/containers";
import { brandCssVariables } from "~/core/colour";
import { computeDefaultFavicon } from "~/core/favicon";
import { DEFAULT_FAVICON } from "~/core/favicon-svg";
import { DEFAULT_LANGUAGE, matchLanguage } from "~/core/i18n/languages";
import { partsForPath } from "~/core/i18n/locale-parts";
import { renderMarkdown } from "~/core/markdown";
import { MarkdownHtml } from "~/components/markdown-html";
import { type ShellUser, SiteHeader } from "~/components/site-header";
import { Button, buttonClass } from "~/components/ui/button";
import { onlyParamChanged } from "~/lib/address-filter";
import { loginPath } from "~/lib/account";
import { isApiError, isNetworkError } from "~/lib/api";
import { clearCacheAndReload, clearListCaches } from "~/lib/cache";
import { useNonce, ZOD_JITLESS_SCRIPT } from "~/lib/nonce";
import { themeFromCookieHeader, themeInitScript, useTheme } from "~/lib/theme";
import { loadPageTranslations } from "~/locales/browser";
import { getLocale, i18nextMiddleware } from "~/middleware/i18next";
import type { Route } from "./+types/root";
import "./app.css";
import { NavigationProgress } from "~/components/navigation-progress";
import { RouteAnnouncer } from "~/components/route-announcer";
import { markPageReads } from "~/lib/page-reads";
import { keepAfterUnchanged } from "~/lib/revalidate";
import { preloadRouteCode } from "~/lib/route-preload";
import { forgetShellUser, useShellUser } from "~/lib/shell-user";

export const middleware: Route.MiddlewareFunction[] = [i18nextMiddleware];

// Game and admin pages read translations the other pages do not ship (app/core/i18n/locale-parts.ts):
// they are in before such a page renders. What the loaders read is newer than this moment: a live feed's greeting
// is compared with it (app/lib/page-reads.ts).
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
  async ({ request }) => {
    markPageReads();
    await loadPageTranslations(i18next, new URL(request.url).pathname);
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const [user, config] = await Promise.all([
    getCurrentUser(request, env),
    getClientConfig(createDb(env.DB), portMappingOf(env as { FLAGSTAFF_PORT_MAPPING?: string })),
  ]);
  const shellUser: ShellUser | null = user ? { userName: user.userName, role: user.role, avatar: user.avatar } : null;
  const locale = getLocale(context);
  const language = matchLanguage(locale) ?? DEFAULT_LANGUAGE;
  const parts = partsForPath(new URL(request.url).pathname);
  return {
    locale,
    // The browser's translations for this page (its language and the fallback, which i18next loads too),
    // named in the HTML so they are fetched with the other first-load modules (app/locales/browser.ts).
    localeModules: [...new Set([language, DEFAULT_LANGUAGE].flatMap((l) => parts.flatMap((p) => localeChunks[l][p])))],
    theme: themeFromCookieHeader(request.headers.get("Cookie")),
    user: shellUser,
    config: {
      title: config.title,
      slogan: config.slogan,
      // Rendered here, so the browser needs no Markdown parser for the shell.
      footerHtml: renderMarkdown(config.footerInfo),
      // CSS variables of the admin's brand colour (null: the default palette), computed here so the
      // colour maths stays on the server.
      brandVariables: brandCssVariables(config.customTheme),
      logoUrl: config.logoUrl,
      // The tab's icon: the logo when one is set, else the default one in the brand colour.
      defaultFavicon: config.logoUrl ? null : computeDefaultFavicon(config.customTheme),
    },
  };
}

// The favicon is drawn in Layout: the admin's logo when one is set (faviconHash = logoHash), else the default
// one in the admin's colour (app/core/favicon.ts), or without the root's data (an error screen) in the default
// colour: DEFAULT_FAVICON (app/core/favicon-svg.ts), a constant, so the colour maths stays on the server.

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.config.title ?? "Flagstaff" }];
}

export function Layout({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const data = useRouteLoaderData<typeof loader>("root");
  const { resolved } = useTheme(data?.theme ?? "dark");
  // The admin colour recolours the primary palette; text on it is white or near-black by luminance.
  const brandVariables = data?.config.brandVariables;
  const style = brandVariables ? (brandVariables as CSSProperties) : undefined;
  const logoUrl = data?.config.logoUrl;
  const language = data?.locale ?? i18n.language;
  const nonce = useNonce();

  return (
    // The head script may already have changed the class to the stored theme before hydration.
    <html lang={language} dir={i18n.dir(language)} className={resolved} style={style} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="dark light" />
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: themeInitScript }} />
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: ZOD_JITLESS_SCRIPT }} />
        {logoUrl ? <link rel="icon" href={logoUrl} /> : <link rel="icon" href={data?.config.defaultFavicon ?? DEFAULT_FAVICON} type="image/svg+xml" />}
        {data?.localeModules.map((href) => <link key={href} rel="modulepreload" href={href} />)}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function Shell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const data = useRouteLoaderData<typeof loader>("root");
  const { preference } = useTheme(data?.theme ?? "dark");
  const user = useShellUser(data);
  // The page's controls answer from here on: tools that drive the page (the end-to-end tests) wait for
  // it, since a change made in the instant hydration ends can reach React with the page's old value.
  // The code of the pages it links to is then fetched, so that they open offline too (app/lib/route-preload.ts).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
    preloadRouteCode(window);
  }, []);
  return (
    <div className="flex min-h-dvh flex-col">
      <NavigationProgress />
      <a
        href="#main"
        className="sr-only rounded-md bg-primary-600 px-3 py-2 text-on-primary-600 focus:not-sr-only focus:absolute focus:start-2 focus:top-2 focus:z-50"
      >
        {t("nav.skipToContent")}
      </a>
      <SiteHeader
        title={data?.config.title ?? t("app.name")}
        logoUrl={data?.config.logoUrl ?? null}
        user={user}
        theme={preference}
      />
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-8">
        {children}
      </main>
      <RouteAnnouncer />
      {data?.config.footerHtml ? (
        <footer className="border-t border-zinc-200 px-4 py-6 text-sm text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
          <MarkdownHtml html={data.config.footerHtml} className="mx-auto max-w-7xl text-center text-sm text-zinc-600 dark:text-zinc-400" />
        </footer>
      ) : null}
    </div>
  );
}

export default function App({ loaderData: { locale } }: Route.ComponentProps) {
  const { i18n } = useTranslation();

  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
  }, [locale, i18n]);

  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

const REACHABLE_POLL_MS = 3000;

/** Opening a challenge (`?challenge=` on the challenge page) changes nothing the root loads. */
export function shouldRevalidate(args: ShouldRevalidateFunctionArgs) {
  const { currentUrl, nextUrl, defaultShouldRevalidate } = args;
  // An action that changed nothing reads nothing again (app/lib/revalidate.ts).
  if (!keepAfterUnchanged(args)) return false;
  return onlyParamChanged(currentUrl, nextUrl, "challenge") ? false : defaultShouldRevalidate;
}

/** Says that it retries, and reloads the page once the server answers again. */
function ReloadWhenReachable() {
  const { t } = useTranslation();
  useEffect(() => {
    const timer = setInterval(() => {
      fetch("/api/config", { cache: "no-store" }).then(
        (r) => {
          if (r.ok) window.location.reload();
        },
        () => undefined,
      );
    }, REACHABLE_POLL_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
      {t("error.retrying")}
    </p>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();

  let heading = t("error.title");
  let message = t("error.unexpected");
  let stack: string | undefined;
  // A page's own read refused after it was shown (app/lib/session-end.ts ACCESS_ENDED: the role was taken
  // away, the game deleted) ends the page as its loader's refusal would have.
  const goneOrForbidden = isApiError(error) && (error.status === 404 || error.status === 403);
  if (isRouteErrorResponse(error) || goneOrForbidden) {
    // Other statuses come from the router itself (a 405 for a POST to a page without an action, a 400 for a
    // malformed data request); their text is the router's, in English and naming its routes: not shown.
    heading = error.status === 404 ? t("notFound.title") : error.status === 403 ? t("forbidden.title") : t("error.title");
    message = error.status === 404 ? t("notFound.message") : error.status === 403 ? t("forbidden.message") : t("error.unexpected");
  } else if (isNetworkError(error)) {
    // The server could not be reached (a navigation's data or code): no stack, and the page comes back by
    // itself once the server answers again.
    heading = t("error.offlineTitle");
    message = t("error.offline");
  } else if (error instanceof Error) {
    // In production React Router replaces server errors with a bare "Unexpected Server Error" and no
    // stack, so only errors raised in the browser show their details.
    if (error.message && error.message !== "Unexpected Server Error") message = error.message;
    else message = t("error.server");
    stack = error.stack;
  }
  const notFoundOrForbidden = goneOrForbidden || (isRouteErrorResponse(error) && (error.status === 404 || error.status === 403));
  // The tab and a screen reader's page title say what happened, not only the site's name.
  const siteTitle = useRouteLoaderData<typeof loader>("root")?.config.title ?? "Flagstaff";
  useEffect(() => {
    document.title = `${heading} · ${siteTitle}`;
  }, [heading, siteTitle]);
  // A page's data was refused because the session ended (signed out in another tab, or a page from the
  // browser's history): that is no failure to show, the page asks for a sign-in and comes back after it,
  // in place of this entry. The lists kept in the browser were the old session's.
  const location = useLocation();
  const signedOut = isApiError(error) && error.status === 401;
  useEffect(() => {
    if (!signedOut) return;
    clearListCaches();
    forgetShellUser();
  }, [signedOut]);
  if (signedOut) return <Navigate replace to={loginPath(new URL(`${location.pathname}${location.search}`, "http://page.invalid"))} />;

  return (
    <Shell>
      <div className="mx-auto max-w-3xl space-y-6">
        <div className="space-y-2">
          <h1 className="text-3xl font-bold tracking-tight">{heading}</h1>
          <p className="text-zinc-700 dark:text-zinc-300">{message}</p>
        </div>
        {stack ? (
          <details open className="rounded-md border border-zinc-200 dark:border-zinc-800">
            <summary className="cursor-pointer px-4 py-2 text-sm font-medium">{t("error.stack")}</summary>
            <pre className="overflow-x-auto px-4 pb-4 font-mono text-xs leading-relaxed text-zinc-700 dark:text-zinc-300">
              {stack}
            </pre>
          </details>
        ) : null}
        {isNetworkError(error) ? <ReloadWhenReachable /> : null}
        <div className="flex flex-wrap gap-3">
          {notFoundOrForbidden ? (
            <a href="/" className={buttonClass("primary")}>
              {t("notFound.home")}
            </a>
          ) : (
            <>
              <Button onClick={() => window.location.reload()}>{t("error.tryAgain")}</Button>
              <Button variant="secondary" onClick={clearCacheAndReload}>
                {t("nav.clearCache")}
              </Button>
            </>
          )}
        </div>
      </div>
    </Shell>
  );
}
