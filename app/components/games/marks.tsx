import type { ReactElement } from "react";
import type { GameNoticeInfo } from "~/core/schemas/game";

/**
 * The first three solves of a challenge: gold, silver and bronze discs with the place in them, drawn with CSS.
 * Emoji medals showed as empty boxes on systems without an emoji font (a server's headless browser, many
 * Linux desktops); digits and colours show everywhere.
 */
const MEDALS: Record<string, { place: string; colours: string }> = {
  FirstBlood: { place: "1", colours: "bg-yellow-400 text-yellow-950 ring-yellow-600" },
  SecondBlood: { place: "2", colours: "bg-zinc-300 text-zinc-900 ring-zinc-500" },
  ThirdBlood: { place: "3", colours: "bg-amber-700 text-white ring-amber-900" },
};

/**
 * A blood's medal, sized by the text around it; no name of its own (the caller names it, once, for screen
 * readers). A plain function, not a component: a page of the scoreboard draws thousands of marks.
 */
export function bloodMedal(type: string): ReactElement | null {
  const medal = MEDALS[type];
  if (!medal) return null;
  return (
    <span
      aria-hidden="true"
      data-medal={medal.place}
      className={`inline-flex size-[1.5em] items-center justify-center rounded-full align-middle text-[0.75em] leading-none font-bold tabular-nums ring-1 ring-inset ${medal.colours}`}
    >
      {medal.place}
    </span>
  );
}

/** The lines of the notices' other icons (20 × 20, drawn in the text's colour). */
const NOTICE_PATHS: Record<Exclude<GameNoticeInfo["type"], "FirstBlood" | "SecondBlood" | "ThirdBlood">, string[]> = {
  // A loudspeaker: an announcement by the organisers.
  Normal: ["M3 8v4h3l6 4V4L6 8z", "M15 7.5a3.5 3.5 0 0 1 0 5"],
  // A light bulb: a new hint.
  NewHint: ["M10 2.5a5 5 0 0 0-3 9V13h6v-1.5a5 5 0 0 0-3-9z", "M8 15.5h4", "M8.75 18h2.5"],
  // A four-pointed star: a new challenge.
  NewChallenge: ["M10 2.5l1.8 5.7 5.7 1.8-5.7 1.8-1.8 5.7-1.8-5.7-5.7-1.8 5.7-1.8z"],
};

/** A notice's icon by its type (decorative: the notice's type is written beside it). */
export function NoticeIcon({ type }: { type: GameNoticeInfo["type"] }) {
  const medal = bloodMedal(type);
  if (medal) return <span className="inline-flex size-6 items-center justify-center text-base">{medal}</span>;
  const paths = NOTICE_PATHS[type as keyof typeof NOTICE_PATHS] ?? NOTICE_PATHS.Normal;
  return (
    <svg aria-hidden="true" data-notice-icon={type} viewBox="0 0 20 20" className="size-6 shrink-0 p-0.5 text-zinc-500 dark:text-zinc-400" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round">
      {paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
