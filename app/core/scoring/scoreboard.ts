import { CHALLENGE_CATEGORIES, type ChallengeCategory, GamePermission, type SubmissionType } from "../enums";
import { computeBloodPoints, computeChallengeValue } from "./value";

/**
 * The scoreboard of rules.md §4 computed from plain rows: pure, deterministic, no I/O. The game room
 * holds the result in memory and recomputes it when its inputs change.
 */

export interface BloodBonusFactors {
  /** Per mille, 0–1000. */
  first: number;
  second: number;
  third: number;
}

export interface BoardGame {
  start: number;
  end: number;
  /** The packed value echoed in the model. */
  bloodBonus: number;
  bloodFactors: BloodBonusFactors;
}

export interface BoardDivision {
  id: number;
  name: string;
  defaultPermissions: number;
  /** challengeId → permissions replacing the default for that challenge. */
  challengeConfigs: Record<number, number>;
}

export interface BoardTeam {
  /** Participation id: the join order, and the key solves refer to. */
  participationId: number;
  teamId: number;
  name: string;
  bio: string;
  avatar: string | null;
  divisionId: number | null;
}

export interface BoardChallenge {
  id: number;
  title: string;
  category: ChallengeCategory;
  originalScore: number;
  minScoreRate: number;
  difficulty: number;
  deadline: number | null;
  disableBloodBonus: boolean;
}

/** A team's first accepted submission for a challenge. */
export interface BoardSolve {
  participationId: number;
  challengeId: number;
  submissionId: number;
  time: number;
  userName: string;
}

export interface BoardInput {
  game: BoardGame;
  divisions: BoardDivision[];
  teams: BoardTeam[];
  challenges: BoardChallenge[];
  solves: BoardSolve[];
  now: number;
}

export interface Blood {
  id: number;
  name: string;
  avatar: string | null;
  submitTimeUtc: number;
}

export interface ChallengeInfo {
  id: number;
  title: string;
  category: ChallengeCategory;
  score: number;
  solved: number;
  deadline: number | null;
  bloods: Blood[];
  disableBloodBonus: boolean;
}

export interface SolvedChallenge {
  id: number;
  score: number;
  type: SubmissionType;
  userName: string;
  time: number;
}

export interface ScoreboardItem {
  id: number;
  name: string;
  bio: string;
  divisionId: number | null;
  avatar: string | null;
  score: number;
  rank: number;
  divisionRank: number | null;
  lastSubmissionTime: number;
  solvedChallenges: SolvedChallenge[];
  solvedCount: number;
}

/**
 * A player's team's standing on the board once the game has ended (its final result): rank 0 when not
 * ranked overall, `divisionRank` and `division` when the team plays in a division.
 */
export interface TeamResult {
  teamName: string;
  rank: number;
  divisionRank: number | null;
  division: string | null;
  score: number;
  solvedCount: number;
}

export interface TimelineTeam {
  id: number;
  name: string;
  items: { time: number; score: number }[];
}

export interface Timeline {
  divisionId: number;
  teams: TimelineTeam[];
}

export interface ScoreboardDivision {
  id: number;
  name: string;
  defaultPermissions: number;
  challengeConfigs: Record<number, { challengeId: number; permissions: number }>;
}

export interface ScoreboardModel {
  updateTimeUtc: number;
  bloodBonus: number;
  timelines: Timeline[];
  items: ScoreboardItem[];
  divisions: ScoreboardDivision[];
  challenges: Partial<Record<ChallengeCategory, ChallengeInfo[]>>;
  challengeCount: number;
}

const TIMELINE_TEAMS = 10;
/** The blood ranks in order: the first three blood-eligible solves of a challenge. */
export const BLOOD_TYPES: readonly SubmissionType[] = ["FirstBlood", "SecondBlood", "ThirdBlood"];

/** Permissions of a team (by division) for a challenge: the per-challenge entry replaces the default. */
export function permissionsFor(division: BoardDivision | undefined, challengeId: number): number {
  if (!division) return GamePermission.All;
  return division.challengeConfigs[challengeId] ?? division.defaultPermissions;
}

const has = (permissions: number, flag: number) => (permissions & flag) === flag;

