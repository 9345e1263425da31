import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatCountdown, formatDateTime, useNow } from "~/components/games/time";
import { ConfirmDialog } from "~/components/teams/dialog";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { CopyButton } from "~/components/ui/copy-button";
import { portMappingOfEntry } from "~/core/container-entry";
import type { ClientConfig } from "~/core/schemas/config";
import { api, errorMessage } from "~/lib/api";

/** ContainerInfoModel (api.md §4). */
export interface ContainerInfo {
  status: string;
  startedAt: number;
  expectStopAt: number;
  entry: string;
}

type Policy = Pick<ClientConfig, "renewalWindow">;

let policyRequest: Promise<Policy> | null = null;
/** The client config's container fields (fetched once per page load). */
function loadPolicy(): Promise<Policy> {
  policyRequest ??= api<ClientConfig>("/api/config").catch((error: unknown) => {
    policyRequest = null;
    throw error;
  });
  return policyRequest;
}

/** When the panel reads the challenge again after a failed action (ms after the failure). */
const STALE_RECHECKS_MS = [0, 3_000, 8_000];

/** Whether the extension is open: inside the renewal window before expiry (rules.md §8). */
export function canExtend(expectStopAt: number, now: number, renewalWindowMinutes: number): boolean {
  return expectStopAt - now <= renewalWindowMinutes * 60_000;
}

/** The WebSocket address of a proxied entry (PlatformProxy: the entry is the instance UUID). */
export function proxyAddress(origin: string, entry: string, testContainer = false): string {
  return `${origin.replace(/^http/, "ws")}/api/proxy/${testContainer ? "noinst/" : ""}${entry}`;
}

/**
 * A team's container of a container challenge: start it, see its entry and a countdown, extend it near
 * expiry, destroy it. `entry`/`closeTime` come from the challenge detail (null when none runs).
 */
