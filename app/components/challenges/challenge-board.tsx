import { useTranslation } from "react-i18next";
import type { ChallengeCategory } from "~/core/enums";
import type { PlayerChallengeInfo } from "~/core/schemas/challenge";

/** Challenges grouped by category, in the order given (board order). */
export function groupByCategory<T extends { category: ChallengeCategory }>(list: T[]): [ChallengeCategory, T[]][] {
  const groups = new Map<ChallengeCategory, T[]>();
  for (const c of list) groups.set(c.category, [...(groups.get(c.category) ?? []), c]);
  return [...groups];
}

/** The player's challenge grid: one section per category, a card per challenge with value, solves and own mark. */
export function ChallengeBoard({ challenges, selectedId, onSelect }: { challenges: PlayerChallengeInfo[]; selectedId: number | null; onSelect: (id: number) => void }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-6">
      {groupByCategory(challenges).map(([category, list]) => (
        <section key={category} aria-labelledby={`category-${category}`} className="space-y-2">
          <h2 id={`category-${category}`} className="text-sm font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
            {t(`challenge.category.${category}`)}
          </h2>
          <ul className="grid gap-2 sm:grid-cols-2 xl:grid-cols-3">
            {list.map((c) => (
              <li key={c.id}>
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
                    <span className="font-medium break-words">{c.title}</span>
                    {c.solvedByMe ? <span className="shrink-0 text-xs font-semibold text-emerald-700 dark:text-emerald-300">✓ {t("challenge.solvedMark")}</span> : null}
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
