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
const BLOOD_TYPES: SubmissionType[] = ["FirstBlood", "SecondBlood", "ThirdBlood"];

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

interface SolveFacts {
  solve: BoardSolve;
  team: BoardTeam;
  scoreEligible: boolean;
  counted: boolean;
  bloodEligible: boolean;
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
  const facts: SolveFacts[] = ordered.map((solve) => {
    const team = teamByParticipation.get(solve.participationId)!;
    const challenge = challengeById.get(solve.challengeId)!;
    const perms = permissionsFor(team.divisionId === null ? undefined : divisionById.get(team.divisionId), challenge.id);
    const inWindow = game.start <= solve.time && solve.time < game.end;
    const beforeDeadline = challenge.deadline === null || solve.time <= challenge.deadline;
    const timely = inWindow && beforeDeadline;
    return {
      solve,
      team,
      scoreEligible: timely && has(perms, GamePermission.GetScore),
      counted: timely && has(perms, GamePermission.AffectDynamicScore),
      bloodEligible: timely && !challenge.disableBloodBonus && has(perms, GamePermission.GetBlood),
    };
  });

  // 2. Per challenge: counted solves, current value, bloods.
  const counted = new Map<number, number>();
  for (const f of facts) if (f.counted) counted.set(f.solve.challengeId, (counted.get(f.solve.challengeId) ?? 0) + 1);
  const value = new Map(challenges.map((c) => [c.id, computeChallengeValue(c, counted.get(c.id) ?? 0)]));
  const bloods = new Map<number, Blood[]>(challenges.map((c) => [c.id, []]));
  const factors = [game.bloodFactors.first, game.bloodFactors.second, game.bloodFactors.third];

  // 3. Walk solves in time order.
  const byTeam = new Map<number, { score: number; last: number; solved: SolvedChallenge[] }>(
    input.teams.map((t) => [t.participationId, { score: 0, last: 0, solved: [] }]),
  );
  const timelinePoints = new Map<number, { time: number; score: number }[]>();
  for (const f of facts) {
    const cid = f.solve.challengeId;
    const list = bloods.get(cid)!;
    let type: SubmissionType = "Normal";
    let points = value.get(cid)!;
    if (f.bloodEligible && list.length < 3) {
      const index = list.length;
      type = BLOOD_TYPES[index]!;
      points = computeBloodPoints(points, factors[index]!);
      list.push({ id: f.team.teamId, name: f.team.name, avatar: f.team.avatar, submitTimeUtc: f.solve.time });
    }
    if (!f.scoreEligible) points = 0;
    const entry = byTeam.get(f.team.participationId)!;
    entry.solved.push({ id: cid, score: points, type, userName: f.solve.userName, time: f.solve.time });
    entry.score += points;
    if (f.scoreEligible) entry.last = f.solve.time;
    const line = timelinePoints.get(f.team.participationId) ?? [];
    line.push({ time: f.solve.time, score: entry.score });
    timelinePoints.set(f.team.participationId, line);
  }

  // 4. Sort: score desc, then who reached it first, then join order.
  const sorted = [...input.teams].sort((a, b) => {
    const ea = byTeam.get(a.participationId)!;
    const eb = byTeam.get(b.participationId)!;
    return eb.score - ea.score || ea.last - eb.last || a.participationId - b.participationId;
  });

  // 5. Ranks.
  let overall = 0;
  const perDivision = new Map<number, number>();
  const items: ScoreboardItem[] = sorted.map((t) => {
    const e = byTeam.get(t.participationId)!;
    const division = t.divisionId === null ? undefined : divisionById.get(t.divisionId);
    const ranksOverall = !division || has(division.defaultPermissions, GamePermission.RankOverall);
    let divisionRank: number | null = null;
    if (t.divisionId !== null) {
      divisionRank = (perDivision.get(t.divisionId) ?? 0) + 1;
      perDivision.set(t.divisionId, divisionRank);
    }
    return {
      id: t.teamId,
      name: t.name,
      bio: t.bio,
      divisionId: t.divisionId,
      avatar: t.avatar,
      score: e.score,
      rank: ranksOverall ? ++overall : 0,
      divisionRank,
      lastSubmissionTime: e.last,
      solvedChallenges: e.solved,
      solvedCount: e.solved.length,
    };
  });

  // 6. Timelines: top 10 ranked overall, and top 10 of each division.
  const participationOfTeam = new Map(input.teams.map((t) => [t.teamId, t.participationId]));
  const lineOf = (item: ScoreboardItem): TimelineTeam => ({
    id: item.id,
    name: item.name,
    items: timelinePoints.get(participationOfTeam.get(item.id)!) ?? [],
  });
  const timelines: Timeline[] = [
    { divisionId: 0, teams: items.filter((i) => i.rank > 0).slice(0, TIMELINE_TEAMS).map(lineOf) },
    ...input.divisions.map((d) => ({
      divisionId: d.id,
      teams: items.filter((i) => i.divisionId === d.id).slice(0, TIMELINE_TEAMS).map(lineOf),
    })),
  ];

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