export function ContainerPanel({
  gameId,
  challengeId,
  entry,
  closeTime,
  removedAt = null,
  reading,
  onStale,
  preview = false,
}: {
  gameId: number;
  challengeId: number;
  entry: string | null;
  closeTime: number | null;
  /**
   * When the game removes the container whatever its expiry (its end, outside practice mode; rules.md §8), or
   * null. Before `closeTime`, it is the time shown: an extension then cannot keep the container longer.
   */
  removedAt?: number | null;
  /** The reading of the challenge `entry` and `closeTime` come from: each new one (a new object) resets the panel. */
  reading?: object;
  /** Asks the page to read the challenge again: an action failed, so the team's container is not what this panel shows. */
  onStale?: () => void;
  /** The admin's preview of a challenge: the panel as a team without a container sees it, its button disabled. */
  preview?: boolean;
}) {
  const { t } = useTranslation();
  const now = useNow(1000);
  const [started, setInfo] = useState<{ entry: string; expectStopAt: number } | null>(entry && closeTime ? { entry, expectStopAt: closeTime } : null);
  const [error, setError] = useState<string | null>(null);
  // An extension's success, with the new expiry (shown until the next action or another container).
  const [extendedTo, setExtendedTo] = useState<number | null>(null);
  const [confirmDestroy, setConfirmDestroy] = useState(false);
  // A new reading of the challenge (after a failed action, a teammate's start or destroy) replaces what
  // this panel showed: it then shows what the team really has. The failure's message stays unless the
  // reading shows another container than the panel did (the re-read right after a failed start showed
  // the same "no container" and wiped the message within 0.1 s).
  const [seen, setSeen] = useState(reading);
  if (seen !== reading) {
    setSeen(reading);
    const next = entry && closeTime ? { entry, expectStopAt: closeTime } : null;
    if ((next?.entry ?? null) !== (started?.entry ?? null)) {
      setError(null);
      setExtendedTo(null);
    }
    setInfo(next);
  }
  const [copyFailed, setCopyFailed] = useState(false);
  const rechecks = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => rechecks.current.forEach(clearTimeout), []);
  const [policy, setPolicy] = useState<Policy | null>(null);
  const [busy, setBusy] = useState<"start" | "extend" | "destroy" | null>(null);
  // Start and Destroy replace the button that was pressed: the focus goes to what took its place (else it
  // falls to the page's body), and a polite status says what happened.
  const [said, setSaid] = useState("");
  const focusNext = useRef<"details" | "start" | null>(null);
  const details = useRef<HTMLDivElement>(null);
  const startButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const target = focusNext.current === "details" ? details.current : focusNext.current === "start" ? startButton.current : null;
    if (!target) return;
    focusNext.current = null;
    target.focus();
  });

  useEffect(() => {
    let live = true;
    loadPolicy()
      .then((p) => live && setPolicy(p))
      .catch(() => live && setPolicy({ renewalWindow: 10 }));
    return () => {
      live = false;
    };
  }, []);

  /** When a container set to stop at `expiry` really goes: the game's end, when that comes first. */
  const goneAt = (expiry: number) => (removedAt !== null && removedAt < expiry ? removedAt : expiry);
  // The game's end comes first: the container goes then, and no extension keeps it.
  const stopAt = started === null ? null : goneAt(started.expectStopAt);
  const endsFirst = started !== null && stopAt !== started.expectStopAt;
  // Past its expiry the agent removes it: shown as expired until the team starts a new one.
  const expired = stopAt !== null && now !== null && now >= stopAt;
  const info = expired ? null : started;

  const base = `/api/game/${gameId}/container/${challengeId}`;
  const run = async (kind: "start" | "extend" | "destroy") => {
    setBusy(kind);
    setError(null);
    setExtendedTo(null);
    setSaid("");
    try {
      if (kind === "destroy") {
        await api(base, { method: "DELETE" });
        setConfirmDestroy(false);
        setInfo(null);
        focusNext.current = "start";
        setSaid(t("container.destroyed"));
      } else {
        const r = await api<ContainerInfo>(kind === "start" ? base : `${base}/extend`, { method: "POST" });
        setInfo({ entry: r.entry, expectStopAt: r.expectStopAt });
        if (kind === "start") {
          focusNext.current = "details";
          setSaid(t("container.started"));
        } else {
          setExtendedTo(r.expectStopAt);
        }
      }
    } catch (err) {
      // A refused destruction is said in the panel (and the challenge read again), not in the dialog.
      setConfirmDestroy(false);
      setError(errorMessage(err));
      // Read again now, and twice more: a teammate's start may still be on its way to a running container.
      if (onStale) for (const delay of STALE_RECHECKS_MS) rechecks.current.push(setTimeout(onStale, delay));
    } finally {
      setBusy(null);
    }
  };

  const remaining = info && stopAt !== null && now !== null ? stopAt - now : null;
  const extendOpen = info && policy && now !== null && !endsFirst ? canExtend(info.expectStopAt, now, policy.renewalWindow) : false;
  // The entry's own form, not the current setting: a container keeps the mapping it was started with.
  const proxied = info ? portMappingOfEntry(info.entry) === "PlatformProxy" : false;
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const address = info ? (proxied ? proxyAddress(origin, info.entry) : info.entry) : "";

  return (
    <section aria-label={t("container.heading")} className="space-y-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <h3 className="text-sm font-semibold">{t("container.heading")}</h3>
      <p role="status" className="sr-only">
        {said}
      </p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {info && extendedTo !== null ? (
        <Alert tone="success">{t("container.extended", { time: formatDateTime(goneAt(extendedTo)) })}</Alert>
      ) : null}
      {copyFailed ? <Alert tone="error">{t("container.copyFailed")}</Alert> : null}
      {info ? (
        <div ref={details} tabIndex={-1} className="space-y-3 focus:outline-none" data-testid="container-details">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-zinc-600 dark:text-zinc-400">{t("container.entry")}</dt>
            <dd className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <code className="font-mono break-all" data-testid="container-entry">
                {info.entry}
              </code>
              <CopyButton variant="link" text={address} onFailure={() => setCopyFailed(true)} onCopied={() => setCopyFailed(false)} />
              {proxied ? null : (
                <a href={`http://${info.entry}`} target="_blank" rel="noopener noreferrer" className="touch-target inline-flex items-center text-xs font-medium text-primary-700 hover:underline dark:text-primary-300">
                  {t("container.open")}
                </a>
              )}
            </dd>
            <dt className="text-zinc-600 dark:text-zinc-400">{t("container.expiresAt")}</dt>
            <dd>{formatDateTime(stopAt ?? info.expectStopAt)}</dd>
            <dt className="text-zinc-600 dark:text-zinc-400">{t("container.remaining")}</dt>
            <dd className="font-mono">
              {/* The timer role on a span: a definition list's items may carry no role of their own. */}
              <span role="timer" aria-label={t("container.remaining")}>
                {remaining === null ? "—" : formatCountdown(remaining, t)}
              </span>
            </dd>
          </dl>
          {proxied ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("container.proxyHint", { url: proxyAddress(origin, info.entry) })}</p> : null}
          {endsFirst ? (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("container.removedAtEnd")}</p>
          ) : policy ? (
            extendOpen ? (
              <Alert tone="error">{t("container.expiringSoon")}</Alert>
            ) : (
              <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("container.extendHint", { min: policy.renewalWindow })}</p>
            )
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => void run("extend")} disabled={busy !== null || !extendOpen}>
              {busy === "extend" ? t("container.extending") : t("container.extend")}
            </Button>
            <Button variant="danger" onClick={() => setConfirmDestroy(true)} disabled={busy !== null}>
              {busy === "destroy" ? t("container.destroying") : t("container.destroy")}
            </Button>
          </div>
        </div>
      ) : (
        <>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{expired ? t("container.expired") : t("container.none")}</p>
          <Button ref={startButton} onClick={() => void run("start")} disabled={busy !== null || preview}>
            {busy === "start" ? t("container.starting") : t("container.start")}
          </Button>
        </>
      )}
      <ConfirmDialog
        open={confirmDestroy && info !== null}
        title={t("container.destroyTitle")}
        message={t("container.destroyConfirm")}
        confirmLabel={t("container.destroy")}
        busy={busy === "destroy"}
        error={null}
        onConfirm={() => void run("destroy")}
        onCancel={() => setConfirmDestroy(false)}
      />
    </section>
  );
}
