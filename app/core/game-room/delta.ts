import type { ChallengeInfo, ScoreboardItem, ScoreboardModel } from "../scoring/scoreboard";

/**
 * Scoreboard deltas (rules.md §11): the challenges whose value, solve count or bloods changed and the items
 * whose score, rank or solves changed since the previous version. Pure; used by the room to push and by
 * the browser to apply.
 */
export interface BoardDelta {
  /** The version this delta leads to; the client applies it only on top of `version - 1`. */
  version: number;
  updateTimeUtc: number;
  challenges: ChallengeInfo[];
  items: ScoreboardItem[];
  /** Team ids that left the board (suspended, removed). */
  removed: number[];
  /**
   * Items whose solves are unchanged but whose score, rank or solve values moved (a challenge's dynamic
   * value dropped, another team overtook them): only those numbers, not the whole item. One solve moves
   * hundreds of items; sending them whole made a push ≈ 1 MB per socket (BENCHMARKS.md).
   */
  patches?: ItemPatch[];
  /** The full ordering of team ids after the change, when it changed (ranks moved or teams came or went). */
  order: number[] | null;
  /** Timelines are small (top 10 per division): sent whole when they changed. */
  timelines: ScoreboardModel["timelines"] | null;
  /** The board's structure changed (challenges, divisions, bonus): refetch it whole. */
  refetch: boolean;
}

/** The numbers of an item that changed while its solves (ids, types, users, times) stayed the same. */
export interface ItemPatch {
  id: number;
  score: number;
  rank: number;
  divisionRank: number | null;
  /** [challenge id, new score] of each solved challenge whose score changed. */
  scores: [number, number][];
}

/** A delta that only tells clients to refetch. */
export function refetchDelta(version: number, updateTimeUtc: number): BoardDelta {
  return { version, updateTimeUtc, challenges: [], items: [], patches: [], removed: [], order: null, timelines: null, refetch: true };
}

const key = (v: unknown) => JSON.stringify(v);

function flatChallenges(board: ScoreboardModel): ChallengeInfo[] {
  return Object.values(board.challenges).flat() as ChallengeInfo[];
}

/** The delta from `prev` to `next`; null when the structure changed (challenges or divisions) and a refetch is needed. */
export function boardDelta(prev: ScoreboardModel, next: ScoreboardModel, version: number): BoardDelta | null {
  const prevChallenges = flatChallenges(prev);
  const nextChallenges = flatChallenges(next);
  if (prevChallenges.length !== nextChallenges.length || key(prev.divisions) !== key(next.divisions) || prev.bloodBonus !== next.bloodBonus)
    return null;
  const changedChallenges: ChallengeInfo[] = [];
  for (let i = 0; i < nextChallenges.length; i++) {
    const a = prevChallenges[i]!;
    const b = nextChallenges[i]!;
    if (a.id !== b.id || a.title !== b.title || a.category !== b.category) return null;
    if (a.score !== b.score || a.solved !== b.solved || a.deadline !== b.deadline || a.disableBloodBonus !== b.disableBloodBonus || key(a.bloods) !== key(b.bloods))
      changedChallenges.push(b);
  }
  const prevItems = new Map(prev.items.map((i) => [i.id, i]));
  const items: ScoreboardItem[] = [];
  const patches: ItemPatch[] = [];
  // Cheap per-item comparison: solves only append, and a changed value changes the team's total.
  for (const item of next.items) {
    const old = prevItems.get(item.id);
    if (
      !old ||
      old.score !== item.score ||
      old.rank !== item.rank ||
      old.divisionRank !== item.divisionRank ||
      old.solvedCount !== item.solvedCount ||
      old.lastSubmissionTime !== item.lastSubmissionTime ||
      old.name !== item.name ||
      old.avatar !== item.avatar ||
      old.divisionId !== item.divisionId
    ) {
      const patch = old ? patchOf(old, item) : null;
      if (patch) patches.push(patch);
      else items.push(item);
    }
  }
  const nextIds = new Set(next.items.map((i) => i.id));
  const removed = prev.items.filter((i) => !nextIds.has(i.id)).map((i) => i.id);
  let orderChanged = removed.length > 0 || prev.items.length !== next.items.length;
  for (let i = 0; !orderChanged && i < next.items.length; i++) orderChanged = prev.items[i]!.id !== next.items[i]!.id;
  const timelinesChanged = key(prev.timelines) !== key(next.timelines);
  return {
    version,
    updateTimeUtc: next.updateTimeUtc,
    challenges: changedChallenges,
    items,
    patches,
    removed,
    order: orderChanged ? next.items.map((i) => i.id) : null,
    timelines: timelinesChanged ? next.timelines : null,
    refetch: false,
  };
}

/**
 * The patch turning `old` into `item`, or null when more than numbers changed (solves, name, avatar,
 * division, bio, last submission time): then the item is sent whole.
 */
function patchOf(old: ScoreboardItem, item: ScoreboardItem): ItemPatch | null {
  if (
    old.solvedCount !== item.solvedCount ||
    old.lastSubmissionTime !== item.lastSubmissionTime ||
    old.name !== item.name ||
    old.bio !== item.bio ||
    old.avatar !== item.avatar ||
    old.divisionId !== item.divisionId ||
    old.solvedChallenges.length !== item.solvedChallenges.length
  )
    return null;
  const scores: [number, number][] = [];
  for (let i = 0; i < item.solvedChallenges.length; i++) {
    const a = old.solvedChallenges[i]!;
    const b = item.solvedChallenges[i]!;
    if (a.id !== b.id || a.type !== b.type || a.userName !== b.userName || a.time !== b.time) return null;
    if (a.score !== b.score) scores.push([b.id, b.score]);
  }
  return { id: item.id, score: item.score, rank: item.rank, divisionRank: item.divisionRank, scores };
}

function applyPatch(item: ScoreboardItem, patch: ItemPatch): ScoreboardItem {
  const scores = new Map(patch.scores);
  return {
    ...item,
    score: patch.score,
    rank: patch.rank,
    divisionRank: patch.divisionRank,
    solvedChallenges: scores.size === 0 ? item.solvedChallenges : item.solvedChallenges.map((s) => (scores.has(s.id) ? { ...s, score: scores.get(s.id)! } : s)),
  };
}

/** Applies a delta to a board (the browser's copy); returns a new board. */
export function applyBoardDelta(board: ScoreboardModel, delta: BoardDelta): ScoreboardModel {
  const changed = new Map(delta.challenges.map((c) => [c.id, c]));
  const challenges: ScoreboardModel["challenges"] = {};
  for (const [category, list] of Object.entries(board.challenges) as [keyof ScoreboardModel["challenges"], ChallengeInfo[]][]) {
    challenges[category] = list.map((c) => changed.get(c.id) ?? c);
  }
  const byId = new Map(board.items.map((i) => [i.id, i]));
  for (const id of delta.removed) byId.delete(id);
  for (const item of delta.items) byId.set(item.id, item);
  for (const patch of delta.patches ?? []) {
    const item = byId.get(patch.id);
    if (item) byId.set(patch.id, applyPatch(item, patch));
  }
  const order = delta.order ?? board.items.map((i) => i.id).filter((id) => byId.has(id));
  const items = order.map((id) => byId.get(id)).filter((i): i is ScoreboardItem => i !== undefined);
  return { ...board, updateTimeUtc: delta.updateTimeUtc, challenges, items, timelines: delta.timelines ?? board.timelines };
}
