import { useTranslation } from "react-i18next";
import type { GamePhase } from "~/core/game/phase";
import type { ParticipationStatus } from "~/core/enums";

const pill = "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium";

const phaseTone: Record<GamePhase, string> = {
  NotStarted: "bg-sky-100 text-sky-800 dark:bg-sky-900/60 dark:text-sky-200",
  Running: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200",
  Ended: "bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
};

export function PhaseBadge({ phase }: { phase: GamePhase }) {
  const { t } = useTranslation();
  return (
    <span className={`${pill} ${phaseTone[phase]}`} data-phase={phase}>
      {t(`games.phase.${phase}`)}
    </span>
  );
}

const statusTone: Record<ParticipationStatus, string> = {
  Pending: "bg-amber-100 text-amber-800 dark:bg-amber-900/60 dark:text-amber-200",
  Accepted: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200",
  Rejected: "bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-200",
  Suspended: "bg-red-200 text-red-900 dark:bg-red-950 dark:text-red-200",
  Unsubmitted: "bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
};

export function StatusBadge({ status }: { status: ParticipationStatus }) {
  const { t } = useTranslation();
  return (
    <span className={`${pill} ${statusTone[status]}`} data-status={status}>
      {t(`games.status.${status}`)}
    </span>
  );
}
