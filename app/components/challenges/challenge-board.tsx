import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ChallengeCategory } from "~/core/enums";
import type { PlayerChallengeInfo } from "~/core/schemas/challenge";

/** Challenges grouped by category, in the order given (board order). */
export function groupByCategory<T extends { category: ChallengeCategory }>(list: T[]): [ChallengeCategory, T[]][] {
  const groups = new Map<ChallengeCategory, T[]>();
  for (const c of list) groups.set(c.category, [...(groups.get(c.category) ?? []), c]);
  return [...groups];
}

export interface BoardFilter {
  /** One category, or every one. */
  category: ChallengeCategory | null;
  hideSolved: boolean;
}

/** The challenges a filter shows, in board order. */
export function filterChallenges<T extends { category: ChallengeCategory; solvedByMe: boolean }>(list: T[], filter: BoardFilter): T[] {
  return list.filter((c) => (filter.category === null || c.category === filter.category) && !(filter.hideSolved && c.solvedByMe));
}

const chipClass = (pressed: boolean) =>
  `touch-target rounded-full border px-3 py-1 text-xs font-medium transition-colors ${
    pressed
      ? "border-primary-600 bg-primary-600 text-on-primary-600 dark:border-primary-500 dark:bg-primary-500 dark:text-on-primary-500"
      : "border-zinc-300 bg-white text-zinc-800 hover:border-primary-400 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200"
  }`;

/**
 * The player's challenge grid: one section per category, a card per challenge with value, solves and own
 * mark. A game with several categories or solved challenges can be narrowed to one category and without
 * what the team has solved (a big game has dozens of cards).
 */
export function ChallengeBoard({ challenges, selectedId, onSelect }: { challenges: PlayerChallengeInfo[]; selectedId: number | null; onSelect: (id: number) => void }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<BoardFilter>({ category: null, hideSolved: false });
  const groups = groupByCategory(challenges);
  // A category that is gone (its last challenge disabled) no longer filters.
  const category = groups.some(([c]) => c === filter.category) ? filter.category : null;
  const shown = filterChallenges(challenges, { ...filter, category });
  const anySolved = challenges.some((c) => c.solvedByMe);
  return (
    <div className="space-y-6">
      {groups.length > 1 || anySolved ? (
        <div role="group" aria-label={t("challenge.filter.label")} className="flex flex-wrap items-center gap-2">
          {groups.length > 1 ? (
            <>
              <button type="button" aria-pressed={category === null} className={chipClass(category === null)} onClick={() => setFilter({ ...filter, category: null })}>
                {t("challenge.filter.all", { count: challenges.length })}
              </button>
              {groups.map(([c, list]) => (
                <button key={c} type="button" aria-pressed={category === c} className={chipClass(category === c)} onClick={() => setFilter({ ...filter, category: c })}>
                  {t("challenge.filter.category", { category: t(`challenge.category.${c}`), count: list.length })}
                </button>
              ))}
            </>
          ) : null}
          {anySolved ? (
            <label className="touch-target ms-1 flex items-center gap-1.5 text-sm">
              <input type="checkbox" checked={filter.hideSolved} onChange={(e) => setFilter({ ...filter, hideSolved: e.target.checked })} className="accent-primary-600" />
              {t("challenge.filter.hideSolved")}
            </label>
          ) : null}
        </div>
      ) : null}
      {shown.length === 0 ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("challenge.filter.none")}</p> : null}
      {groupByCategory(shown).map(([category, list]) => (
        <section key={category} aria-labelledby={`category-${category}`} className="space-y-2">
          <h2 id={`category-${category}`} className="text-sm font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
            {t(`challenge.category.${category}`)}
          </h2>
          {/* A title of one long word (64 characters) wraps anywhere in its card: the card and the page do not
              grow sideways, and the solved mark stays inside the card. */}
          <ul className="grid gap-2 sm:grid-cols-2 xl:grid-cols-3">
            {list.map((c) => (
              <li key={c.id} className="min-w-0">
                <button
                  type="button"
                  onClick={() => onSelect(c.id)}
                  aria-expanded={selectedId === c.id}
                  aria-controls={selectedId === c.id ? "challenge-panel" : undefined}
                  data-challenge-card={c.id}
                  className={`w-full rounded-lg border p-3 text-start transition-colors ${
                    c.solvedByMe
                      ? "border-emerald-400 bg-emerald-50 dark:border-emerald-700 dark:bg-emerald-950"
                      : "border-zinc-200 bg-white hover:border-primary-400 dark:border-zinc-800 dark:bg-zinc-900"
                  } ${selectedId === c.id ? "outline-2 outline-primary-500" : ""}`}
                >
                  <span className="flex items-start justify-between gap-2">
                    <span className="min-w-0 font-medium wrap-anywhere">{c.title}</span>
                    {/* A solve worth 0 points (after the end or the deadline) says so, as the scoreboard's faint mark does. */}
                    {c.solvedByMe ? (
                      <span className="shrink-0 text-xs font-semibold text-emerald-700 dark:text-emerald-300" data-testid="challenge-solved-mark" data-scored={!c.solvedUnscored}>
                        ✓ {t(c.solvedUnscored ? "challenge.solvedNotScoredMark" : "challenge.solvedMark")}
                      </span>
                    ) : null}
                  </span>
                  <span className="mt-1 flex justify-between text-xs text-zinc-600 dark:text-zinc-400">
                    <span className="font-mono">{t("challenge.points", { count: c.score })}</span>
                    <span>{t("challenge.solves", { count: c.solved })}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