/** Enabled challenges in board order: category number, then title. */
export function orderChallenges<T extends { category: ChallengeCategory; title: string; id: number }>(challenges: T[]): T[] {
  return [...challenges].sort(
    (a, b) =>
      CHALLENGE_CATEGORIES.indexOf(a.category) - CHALLENGE_CATEGORIES.indexOf(b.category) ||
      (a.title < b.title ? -1 : a.title > b.title ? 1 : 0) ||
      a.id - b.id,
  );
}

export interface SolveFacts {
  scoreEligible: boolean;
  counted: boolean;
  bloodEligible: boolean;
}

/** What a solve counts for (rules.md §3–4): score, the dynamic value's solve count, bloods. */
export function solveFacts(
  game: Pick<BoardGame, "start" | "end">,
  team: Pick<BoardTeam, "divisionId">,
  division: BoardDivision | undefined,
  challenge: Pick<BoardChallenge, "id" | "deadline" | "disableBloodBonus">,
  time: number,
): SolveFacts {
  const perms = permissionsFor(team.divisionId === null ? undefined : division, challenge.id);
  const inWindow = game.start <= time && time < game.end;
  const beforeDeadline = challenge.deadline === null || time <= challenge.deadline;
  const timely = inWindow && beforeDeadline;
  return {
    scoreEligible: timely && has(perms, GamePermission.GetScore),
    counted: timely && has(perms, GamePermission.AffectDynamicScore),
    bloodEligible: timely && !challenge.disableBloodBonus && has(perms, GamePermission.GetBlood),
  };
}

/** The blood factors of a game in blood order (first, second, third), per mille. */
export const bloodFactorList = (game: BoardGame): number[] => [game.bloodFactors.first, game.bloodFactors.second, game.bloodFactors.third];

/** Points of one solve: the challenge's current value, raised for a blood, 0 when it does not score. */
export function solvePoints(value: number, type: SubmissionType, scoreEligible: boolean, factors: number[]): number {
  if (!scoreEligible) return 0;
  const blood = BLOOD_TYPES.indexOf(type);
  return blood < 0 ? value : computeBloodPoints(value, factors[blood]!);
}

/**
 * Sets `rank` and `divisionRank` of items already in board order: overall ranks skip teams whose
 * division lacks RankOverall (rank 0), division ranks count within each division. Returns new item
 * objects only where a rank changed.
 */
export function rankItems(items: ScoreboardItem[], divisions: { id: number; defaultPermissions: number }[]): ScoreboardItem[] {
  const rankOverall = new Map(divisions.map((d) => [d.id, has(d.defaultPermissions, GamePermission.RankOverall)]));
  let overall = 0;
  const perDivision = new Map<number, number>();
  return items.map((item) => {
    const ranksOverall = item.divisionId === null || (rankOverall.get(item.divisionId) ?? true);
    let divisionRank: number | null = null;
    if (item.divisionId !== null) {
      divisionRank = (perDivision.get(item.divisionId) ?? 0) + 1;
      perDivision.set(item.divisionId, divisionRank);
    }
    const rank = ranksOverall ? ++overall : 0;
    return item.rank === rank && item.divisionRank === divisionRank ? item : { ...item, rank, divisionRank };
  });
}

/** A team's score after each of its solves, in solve order. */
function timelineOf(item: ScoreboardItem): TimelineTeam {
  let score = 0;
  return { id: item.id, name: item.name, items: item.solvedChallenges.map((s) => ({ time: s.time, score: (score += s.score) })) };
}

/** Timelines of ranked items: the top 10 ranked overall, then the top 10 of each division. */
export function timelinesOf(items: ScoreboardItem[], divisions: { id: number }[]): Timeline[] {
  return [
    { divisionId: 0, teams: items.filter((i) => i.rank > 0).slice(0, TIMELINE_TEAMS).map(timelineOf) },
    ...divisions.map((d) => ({ divisionId: d.id, teams: items.filter((i) => i.divisionId === d.id).slice(0, TIMELINE_TEAMS).map(timelineOf) })),
  ];
}

