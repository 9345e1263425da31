import { env } from "cloudflare:workers";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { formatDateTime } from "~/components/admin/user-types";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { selectClass } from "~/components/ui/select";
import { LOG_LEVELS, type LogLevel } from "~/core/enums";
import { type LogRenderOptions, renderLogText } from "~/core/log-messages";
import type { LogMessage } from "~/core/protocol";
import { arrayOf, recordWith } from "~/core/ui/list-shape";
import { liveRowsToKeep } from "~/core/ui/live-rows";
import { type SocketState, connectAdminLogs } from "~/lib/admin-log-socket";
import { api } from "~/lib/api";
import { loadCached, useCachedList } from "~/lib/list-cache";
import { ACCESS_ENDED } from "~/lib/session-end";
import { pageTitle } from "~/lib/meta";
import { pageReadsSince } from "~/lib/page-reads";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/logs";

const PAGE_SIZE = 50;
/** Live records kept on the first page before the oldest drop off. */
const LIVE_MAX = 200;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  return { pageTitle: getInstance(context).t("adminLogs.title") };
}

const parseLevel = (raw: string | null): LogLevel =>
  LOG_LEVELS.find((l) => l.toLowerCase() === (raw ?? "").toLowerCase()) ?? "All";

const fetchLogs = (level: LogLevel, page: number, signal?: AbortSignal) =>
  api<LogMessage[]>(`/api/admin/logs?level=${level}&count=${PAGE_SIZE + 1}&skip=${(page - 1) * PAGE_SIZE}`, { signal });
/** The first page of each level is cached in the browser (rules.md §15); newer records arrive over the socket. */
const firstPageKey = (level: LogLevel) => `admin-logs:${level}`;
/** What the page reads of a page of logs: anything else is neither cached nor shown. */
const LOGS_SHAPE = arrayOf(recordWith<LogMessage>({ time: "number", level: "string", msg: "string" }));

/** One page (plus one record, to know whether a next page exists) read from the API in the browser. */
export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  const url = new URL(request.url);
  const level = parseLevel(url.searchParams.get("level"));
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const [server, loaded] = await Promise.all([
    serverLoader(),
    page === 1
      ? loadCached(firstPageKey(level), () => fetchLogs(level, page, request.signal), LOGS_SHAPE)
      : fetchLogs(level, page, request.signal).then((data) => ({ data, fromCache: false })),
  ]);
  const rows = loaded.data;
  return { ...server, logs: rows.slice(0, PAGE_SIZE), hasNext: rows.length > PAGE_SIZE, level, page, fromCache: loaded.fromCache };
}
clientLoader.hydrate = true as const;

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

const levelTone: Record<LogMessage["level"], string> = {
  Debug: "text-zinc-500 dark:text-zinc-400",
  Information: "text-sky-700 dark:text-sky-300",
  Warning: "text-amber-700 dark:text-amber-300",
  Error: "text-red-700 dark:text-red-400",
  Fatal: "font-semibold text-red-800 dark:text-red-300",
};

