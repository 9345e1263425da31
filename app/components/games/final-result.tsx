import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { TeamResult } from "~/core/scoring/scoreboard";

/**
 * The player's team's final result once the game has ended: rank (and rank in its division), score and
 * solved challenges, with the way to the full scoreboard when the player may read it (not a hidden game's).
 * Shown by the overview and by the challenges page, which otherwise only says that play is over.
 */
export function FinalResult({ gameId, result, boardLink }: { gameId: number; result: TeamResult; boardLink: boolean }) {
  const { t } = useTranslation();
  const heading = useId();
  const rank = (n: number | null) => (n ? t("games.finalResult.place", { rank: n }) : t("games.finalResult.unranked"));
  return (
    <section
      aria-labelledby={heading}
      data-testid="final-result"
      className="space-y-3 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm text-zinc-900 dark:border-emerald-800 dark:bg-emerald-950/40 dark:text-zinc-100"
    >
      <h2 id={heading} className="text-base font-semibold">
        {t("games.finalResult.title", { team: result.teamName })}
      </h2>
      <dl className="flex flex-wrap gap-x-8 gap-y-2">
        <Figure label={t("scoreboard.rank")} testId="final-rank" value={rank(result.rank)} />
        {result.division !== null ? (
          <Figure label={t("games.finalResult.divisionRank", { division: result.division })} testId="final-division-rank" value={rank(result.divisionRank)} />
        ) : null}
        <Figure label={t("scoreboard.score")} testId="final-score" value={result.score} />
        <Figure label={t("scoreboard.solved")} testId="final-solved" value={result.solvedCount} />
      </dl>
      {boardLink ? (
        <Link to={`/games/${gameId}/scoreboard`} className="touch-target inline-flex items-center font-medium text-primary-700 underline dark:text-primary-300">
          {t("games.finalResult.scoreboard")}
        </Link>
      ) : null}
    </section>
  );
}

/** One figure of the result: its name over its value. */
function Figure({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <div>
      <dt className="text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
