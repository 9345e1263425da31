import { useTranslation } from "react-i18next";
import { ContainerPanel } from "~/components/containers/container-panel";
import { Markdown } from "~/components/markdown";
import { formatDateTime } from "~/components/games/time";
import { Alert } from "~/components/ui/alert";
import { Slotted } from "~/components/ui/slotted";
import { isContainerType } from "~/core/enums";
import type { ChallengeDetail } from "~/core/schemas/challenge";
import { FlagInput } from "./flag-input";

/** A byte count as B / KiB / MiB / GiB. */
export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** What the attempts line says: tried so far, attempts left, or none left (limit 0 = unlimited). */
export function attemptsState(limit: number, attempts: number): { key: "tried" | "left" | "usedUp"; count: number } | null {
  if (limit > 0) return attempts >= limit ? { key: "usedUp", count: 0 } : { key: "left", count: limit - attempts };
  return attempts > 0 ? { key: "tried", count: attempts } : null;
}

/**
 * The player's view of one challenge: description, hints, attachment, deadline, container, attempts and the
 * flag box. Without `submit` (the admin preview) the flag box and the container's Start are shown disabled.
 */
export function ChallengeView({
  detail,
  now,
  submit,
  onRefused,
  gameId,
  reload,
  solved = false,
  unscored = false,
  containerRemovedAt = null,
}: {
  detail: ChallengeDetail;
  now: number | null;
  submit?: (flag: string) => Promise<void>;
  /** The flag box refused a flag (empty, too long, or by the server): a verdict shown for an earlier one goes. */
  onRefused?: () => void;
  gameId?: number;
  /** Reads the challenge again (its container's state may have changed: a teammate started or destroyed it). */
  reload?: () => void;
  /** The team has solved it: no more flags to send (each would count as an attempt). */
  solved?: boolean;
  /** That solve earned no points (after the end in practice mode, after the deadline; rules.md §4). */
  unscored?: boolean;
  /** When the game removes the team's container whatever its expiry: its end, unless in practice mode. */
  containerRemovedAt?: number | null;
}) {
  const { t } = useTranslation();
  const attempts = attemptsState(detail.limit, detail.attempts);
  const { url, fileSize } = detail.context;
  const local = url?.startsWith("/assets/") ?? false;
  const deadlinePassed = detail.deadline != null && now != null && now > detail.deadline;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {t(`challenge.category.${detail.category}`)} · {t(`challenge.type.${detail.type}`)}
        </p>
        <p className="font-mono text-lg font-semibold">{t("challenge.points", { count: detail.score })}</p>
      </div>
      {detail.deadline != null ? (
        <Alert tone={deadlinePassed ? "error" : "info"}>
          {deadlinePassed ? t("challenge.deadlinePassed") : t("challenge.deadlineAt", { time: formatDateTime(detail.deadline) })}
        </Alert>
      ) : null}
      {detail.content.trim() ? <Markdown source={detail.content} /> : <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("challenge.noDescription")}</p>}
      {detail.hints.length > 0 ? (
        <section aria-label={t("challenge.hints")} className="space-y-1">
          <h3 className="text-sm font-semibold">{t("challenge.hints")}</h3>
          <ul className="list-disc space-y-1 ps-5 text-sm">
            {detail.hints.map((hint, i) => (
              <li key={i}>{hint}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {url ? (
        <p className="text-sm">
          <a
            href={url}
            className="touch-target inline-flex items-center font-medium text-primary-700 underline underline-offset-2 dark:text-primary-300"
            {...(local ? { download: "" } : { target: "_blank", rel: "noopener noreferrer" })}
          >
            {local ? t("challenge.download") : t("challenge.openLink")}
          </a>
          {fileSize != null ? <span className="ms-2 text-zinc-600 dark:text-zinc-400">{t("challenge.fileSize", { size: formatBytes(fileSize) })}</span> : null}
        </p>
      ) : null}
      {gameId !== undefined && isContainerType(detail.type) ? (
        <ContainerPanel gameId={gameId} challengeId={detail.id} entry={detail.context.instanceEntry} closeTime={detail.context.closeTime} removedAt={containerRemovedAt} reading={detail.context} onStale={reload} />
      ) : !submit && isContainerType(detail.type) ? (
        <ContainerPanel gameId={0} challengeId={detail.id} entry={null} closeTime={null} preview />
      ) : detail.context.instanceEntry ? (
        <p className="text-sm">
          <Slotted text={(entry) => t("challenge.instanceEntryLine", { entry })}>
            <code className="font-mono">{detail.context.instanceEntry}</code>
          </Slotted>
        </p>
      ) : null}
      {solved ? (
        <p className="text-sm font-medium text-emerald-700 dark:text-emerald-400" data-testid="challenge-solved">
          ✓ {t(unscored ? "challenge.solvedByTeamNotScored" : "challenge.solvedByTeam")}
        </p>
      ) : (
        <>
          {attempts ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t(`challenge.attempts.${attempts.key}`, { count: attempts.count })}</p> : null}
          <FlagInput submit={submit ?? (async () => undefined)} onRefused={onRefused} disabled={!submit || attempts?.key === "usedUp"} />
        </>
      )}
    </div>
  );
}
