import { useTranslation } from "react-i18next";
import { axisLabels, formatDateTime } from "~/lib/datetime";
import type { Timeline } from "~/core/scoring/scoreboard";

const COLOURS = ["#60a5fa", "#f472b6", "#34d399", "#fbbf24", "#a78bfa", "#f87171", "#2dd4bf", "#fb923c", "#a3e635", "#e879f9"];

/**
 * Cumulative scores of the top teams over the game (SVG step lines), from `start` (the game's start) to
 * `end` (the board's update time, or the game's end once it is over), with times along the bottom.
 */
export function TimelineChart({ timeline, start, end, label }: { timeline: Timeline | undefined; start: number; end: number; label: string }) {
  const { t } = useTranslation();
  const teams = timeline?.teams ?? [];
  const W = 800;
  const H = 240;
  const pad = 32;
  // The axis ends at `end`: solves after an ended game's end (practice mode, scoring nothing) do not stretch it to now.
  const last = Math.max(start + 1, end);
  const top = Math.max(0, ...teams.flatMap((t) => t.items.map((i) => i.score)));
  const max = Math.max(1, top);
  const x = (time: number) => pad + ((Math.min(time, last) - start) / (last - start)) * (W - 2 * pad);
  const y = (score: number) => H - pad - (score / max) * (H - 2 * pad);
  const ticks = axisLabels(start, last);
  // The drawing stretches to the card (preserveAspectRatio none, strokes kept at 2 px); the labels are
  // HTML over it, so they keep the page's font size at any width.
  const axisLabel = "absolute text-xs text-zinc-600 tabular-nums dark:text-zinc-400";
  return (
    <figure aria-label={label} className="w-full">
      <div className="relative h-60 w-full">
        {/* With no points scored yet the scale has only its 0 (at the bottom), not a second 0 at the top. */}
        {top > 0 ? (
          <span className={`${axisLabel} top-0 left-0`} data-testid="timeline-max">
            {top}
          </span>
        ) : null}
        <span className={`${axisLabel} left-0`} style={{ top: `${((H - pad) / H) * 100}%`, transform: "translateY(-50%)" }} aria-hidden="true">
          0
        </span>
        <div data-testid="timeline-times">
          {ticks.map(({ time, text }, i) => (
            <time
              key={i}
              dateTime={new Date(time).toISOString()}
              className={`${axisLabel} bottom-0 whitespace-nowrap ${i > 0 && i < ticks.length - 1 ? "hidden sm:block" : ""}`}
              style={{
                left: `${(x(time) / W) * 100}%`,
                transform: i === 0 ? "translateX(-25%)" : i === ticks.length - 1 ? "translateX(-75%)" : "translateX(-50%)",
              }}
            >
              {text}
            </time>
          ))}
        </div>
        <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" className="h-full w-full" role="img" aria-label={label} data-testid="timeline-chart">
          <line x1={pad} y1={H - pad} x2={W - pad} y2={H - pad} className="stroke-zinc-400" vectorEffect="non-scaling-stroke" />
          <line x1={pad} y1={pad} x2={pad} y2={H - pad} className="stroke-zinc-400" vectorEffect="non-scaling-stroke" />
          {teams.map((team, i) => {
            let points = `${x(start)},${y(0)}`;
            let prev = 0;
            for (const item of team.items) {
              points += ` ${x(item.time)},${y(prev)} ${x(item.time)},${y(item.score)}`;
              prev = item.score;
            }
            points += ` ${x(last)},${y(prev)}`;
            return <polyline key={team.id} points={points} fill="none" stroke={COLOURS[i % COLOURS.length]} strokeWidth={2} vectorEffect="non-scaling-stroke" />;
          })}
        </svg>
      </div>
      {/* The drawing's data as text, for a screen reader (the drawing itself is one image). */}
      <ul className="sr-only" aria-label={label} data-testid="timeline-text">
        {teams.map((team) => (
          <li key={team.id}>
            {t("scoreboard.timelineLine", {
              team: team.name,
              points: t("scoreboard.points", { points: team.items.at(-1)?.score ?? 0 }),
              history: team.items.map((item) => `${formatDateTime(item.time)} ${t("scoreboard.points", { points: item.score })}`).join(t("scoreboard.timelineSeparator")),
            })}
          </li>
        ))}
      </ul>
      <figcaption className="mt-2 flex flex-wrap gap-3 text-xs">
        {teams.map((team, i) => (
          <span key={team.id} className="inline-flex items-center gap-1">
            <span className="inline-block h-2 w-3 rounded" style={{ background: COLOURS[i % COLOURS.length] }} />
            {team.name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
