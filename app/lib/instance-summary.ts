/** The translation function the summary needs: each count has its own plural forms (`_one`/`_other`). */
export type InstanceSummaryT = (key: string, options: Record<string, string | number>) => string;

/** Admin → Instances summary line: "2 running instances · 1 team · 2 challenges", each noun by its own count. */
export function formatInstanceSummary(t: InstanceSummaryT, stats: { total: number; teams: number; challenges: number }): string {
  return t("adminInstances.summary", {
    instances: t("adminInstances.instanceCount", { count: stats.total }),
    teams: t("adminInstances.teamCount", { count: stats.teams }),
    challenges: t("adminInstances.challengeCount", { count: stats.challenges }),
  });
}
