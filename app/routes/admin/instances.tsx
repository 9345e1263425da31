import { env } from "cloudflare:workers";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/auth/guard";
import type { AdminInstance } from "~/.server/services/containers";
import { formatDateTime } from "~/components/games/time";
import { ConfirmDialog } from "~/components/teams/dialog";
import { LoadingStatus } from "~/components/teams/loading";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { api, errorMessage } from "~/lib/api";
import { formatInstanceSummary } from "~/lib/instance-summary";
import { REFRESH_MS, useCachedList } from "~/lib/list-cache";
import { ACCESS_ENDED } from "~/lib/session-end";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/instances";

/** One row of GET /api/admin/instances. */
type Instance = AdminInstance;

interface AgentRow {
  url: string;
  agentId: string | null;
  reachable: boolean;
  capacity: number | null;
  running: number | null;
  storageQuota: boolean | null;
  error: string | null;
}

interface InstancesView {
  instances: Instance[];
  agents: AgentRow[];
}

async function fetchInstances(signal: AbortSignal): Promise<InstancesView> {
  const [instances, agents] = await Promise.all([api<{ data: Instance[] }>("/api/admin/instances", { signal }), api<AgentRow[]>("/api/admin/agents", { signal })]);
  return { instances: instances.data, agents };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  return { pageTitle: getInstance(context).t("adminInstances.title") };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** Counts for the summary line: live team containers only (the API already leaves out test containers and destroyed ones). */
export function instanceStats(list: Pick<Instance, "team" | "challenge" | "agentReachable">[]) {
  return {
    total: list.length,
    teams: new Set(list.map((i) => i.team.id)).size,
    challenges: new Set(list.map((i) => i.challenge.id)).size,
    unreachable: list.filter((i) => !i.agentReachable).length,
  };
}

/** /admin/instances: running team containers with their team, challenge, image, entry and times; destroy one. */
export default function AdminInstancesPage() {
  const { t } = useTranslation();
  const [pending, setPending] = useState<Instance | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  // Refreshed every 30 s (rules.md §15), keeping the rows on screen meanwhile. Not kept in the browser cache:
  // containers come and go within minutes, so an old list would only mislead.
  const live = useCachedList<InstancesView | null>("admin-instances", fetchInstances, {
    initial: null,
    stale: true,
    refreshMs: REFRESH_MS.instances,
    persist: false,
    endsOn: ACCESS_ENDED,
  });
  const list = live.data?.instances ?? null;
  const agents = live.data?.agents ?? [];
  const error = live.error ? errorMessage(live.error) : null;
  const load = () => void live.refresh();

  const destroy = async () => {
    if (!pending) return;
    setBusy(true);
    setDialogError(null);
    try {
      const r = await api<{ title: string }>(`/api/admin/instances/${pending.containerGuid}`, { method: "DELETE" });
      setNotice(r.title);
      setPending(null);
      load();
    } catch (err) {
      setDialogError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const stats = list ? instanceStats(list) : null;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t("adminInstances.title")}</h1>
          {stats ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="instance-stats">
              {formatInstanceSummary(t, stats)}
              {stats.unreachable > 0 ? ` · ${t("adminInstances.unreachableCount", { count: stats.unreachable })}` : ""}
            </p>
          ) : null}
        </div>
        <Button variant="secondary" onClick={load}>
          {t("adminInstances.refresh")}
        </Button>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {agents.length === 0 && list ? <Alert>{t("adminInstances.noAgents")}</Alert> : null}
      {agents.length > 0 ? (
        <Card className="space-y-2">
          <h2 className="text-sm font-semibold">{t("adminInstances.agents")}</h2>
          <ul className="space-y-1 text-sm">
            {agents.map((a) => (
              <li key={a.url} className="flex flex-wrap gap-x-3">
                <span className="font-mono">{a.agentId ?? a.url}</span>
                <span className={a.reachable ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400"}>
                  {a.reachable ? t("adminInstances.agentUp", { running: a.running ?? 0, capacity: a.capacity ?? 0 }) : t("adminInstances.agentDown")}
                </span>
                {a.reachable && a.storageQuota === false ? <span className="text-zinc-600 dark:text-zinc-400">{t("adminInstances.noStorageQuota")}</span> : null}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      {!list && !error ? <LoadingStatus /> : null}
      {list && list.length === 0 ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("adminInstances.empty")}</p> : null}
      {list && list.length > 0 ? (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-zinc-200 text-xs text-zinc-600 uppercase dark:border-zinc-800 dark:text-zinc-400">
              <tr>
                <th className="px-2 py-2">{t("adminInstances.team")}</th>
                <th className="px-2 py-2">{t("adminInstances.challenge")}</th>
                <th className="px-2 py-2">{t("adminInstances.image")}</th>
                <th className="px-2 py-2">{t("adminInstances.entry")}</th>
                <th className="px-2 py-2">{t("adminInstances.started")}</th>
                <th className="px-2 py-2">{t("adminInstances.expires")}</th>
                <th className="px-2 py-2">{t("adminInstances.status")}</th>
                <th className="px-2 py-2">
                  <span className="sr-only">{t("adminInstances.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((i) => (
                <tr key={i.containerGuid} className="border-b border-zinc-100 dark:border-zinc-900">
                  <td className="px-2 py-2">{i.team.name}</td>
                  <td className="px-2 py-2">
                    {i.challenge.title}
                    <span className="block text-xs text-zinc-600 dark:text-zinc-400">{i.game.title}</span>
                  </td>
                  <td className="px-2 py-2 font-mono text-xs">{i.image}</td>
                  <td className="px-2 py-2 font-mono text-xs">
                    {i.ip}:{i.port}
                    <span className="block text-zinc-600 dark:text-zinc-400" title={i.containerId}>
                      {i.containerGuid}
                    </span>
                  </td>
                  <td className="px-2 py-2 whitespace-nowrap">{formatDateTime(i.startedAt)}</td>
                  <td className="px-2 py-2 whitespace-nowrap">{formatDateTime(i.expectStopAt)}</td>
                  <td className="px-2 py-2">
                    {i.agentReachable ? (
                      t(`adminInstances.state.${i.status === "Pending" ? "Pending" : "Running"}`)
                    ) : (
                      <span className="text-red-700 dark:text-red-400">{t("adminInstances.state.unreachable")}</span>
                    )}
                  </td>
                  <td className="px-2 py-2">
                    <Button variant="danger" className="px-2 py-1" onClick={() => setPending(i)} aria-label={t("adminInstances.destroyOf", { team: i.team.name, challenge: i.challenge.title })}>
                      {t("adminInstances.destroy")}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <ConfirmDialog
        open={pending !== null}
        title={t("adminInstances.destroyTitle")}
        message={pending ? t("adminInstances.destroyConfirm", { team: pending.team.name, challenge: pending.challenge.title }) : ""}
        confirmLabel={t("adminInstances.destroy")}
        busy={busy}
        error={dialogError}
        onConfirm={() => void destroy()}
        onCancel={() => {
          setPending(null);
          setDialogError(null);
        }}
      />
    </div>
  );
}
