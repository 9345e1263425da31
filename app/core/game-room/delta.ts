import type { SubmissionType } from "../enums";
import {
  BLOOD_TYPES,
  type BoardChallenge,
  type BoardDivision,
  type BoardGame,
  type BoardSolve,
  type BoardTeam,
  bloodFactorList,
  type ChallengeInfo,
  rankItems,
  type ScoreboardItem,
  type ScoreboardModel,
  type SolvedChallenge,
  solveFacts,
  solvePoints,
  timelinesOf,
} from "../scoring/scoreboard";
import { computeChallengeValue } from "../scoring/value";

/**
 * Scoreboard deltas (rules.md §11), pure; the room makes them, the room and the browser apply them.
 *
 * A solve changes few facts — its team's solves, the challenge's value, solve count and bloods — but the
 * value change moves the score and the rank of every team that solved the challenge (hundreds). The
 * delta therefore carries only the facts: the changed challenges, the new solves, the re-scoring of
 * earlier solves of those challenges (one entry per (challenge, solve type, old points)), and the new
 * order of teams only when it cannot be derived. `applyBoardDelta` derives every changed item (scores,
 * ranks, division ranks) and the timelines from them; a property test checks the result equals the full
 * computation. Frames stay near 1 kB where sending the moved items made them 30–80 kB (BENCHMARKS.md).
 */
export interface BoardDelta {
  /** The version this delta leads to; the client applies it only on top of `version - 1`. */
  version: number;
  updateTimeUtc: number;
  /** Challenges whose value, solve count or bloods changed, whole. */
  challenges: ChallengeInfo[];
  /** New solves in solve order, with the team's last scoring time after each. */
  solves: SolveUpdate[];
  /** Earlier solves of `challenge` typed `type` and worth `from` points are now worth `to`. */
  rescored: [challenge: number, type: SubmissionType, from: number, to: number][];
  /**
   * Team ids in board order, when the order is not the one a stable sort by (score desc, last scoring
   * time asc, previous position) gives — ties the previous order cannot settle; otherwise null.
   */
  order: number[] | null;
  /** The board's structure changed (teams, challenges, divisions, bonus, a re-judged past): refetch it whole. */
  refetch: boolean;
}

export interface SolveUpdate {
  /** Team id. */
  team: number;
  /** The team's lastSubmissionTime after this solve. */
  last: number;
  solve: SolvedChallenge;
}

/** A delta that only tells clients to refetch. */
export function refetchDelta(version: number, updateTimeUtc: number): BoardDelta {
  return { version, updateTimeUtc, challenges: [], solves: [], rescored: [], order: null, refetch: true };
}

/** What the room keeps to make deltas: the board's inputs other than solves, indexed. */
export interface BoardIndex {
  game: BoardGame;
  divisions: Map<number, BoardDivision>;
  /** By participation id. */
  teams: Map<number, BoardTeam>;
  /** By team id: the join order (participation id) that settles full ties. */
  joinOrder: Map<number, number>;
  challenges: Map<number, BoardChallenge>;
}

export function indexBoard(meta: { game: BoardGame; divisions: BoardDivision[]; teams: BoardTeam[]; challenges: BoardChallenge[] }): BoardIndex {
  return {
    game: meta.game,
    divisions: new Map(meta.divisions.map((d) => [d.id, d])),
    teams: new Map(meta.teams.map((t) => [t.participationId, t])),
    joinOrder: new Map(meta.teams.map((t) => [t.teamId, t.participationId])),
    challenges: new Map(meta.challenges.map((c) => [c.id, c])),
  };
}

function flatChallenges(board: ScoreboardModel): ChallengeInfo[] {
  return Object.values(board.challenges).flat() as ChallengeInfo[];
}

/**
 * The delta adding `solves` (judged after every solve already on the board, in judging order) to
 * `board`, and the board it leads to. Solves of teams or challenges not on the board are ignored, as in
 * the full computation.
 */
