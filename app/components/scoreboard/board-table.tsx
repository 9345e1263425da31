import { memo, useCallback, useMemo, useRef, useState } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { bloodMedal } from "~/components/games/marks";
import { formatDateTime } from "~/components/games/time";
import { BOARD_QUERY_MAX } from "~/components/scoreboard/board-filter";
import { Dialog } from "~/components/teams/dialog";
import { Button } from "~/components/ui/button";
import type { ChallengeInfo, ScoreboardDivision, ScoreboardItem } from "~/core/scoring/scoreboard";
import { foldText } from "~/core/text-fold";

const PAGE = 50;
/** The names of a solve's marks by its type: a medal for a blood (components/games/marks.tsx), else a tick. */
const MARK_LABEL: Record<string, string> = {
  FirstBlood: "scoreboard.firstBlood",
  SecondBlood: "scoreboard.secondBlood",
  ThirdBlood: "scoreboard.thirdBlood",
  Normal: "scoreboard.solvedMark",
};
/**
 * Rank and team stay in view while the challenge columns scroll sideways (a big game has dozens); opaque, so
 * the cells scrolling under them do not show through.
 */
const STICKY_RANK = "sticky left-0 z-10 min-w-12 bg-white dark:bg-zinc-900";
const STICKY_TEAM = "sticky left-12 z-10 min-w-32 border-r border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900";

/** Per solve type: its translated names, scored and worth nothing. */
type MarkNames = Record<string, { name: string; unscoredName: string }>;

/** The marks' names in the reader's language, made once per board rather than once per cell. */
function markNames(t: TFunction): MarkNames {
  const names: MarkNames = {};
  for (const [type, label] of Object.entries(MARK_LABEL)) names[type] = { name: t(label), unscoredName: t("scoreboard.markNotScored", { mark: t(label) }) };
  return names;
}

/**
 * A solve's mark (a medal for a blood, else a tick) with its translated name, for screen readers and on hover.
 * A solve worth nothing (after the end or the deadline, or by a division that scores nothing) is drawn faint
 * and named so: it looked like any other. A plain function, not a component: a page of the board has
 * thousands of them.
 */
function solveMark(names: MarkNames, type: string, score: number) {
  const known = type in names ? type : "Normal";
  const { name, unscoredName } = names[known]!;
  const label = score > 0 ? name : unscoredName;
  return (
    <span role="img" aria-label={label} title={label} className={score > 0 ? undefined : "opacity-40"} data-mark={known} data-scored={score > 0}>
      {bloodMedal(known) ?? "✓"}
    </span>
  );
}

/** One team's row; drawn again only when its item, rank, the columns or the language change. */
const BoardRow = memo(function BoardRow({
  item,
  rank,
  columns,
  names,
  onDetail,
}: {
  item: ScoreboardItem;
  rank: number | null;
  columns: [id: number, title: string][];
  names: MarkNames;
  onDetail: (item: ScoreboardItem) => void;
}) {
  const solved = new Map(item.solvedChallenges.map((s) => [s.id, s]));
  return (
    <tr data-testid={`board-team-${item.id}`} className="border-b border-zinc-100 dark:border-zinc-900">
      <td className={`px-2 py-1 tabular-nums ${STICKY_RANK}`}>{rank ? rank : "-"}</td>
      <td className={`px-2 py-1 ${STICKY_TEAM}`}>
        <button type="button" className="touch-target text-left hover:underline" onClick={() => onDetail(item)}>
          {item.name}
        </button>
      </td>
      <td className="px-2 py-1 text-right tabular-nums" data-testid="board-score">{item.score}</td>
      <td className="px-2 py-1 text-right tabular-nums">{item.solvedCount}</td>
      {columns.map(([id, title]) => {
        const s = solved.get(id);
        return (
          // An unsolved cell is empty, without a title a screen reader would read as if it were content.
          <td key={id} className="px-1 py-1 text-center" title={s ? `${title}: ${s.score}` : undefined}>
            {s ? solveMark(names, s.type, s.score) : null}
          </td>
        );
      })}
    </tr>
  );
});

/**
 * The ranked teams with a solved matrix per challenge (blood marks), paged, with a team detail dialog. The
 * division and the team search are the page's (kept in its address). The table is named by the page's
 * heading above it (`labelledBy`).
 */
