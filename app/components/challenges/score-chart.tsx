import { useTranslation } from "react-i18next";
import type { ValueParams } from "~/core/scoring/value";
import { bloodPoints, computeCurve, computeMinScore, curvePolyline } from "./score-curve";

const WIDTH = 480;
const HEIGHT = 160;
const MAX_SOLVES = 50;

/**
 * The live preview of the dynamic score (rules.md §3), stretched to the card's width with 2 px strokes,
 * and the blood points at the original score.
 */
export function ScoreChart({ params, bloodBonus, disableBloodBonus }: { params: ValueParams; bloodBonus: number; disableBloodBonus: boolean }) {
  const { t } = useTranslation();
  const valid = params.originalScore >= 0 && params.minScoreRate >= 0 && params.minScoreRate <= 1 && params.difficulty > 0;
  if (!valid) return <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("adminChallenges.curveInvalid")}</p>;
  const curve = computeCurve(params, MAX_SOLVES);
  const [first, second, third] = bloodPoints(params.originalScore, bloodBonus, disableBloodBonus);
  const at = (n: number) => curve[n]!.value;
  return (
    <figure className="space-y-2">
      <svg
        viewBox={`-4 -4 ${WIDTH + 8} ${HEIGHT + 8}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={t("adminChallenges.curveLabel", { min: computeMinScore(params), max: params.originalScore })}
        className="h-40 w-full rounded-md border border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-950"
        data-testid="score-curve"
      >
        <line x1={0} y1={HEIGHT} x2={WIDTH} y2={HEIGHT} className="stroke-zinc-300 dark:stroke-zinc-700" vectorEffect="non-scaling-stroke" />
        <polyline points={curvePolyline(curve, WIDTH, HEIGHT)} fill="none" strokeWidth={2} vectorEffect="non-scaling-stroke" className="stroke-primary-600 dark:stroke-primary-400" />
      </svg>
      <figcaption className="space-y-1 text-xs text-zinc-600 dark:text-zinc-400">
        <p>{t("adminChallenges.curveCaption", { n1: at(1), n2: at(2), n5: at(5), n10: at(10), n50: at(MAX_SOLVES), min: computeMinScore(params) })}</p>
        <p data-testid="blood-points">
          {disableBloodBonus ? t("adminChallenges.bloodOff") : t("adminChallenges.bloodPoints", { first, second, third })}
        </p>
      </figcaption>
    </figure>
  );
}