export default function AdminLogsPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  // A record with a message key reads in the admin's language; older records show their stored text.
  const reader: LogRenderOptions = { t: (key, options) => t(key, options), exists: (key) => i18n.exists(key), mode: "reader", formatTime: formatDateTime };
  const messageOf = (log: LogMessage) => renderLogText(log.key, log.params, reader) ?? log.msg;
  const [searchParams, setSearchParams] = useSearchParams();
  const loaded = "logs" in loaderData ? loaderData : null;
  // A first page from the cache is read again once (the socket only brings records from now on).
  const firstPage = useCachedList(
    firstPageKey(loaded?.level ?? "All"),
    (signal) => fetchLogs(loaded?.level ?? "All", 1, signal),
    { initial: loaded ? loaded.logs : null, stale: Boolean(loaded?.fromCache) && loaded?.page === 1, refreshMs: 0, shape: LOGS_SHAPE, endsOn: ACCESS_ENDED },
  );
  const data = loaded && firstPage.data ? { ...loaded, logs: firstPage.data.slice(0, PAGE_SIZE), hasNext: loaded.page === 1 ? firstPage.data.length > PAGE_SIZE || loaded.hasNext : loaded.hasNext } : null;
  const [live, setLive] = useState<LogMessage[]>([]);
  const [socketState, setSocketState] = useState<SocketState>("connecting");
  const level = data?.level ?? "All";
  const onFirstPage = (data?.page ?? 1) === 1;

  // A new page, filter or reload starts from the server's list again, keeping the pushed rows it does not
  // hold yet (its read may have been answered before they were written).
  const [liveBase, setLiveBase] = useState(firstPage.data);
  if (liveBase !== firstPage.data) {
    setLiveBase(firstPage.data);
    setLive((prev) => liveRowsToKeep(prev, firstPage.data ?? [], level));
  }

  // The socket only brings records from now on: after a reconnect, read the first page again.
  const refreshFirstPage = useRef(firstPage.refresh);
  useEffect(() => {
    refreshFirstPage.current = firstPage.refresh;
  });
  useEffect(() => {
    if (!onFirstPage) return;
    return connectAdminLogs({
      since: pageReadsSince(),
      onState: setSocketState,
      onResync: () => void refreshFirstPage.current(),
      onLog: (log) => {
        if (level !== "All" && log.level !== level) return;
        setLive((prev) => [log, ...prev].slice(0, LIVE_MAX));
      },
    });
  }, [onFirstPage, level]);

  const heading = <h1 className="text-2xl font-semibold tracking-tight">{t("adminLogs.title")}</h1>;
  if (!data) {
    return (
      <div className="space-y-6">
        {heading}
        <p role="status" className="py-12 text-center text-zinc-600 dark:text-zinc-400">
          {t("common.loading")}
        </p>
      </div>
    );
  }

  const { page, hasNext } = data;
  const rows = onFirstPage ? [...live, ...data.logs] : data.logs;
  const pageLink = (n: number) => {
    const next = new URLSearchParams(searchParams);
    next.set("page", String(n));
    return `?${next.toString()}`;
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          {heading}
          {onFirstPage ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400" role="status" data-testid="log-socket-state">
              {t(`adminLogs.socket.${socketState}`)}
            </p>
          ) : null}
        </div>
        <label className="flex items-center gap-2 text-sm">
          <span>{t("adminLogs.level")}</span>
          <select
            className={selectClass}
            value={level}
            onChange={(e) => {
              const next = new URLSearchParams(searchParams);
              next.set("level", e.target.value);
              next.delete("page");
              setSearchParams(next);
            }}
          >
            {LOG_LEVELS.map((l) => (
              <option key={l} value={l}>
                {t(`adminLogs.levels.${l}`)}
              </option>
            ))}
          </select>
        </label>
      </div>

      {rows.length === 0 ? (
        <Card className="text-center">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("adminLogs.empty")}</p>
        </Card>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
          <table className="w-full text-left text-sm">
            <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
              <tr>
                <th scope="col" className="px-4 py-3 whitespace-nowrap">{t("adminLogs.time")}</th>
                <th scope="col" className="px-4 py-3 whitespace-nowrap">{t("adminLogs.level")}</th>
                <th scope="col" className="px-4 py-3 whitespace-nowrap">{t("adminLogs.user")}</th>
                <th scope="col" className="px-4 py-3 whitespace-nowrap">{t("adminLogs.ip")}</th>
                <th scope="col" className="px-4 py-3 whitespace-nowrap">{t("adminLogs.message")}</th>
                <th scope="col" className="px-4 py-3 whitespace-nowrap">{t("adminLogs.status")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 font-mono text-xs dark:divide-zinc-800">
              {rows.map((log, i) => (
                <tr key={`${log.time}-${i}-${log.msg}`} data-testid="log-row">
                  <td className="whitespace-nowrap px-4 py-2 tabular-nums">{formatDateTime(log.time)}</td>
                  <td className={`whitespace-nowrap px-4 py-2 ${levelTone[log.level]}`}>{t(`adminLogs.levels.${log.level}`)}</td>
                  <td className="px-4 py-2 whitespace-nowrap">{log.name ?? "—"}</td>
                  <td className="whitespace-nowrap px-4 py-2">{log.ip ?? "—"}</td>
                  <td className="px-4 py-2 break-words">{messageOf(log)}</td>
                  <td className="whitespace-nowrap px-4 py-2">{log.status ? t(`adminLogs.statuses.${log.status}`) : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {page > 1 || hasNext ? (
        <nav aria-label={t("adminLogs.pagination")} className="flex items-center justify-center gap-3 text-sm">
          {page > 1 ? (
            <Link className={buttonClass("secondary")} to={pageLink(page - 1)}>
              {t("adminLogs.previous")}
            </Link>
          ) : null}
          <span>{t("adminLogs.page", { page })}</span>
          {hasNext ? (
            <Link className={buttonClass("secondary")} to={pageLink(page + 1)}>
              {t("adminLogs.next")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