export function solveDelta(
  index: BoardIndex,
  board: ScoreboardModel,
  solves: BoardSolve[],
  version: number,
  now: number,
): { delta: BoardDelta; board: ScoreboardModel } {
  const factors = bloodFactorList(index.game);
  const infos = new Map(flatChallenges(board).map((c) => [c.id, c]));
  const changed = new Map<number, ChallengeInfo>();
  const lastOf = new Map(board.items.map((i) => [i.id, i.lastSubmissionTime]));
  const added: { update: SolveUpdate; scoreEligible: boolean }[] = [];
  for (const s of solves) {
    const team = index.teams.get(s.participationId);
    const challenge = index.challenges.get(s.challengeId);
    const known = infos.get(s.challengeId);
    if (!team || !challenge || !known || !lastOf.has(team.teamId)) continue;
    const division = team.divisionId === null ? undefined : index.divisions.get(team.divisionId);
    const facts = solveFacts(index.game, team, division, challenge, s.time);
    let info = changed.get(challenge.id);
    if (!info) {
      info = { ...known, bloods: [...known.bloods] };
      changed.set(challenge.id, info);
    }
    let type: SubmissionType = "Normal";
    if (facts.bloodEligible && info.bloods.length < 3) {
      type = BLOOD_TYPES[info.bloods.length]!;
      info.bloods.push({ id: team.teamId, name: team.name, avatar: team.avatar, submitTimeUtc: s.time });
    }
    if (facts.counted) info.solved += 1;
    const last = facts.scoreEligible ? s.time : lastOf.get(team.teamId)!;
    lastOf.set(team.teamId, last);
    added.push({ update: { team: team.teamId, last, solve: { id: challenge.id, score: 0, type, userName: s.userName, time: s.time } }, scoreEligible: facts.scoreEligible });
  }

  // Values after every new solve; earlier solves of a challenge whose value moved are re-scored.
  const rescored: BoardDelta["rescored"] = [];
  for (const info of changed.values()) {
    const before = infos.get(info.id)!;
    info.score = computeChallengeValue(index.challenges.get(info.id)!, info.solved);
    if (info.score === before.score) continue;
    const types: SubmissionType[] = ["Normal", ...BLOOD_TYPES.slice(0, before.bloods.length)];
    for (const type of types) {
      const from = solvePoints(before.score, type, true, factors);
      const to = solvePoints(info.score, type, true, factors);
      if (from !== to) rescored.push([info.id, type, from, to]);
    }
  }
  for (const a of added) a.update.solve.score = solvePoints(changed.get(a.update.solve.id)!.score, a.update.solve.type, a.scoreEligible, factors);

  const delta: BoardDelta = {
    version,
    updateTimeUtc: now,
    challenges: [...changed.values()],
    solves: added.map((a) => a.update),
    rescored,
    order: null,
    refetch: false,
  };
  const next = applyBoardDelta(board, delta);
  // The true order settles full ties by join order; send it when the derived order differs.
  const join = (id: number) => index.joinOrder.get(id) ?? Number.MAX_SAFE_INTEGER;
  const sorted = [...next.items].sort((a, b) => b.score - a.score || a.lastSubmissionTime - b.lastSubmissionTime || join(a.id) - join(b.id));
  if (sorted.some((item, i) => item.id !== next.items[i]!.id)) {
    delta.order = sorted.map((i) => i.id);
    return { delta, board: applyBoardDelta(board, delta) };
  }
  return { delta, board: next };
}

/**
 * Each challenge's counted solves (its `solved`) on `board` once `pending` (solves judged after the board's,
 * in judging order) are added — what `solveDelta` would give, without making the delta: the board's counts
 * plus the pending solves that count (rules.md §3). Only the challenges on the board.
 */
export function solvedCounts(index: BoardIndex, board: ScoreboardModel, pending: readonly BoardSolve[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const list of Object.values(board.challenges)) for (const c of list) counts.set(c.id, c.solved);
  for (const s of pending) {
    const team = index.teams.get(s.participationId);
    const challenge = index.challenges.get(s.challengeId);
    const solved = counts.get(s.challengeId);
    if (!team || !challenge || solved === undefined) continue;
    const division = team.divisionId === null ? undefined : index.divisions.get(team.divisionId);
    if (solveFacts(index.game, team, division, challenge, s.time).counted) counts.set(s.challengeId, solved + 1);
  }
  return counts;
}

/** Applies a delta to a board (the browser's copy, or the room's); returns a new board sharing unchanged parts. */
export function applyBoardDelta(board: ScoreboardModel, delta: BoardDelta): ScoreboardModel {
  const changed = new Map(delta.challenges.map((c) => [c.id, c]));
  const challenges: ScoreboardModel["challenges"] = {};
  for (const [category, list] of Object.entries(board.challenges) as [keyof ScoreboardModel["challenges"], ChallengeInfo[]][]) {
    challenges[category] = list.map((c) => changed.get(c.id) ?? c);
  }

  // Re-scoring of earlier solves, then the new solves; touched items get their total summed again.
  const rescore = new Map<number, [SubmissionType, number, number][]>();
  for (const [cid, type, from, to] of delta.rescored) {
    const list = rescore.get(cid);
    if (list) list.push([type, from, to]);
    else rescore.set(cid, [[type, from, to]]);
  }
  const newSolves = new Map<number, SolveUpdate[]>();
  for (const u of delta.solves) {
    const list = newSolves.get(u.team);
    if (list) list.push(u);
    else newSolves.set(u.team, [u]);
  }
  const position = new Map<number, number>();
  let items = board.items.map((item, i) => {
    position.set(item.id, i);
    let solved = item.solvedChallenges;
    if (rescore.size > 0) {
      let copy: SolvedChallenge[] | null = null;
      for (let k = 0; k < solved.length; k++) {
        const s = solved[k]!;
        const rules = rescore.get(s.id);
        if (!rules) continue;
        const rule = rules.find(([type, from]) => type === s.type && from === s.score);
        if (!rule) continue;
        copy ??= [...solved];
        copy[k] = { ...s, score: rule[2] };
      }
      if (copy) solved = copy;
    }
    const updates = newSolves.get(item.id);
    if (solved === item.solvedChallenges && !updates) return item;
    if (updates) solved = [...solved, ...updates.map((u) => u.solve)];
    let score = 0;
    for (const s of solved) score += s.score;
    return {
      ...item,
      score,
      lastSubmissionTime: updates ? updates[updates.length - 1]!.last : item.lastSubmissionTime,
      solvedChallenges: solved,
      solvedCount: solved.length,
    };
  });

  if (delta.order) {
    const byId = new Map(items.map((i) => [i.id, i]));
    items = delta.order.map((id) => byId.get(id)).filter((i): i is ScoreboardItem => i !== undefined);
  } else {
    items.sort((a, b) => b.score - a.score || a.lastSubmissionTime - b.lastSubmissionTime || position.get(a.id)! - position.get(b.id)!);
  }
  items = rankItems(items, board.divisions);
  return { ...board, updateTimeUtc: delta.updateTimeUtc, challenges, items, timelines: timelinesOf(items, board.divisions) };
}
