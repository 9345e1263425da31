import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "~/components/games/time";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { portMappingOfEntry } from "~/core/container-entry";
import type { ChallengeEditDetail } from "~/core/schemas/challenge";
import { api, errorMessage } from "~/lib/api";
import { proxyAddress } from "./container-panel";

type TestContainer = NonNullable<ChallengeEditDetail["testContainer"]>;

/** How often a test container still starting (another tab's start, or this page loaded during one) is read again. */
const PENDING_RECHECK_MS = 1_500;

/** The admin test container of a container challenge (api.md §9): start and stop it, see its entry and test flag. */
export function TestContainerControls({ gameId, challengeId, initial }: { gameId: number; challengeId: number; initial: TestContainer | null }) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState<TestContainer | null>(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const url = `/api/edit/games/${gameId}/challenges/${challengeId}/container`;
  const run = async (start: boolean) => {
    setBusy(true);
    setError(null);
    try {
      if (start) setCurrent(await api<TestContainer>(url, { method: "POST" }));
      else {
        await api(url, { method: "DELETE" });
        setCurrent(null);
      }
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  // A container still starting has no entry yet: the panel says so and reads the challenge again until it
  // runs (its entry shows) or is gone (a failed start leaves no row).
  const pending = current?.status === "Pending";
  useEffect(() => {
    if (!pending) return;
    let stopped = false;
    const timer = setInterval(() => {
      api<ChallengeEditDetail>(`/api/edit/games/${gameId}/challenges/${challengeId}`)
        .then((detail) => {
          if (!stopped) setCurrent(detail.testContainer);
        })
        .catch(() => undefined);
    }, PENDING_RECHECK_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [pending, gameId, challengeId]);

  return (
    <section aria-label={t("testContainer.heading")} className="space-y-3">
      <h3 className="font-semibold">{t("testContainer.heading")}</h3>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("testContainer.help")}</p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {current ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-zinc-600 dark:text-zinc-400">{t("container.entry")}</dt>
          <dd>
            {pending ? (
              <span role="status" data-testid="test-container-starting">
                {t("testContainer.starting")}
              </span>
            ) : (
              <>
                <code className="font-mono break-all" data-testid="test-container-entry">
                  {current.entry}
                </code>
                {portMappingOfEntry(current.entry) === "PlatformProxy" ? <span className="block text-xs text-zinc-600 dark:text-zinc-400">{proxyAddress(origin, current.entry, true)}</span> : null}
              </>
            )}
          </dd>
          <dt className="text-zinc-600 dark:text-zinc-400">{t("testContainer.flag")}</dt>
          <dd>
            <code className="font-mono break-all">{current.testFlag ?? t("testContainer.noFlag")}</code>
          </dd>
          <dt className="text-zinc-600 dark:text-zinc-400">{t("container.expiresAt")}</dt>
          <dd>{formatDateTime(current.expectStopAt)}</dd>
        </dl>
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("testContainer.none")}</p>
      )}
      <div className="flex gap-2">
        {current ? (
          <Button variant="danger" onClick={() => void run(false)} disabled={busy}>
            {busy ? t("teams.working") : t("testContainer.stop")}
          </Button>
        ) : (
          <Button variant="secondary" onClick={() => void run(true)} disabled={busy}>
            {busy ? t("testContainer.starting") : t("testContainer.start")}
          </Button>
        )}
      </div>
    </section>
  );
}