export function BoardTable({
  labelledBy,
  items,
  challenges,
  divisions,
  divisionId,
  query,
  onQueryChange,
}: {
  labelledBy: string;
  items: ScoreboardItem[];
  challenges: ChallengeInfo[];
  /** The game's divisions (none: the game has none), for the team dialog's division. */
  divisions: ScoreboardDivision[];
  divisionId: number | null;
  query: string;
  onQueryChange: (query: string) => void;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  // Another division or search starts at its top (the page number of the last one means nothing there),
  // also when Back or Forward brings it.
  const scope = JSON.stringify([divisionId, query]);
  const [pagedScope, setPagedScope] = useState(scope);
  if (pagedScope !== scope) {
    setPagedScope(scope);
    setPage(0);
  }
  // The team's id, not a copy of its row: an open detail follows the live board (a solve moves its score).
  const [detailId, setDetailId] = useState<number | null>(null);
  const showDetail = useCallback((item: ScoreboardItem) => setDetailId(item.id), []);
  const detail = detailId === null ? null : (items.find((item) => item.id === detailId) ?? null);
  const detailDivision = detail?.divisionId == null ? null : (divisions.find((d) => d.id === detail.divisionId)?.name ?? null);
  const top = useRef<HTMLDivElement>(null);
  const inDivision = divisionId === null ? items : items.filter((i) => i.divisionId === divisionId);
  const needle = foldText(query.trim());
  const rows = needle === "" ? inDivision : inDivision.filter((i) => foldText(i.name).includes(needle));
  const pages = Math.max(1, Math.ceil(rows.length / PAGE));
  const current = Math.min(page, pages - 1);
  const shown = rows.slice(current * PAGE, current * PAGE + PAGE);
  const titles = new Map(challenges.map((c) => [c.id, c.title]));
  // The columns change with a challenge's title or the set of challenges, not with each solve's new
  // scores: rows whose team did not change are not drawn again when a delta arrives.
  const columnsKey = JSON.stringify(challenges.map((c) => [c.id, c.title]));
  const columns = useMemo(() => JSON.parse(columnsKey) as [id: number, title: string][], [columnsKey]);
  const names = useMemo(() => markNames(t), [t]);
  if (inDivision.length === 0) return <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("scoreboard.noTeams")}</p>;
  /** Another page starts at the table's top (the buttons are under 50 rows). */
  const turnTo = (next: number) => {
    setPage(next);
    const box = top.current;
    if (box && box.getBoundingClientRect().top < 0) box.scrollIntoView({ block: "start" });
  };
  return (
    // scroll-mt: the top stops under the sticky site header, not behind it.
    <div className="scroll-mt-16 space-y-3" ref={top}>
      <label className="flex max-w-sm items-center gap-2 text-sm">
        <span className="shrink-0">{t("scoreboard.findTeam")}</span>
        <input
          type="search"
          value={query}
          maxLength={BOARD_QUERY_MAX}
          onChange={(e) => onQueryChange(e.target.value)}
          className="touch-target block w-full min-w-0 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
      </label>
      {rows.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" role="status">
          {t("scoreboard.noMatch", { query: query.trim() })}
        </p>
      ) : null}
      <div className={rows.length === 0 ? "hidden" : "overflow-x-auto"}>
        <table className="min-w-full text-sm" aria-labelledby={labelledBy}>
          <thead>
            <tr className="border-b border-zinc-200 text-left dark:border-zinc-800">
              {/* One line each: at 480 px a CJK heading otherwise stacks one character per line. */}
              <th scope="col" className={`px-2 py-1 whitespace-nowrap ${STICKY_RANK}`}>{t("scoreboard.rank")}</th>
              <th scope="col" className={`px-2 py-1 whitespace-nowrap ${STICKY_TEAM}`}>{t("scoreboard.team")}</th>
              <th scope="col" className="px-2 py-1 text-right whitespace-nowrap">{t("scoreboard.score")}</th>
              <th scope="col" className="px-2 py-1 text-right whitespace-nowrap">{t("scoreboard.solved")}</th>
              {challenges.map((c) => (
                <th
                  key={c.id}
                  scope="col"
                  className="max-w-20 px-1 py-1 text-center text-xs font-normal"
                  title={`${c.title} · ${t("scoreboard.columnValue", { score: c.score, count: c.solved })}`}
                >
                  <span className="block truncate">{c.title}</span>
                  {/* What a solve is worth now (the hover adds how many teams have it). */}
                  <span className="block whitespace-nowrap text-zinc-500 tabular-nums dark:text-zinc-400" data-testid={`board-challenge-value-${c.id}`}>
                    {t("scoreboard.points", { points: c.score })}
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((item) => (
              <BoardRow key={item.id} item={item} rank={divisionId === null ? item.rank : item.divisionRank} columns={columns} names={names} onDetail={showDetail} />
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <div className="flex items-center gap-2 text-sm">
          <Button variant="secondary" disabled={current === 0} onClick={() => turnTo(current - 1)}>
            {t("scoreboard.previous")}
          </Button>
          <span>{t("scoreboard.page", { page: current + 1, pages })}</span>
          <Button variant="secondary" disabled={current >= pages - 1} onClick={() => turnTo(current + 1)}>
            {t("scoreboard.next")}
          </Button>
        </div>
      ) : null}
      <Dialog open={detail !== null} title={detail ? t("scoreboard.teamDetailOf", { name: detail.name }) : ""} onClose={() => setDetailId(null)}>
        {detail ? (
          <div className="space-y-2 text-sm">
            {detail.bio ? <p className="wrap-anywhere">{detail.bio}</p> : null}
            {/* The board carries no members (api.md ScoreboardItem): who solved what is in the list below. */}
            {detailDivision !== null ? (
              <p className="wrap-anywhere" data-testid="board-detail-division">
                {t("scoreboard.detailDivision", { division: detailDivision })}
              </p>
            ) : null}
            <p data-testid="board-detail-ranks">
              {detail.divisionId !== null
                ? t("scoreboard.detailRanks", { rank: detail.rank || "-", divisionRank: detail.divisionRank || "-", score: detail.score })
                : t("scoreboard.detailRanksNoDivision", { rank: detail.rank || "-", score: detail.score })}
            </p>
            <h3 className="font-semibold">{t("scoreboard.members")}</h3>
            <ul className="space-y-1">
              {detail.solvedChallenges.map((s) => (
                <li key={s.id}>
                  {solveMark(names, s.type, s.score)} {titles.get(s.id) ?? s.id} — {t("scoreboard.points", { points: s.score })} — {t("scoreboard.solvedBy", { user: s.userName })} — {formatDateTime(s.time)}
                </li>
              ))}
            </ul>
            <Button variant="secondary" onClick={() => setDetailId(null)}>
              {t("scoreboard.close")}
            </Button>
          </div>
        ) : null}
      </Dialog>
    </div>
  );
}