export function computeScoreboard(input: BoardInput): ScoreboardModel {
  const { game } = input;
  const divisionById = new Map(input.divisions.map((d) => [d.id, d]));
  const teamByParticipation = new Map(input.teams.map((t) => [t.participationId, t]));
  const challenges = orderChallenges(input.challenges);
  const challengeById = new Map(challenges.map((c) => [c.id, c]));

  // 1. Facts of each solve (unknown teams or challenges — not accepted, disabled — are ignored).
  const ordered = input.solves
    .filter((s) => teamByParticipation.has(s.participationId) && challengeById.has(s.challengeId))
    .sort((a, b) => a.time - b.time || a.submissionId - b.submissionId);
  const facts = ordered.map((solve) => {
    const team = teamByParticipation.get(solve.participationId)!;
    const division = team.divisionId === null ? undefined : divisionById.get(team.divisionId);
    return { solve, team, ...solveFacts(game, team, division, challengeById.get(solve.challengeId)!, solve.time) };
  });

  // 2. Per challenge: counted solves, current value, bloods.
  const counted = new Map<number, number>();
  for (const f of facts) if (f.counted) counted.set(f.solve.challengeId, (counted.get(f.solve.challengeId) ?? 0) + 1);
  const value = new Map(challenges.map((c) => [c.id, computeChallengeValue(c, counted.get(c.id) ?? 0)]));
  const bloods = new Map<number, Blood[]>(challenges.map((c) => [c.id, []]));
  const factors = bloodFactorList(game);

  // 3. Walk solves in time order.
  const byTeam = new Map<number, { score: number; last: number; solved: SolvedChallenge[] }>(
    input.teams.map((t) => [t.participationId, { score: 0, last: 0, solved: [] }]),
  );
  for (const f of facts) {
    const cid = f.solve.challengeId;
    const list = bloods.get(cid)!;
    let type: SubmissionType = "Normal";
    if (f.bloodEligible && list.length < 3) {
      type = BLOOD_TYPES[list.length]!;
      list.push({ id: f.team.teamId, name: f.team.name, avatar: f.team.avatar, submitTimeUtc: f.solve.time });
    }
    const points = solvePoints(value.get(cid)!, type, f.scoreEligible, factors);
    const entry = byTeam.get(f.team.participationId)!;
    entry.solved.push({ id: cid, score: points, type, userName: f.solve.userName, time: f.solve.time });
    entry.score += points;
    if (f.scoreEligible) entry.last = f.solve.time;
  }

  // 4. Sort: score desc, then who reached it first, then join order.
  const sorted = [...input.teams].sort((a, b) => {
    const ea = byTeam.get(a.participationId)!;
    const eb = byTeam.get(b.participationId)!;
    return eb.score - ea.score || ea.last - eb.last || a.participationId - b.participationId;
  });

  // 5. Ranks, 6. timelines (top 10 overall and per division).
  const items = rankItems(
    sorted.map((t) => {
      const e = byTeam.get(t.participationId)!;
      return {
        id: t.teamId,
        name: t.name,
        bio: t.bio,
        divisionId: t.divisionId,
        avatar: t.avatar,
        score: e.score,
        rank: 0,
        divisionRank: null,
        lastSubmissionTime: e.last,
        solvedChallenges: e.solved,
        solvedCount: e.solved.length,
      };
    }),
    input.divisions,
  );
  const timelines = timelinesOf(items, input.divisions);

  const grouped: Partial<Record<ChallengeCategory, ChallengeInfo[]>> = {};
  for (const c of challenges) {
    (grouped[c.category] ??= []).push({
      id: c.id,
      title: c.title,
      category: c.category,
      score: value.get(c.id)!,
      solved: counted.get(c.id) ?? 0,
      deadline: c.deadline,
      bloods: bloods.get(c.id)!,
      disableBloodBonus: c.disableBloodBonus,
    });
  }

  return {
    updateTimeUtc: input.now,
    bloodBonus: game.bloodBonus,
    timelines,
    items,
    divisions: input.divisions.map((d) => ({
      id: d.id,
      name: d.name,
      defaultPermissions: d.defaultPermissions,
      challengeConfigs: Object.fromEntries(
        Object.entries(d.challengeConfigs).map(([cid, permissions]) => [cid, { challengeId: Number(cid), permissions }]),
      ),
    })),
    challenges: grouped,
    challengeCount: challenges.length,
  };
}

/**
 * The left edge of the board's timeline: its earliest solve, or its update time when earlier. A loop, not
 * `Math.min(...times)`: spreading every solve of a large game (≈ 125,000 in V8) overflows the stack.
 */
export function firstSolveTime(board: Pick<ScoreboardModel, "items" | "updateTimeUtc">): number {
  let first = board.updateTimeUtc;
  for (const item of board.items) for (const solve of item.solvedChallenges) if (solve.time < first) first = solve.time;
  return first;
}
