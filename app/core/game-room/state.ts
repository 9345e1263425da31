import { type ChallengeCategory, type ChallengeType, GamePermission, type ParticipationStatus, type SubmissionType } from "../enums";
import { unpackBloodBonus } from "../game/blood-bonus";
import { computeGamePhase } from "../game/phase";
import { BLOOD_TYPES, type BoardDivision, type BoardInput, type BoardSolve, permissionsFor, solveFacts } from "../scoring/scoreboard";
import { computeChallengeValue } from "../scoring/value";
import type { ChallengeFlagCache } from "./judge";

/**
 * The game room's in-memory state (pure data) and the rules that read it: submission checks
 * (rules.md §1, §7) and blood order (§3). The Durable Object loads it from D1 and keeps it current.
 */

export interface RoomGame {
  id: number;
  title: string;
  hidden: boolean;
  start: number;
  end: number;
  practiceMode: boolean;
  bloodBonus: number;
  writeupRequired: boolean;
  writeupDeadline: number;
}

export interface RoomParticipation {
  id: number;
  teamId: number;
  name: string;
  bio: string;
  avatar: string | null;
  divisionId: number | null;
  status: ParticipationStatus;
  token: string;
}

export interface RoomChallenge {
  id: number;
  title: string;
  category: ChallengeCategory;
  type: ChallengeType;
  isEnabled: boolean;
  originalScore: number;
  minScoreRate: number;
  difficulty: number;
  deadline: number | null;
  disableBloodBonus: boolean;
  submissionLimit: number;
}

export interface RoomState {
  game: RoomGame;
  divisions: Map<number, BoardDivision>;
  /** By participation id. */
  participations: Map<number, RoomParticipation>;
  /** user id → participation id (registered members still in the participation's team). */
  members: Map<string, number>;
  /** Registered members who have left the participation's team since: they play for it no more. */
  departed: Set<string>;
  userNames: Map<string, string>;
  challenges: Map<number, RoomChallenge>;
  /** Loaded per challenge on first use. */
  flagCaches: Map<number, ChallengeFlagCache>;
  /** Challenge id → the participations that solved it (numbers in sets: no key object per solve). */
  solvedBy: Map<number, Set<number>>;
  /** Solves per challenge in judging order. */
  solvesByChallenge: Map<number, BoardSolve[]>;
  /** `${participationId}:${challengeId}` → submissions so far, for challenges with a submission limit. */
  submissionCounts: Map<string, number>;
}

export const pairKey = (participationId: number, challengeId: number) => `${participationId}:${challengeId}`;

export type SubmitRefusal = { status: number; code: string };

export function divisionOf(state: RoomState, p: RoomParticipation): BoardDivision | undefined {
  return p.divisionId === null ? undefined : state.divisions.get(p.divisionId);
}

export const hasPermission = (permissions: number, flag: number) => (permissions & flag) === flag;

/** Whether a team may see a challenge (enabled and ViewChallenge). */
export function canViewChallenge(state: RoomState, p: RoomParticipation, c: RoomChallenge): boolean {
  return c.isEnabled && hasPermission(permissionsFor(divisionOf(state, p), c.id), GamePermission.ViewChallenge);
}

/** Why a user without a participation in the room plays in none: never joined, or left the team since. */
export function notPlayingCode(state: RoomState, userId: string): "submission.left_team" | "submission.not_joined" {
  return state.departed.has(userId) ? "submission.left_team" : "submission.not_joined";
}

/** Checks of rules.md §7 step 1 after the flag itself: participation, phase, challenge, deadline, limit. */
export function checkSubmission(
  state: RoomState,
  userId: string,
  challengeId: number,
  now: number,
): { participation: RoomParticipation; challenge: RoomChallenge } | SubmitRefusal {
  const pid = state.members.get(userId);
  const p = pid === undefined ? undefined : state.participations.get(pid);
  if (!p) return { status: 403, code: notPlayingCode(state, userId) };
  if (p.status === "Suspended") return { status: 403, code: "game.banned" };
  if (p.status !== "Accepted") return { status: 403, code: "submission.not_player" };
  const phase = computeGamePhase({ startTime: state.game.start, endTime: state.game.end }, now);
  if (phase === "NotStarted") return { status: 10001, code: "game.not_started" };
  if (phase === "Ended" && !state.game.practiceMode) return { status: 10002, code: "game.ended" };
  const c = state.challenges.get(challengeId);
  if (!c || !canViewChallenge(state, p, c)) return { status: 404, code: "submission.challenge_not_found" };
  if (!hasPermission(permissionsFor(divisionOf(state, p), c.id), GamePermission.SubmitFlags)) return { status: 403, code: "submission.not_allowed" };
  if (c.deadline !== null && now > c.deadline && !state.game.practiceMode) return { status: 400, code: "submission.deadline_passed" };
  if (c.submissionLimit > 0 && (state.submissionCounts.get(pairKey(p.id, c.id)) ?? 0) >= c.submissionLimit)
    return { status: 400, code: "submission.limit_reached" };
  return { participation: p, challenge: c };
}

/** Whether a solve at `time` takes part in bloods (§3): in the window, before the deadline, bloods on, GetBlood. */
export function bloodEligible(state: RoomState, p: RoomParticipation, c: RoomChallenge, time: number): boolean {
  return solveFacts(state.game, p, divisionOf(state, p), c, time).bloodEligible;
}


/**
 * The rank a new solve takes: the next blood while fewer than three blood-eligible solves of accepted
 * teams exist, else Normal. Computed in judging order, so it matches the board.
 */
export function solveType(state: RoomState, p: RoomParticipation, c: RoomChallenge, time: number): SubmissionType {
  if (!bloodEligible(state, p, c, time)) return "Normal";
  let taken = 0;
  for (const s of state.solvesByChallenge.get(c.id) ?? []) {
    const other = state.participations.get(s.participationId);
    if (other && other.status === "Accepted" && bloodEligible(state, other, c, s.time)) taken++;
    if (taken >= 3) return "Normal";
  }
  return BLOOD_TYPES[taken]!;
}

/**
 * A challenge's counted solves (rules.md §3), on the board or not (a disabled one too): accepted teams'
 * solves in the game's time, before the deadline, by divisions that move the value. The board's `solved`
 * for the challenges it shows, and the challenge's stored `acceptedCount`.
 */
export function countedSolves(state: RoomState, c: RoomChallenge): number {
  let counted = 0;
  for (const s of state.solvesByChallenge.get(c.id) ?? []) {
    const p = state.participations.get(s.participationId);
    if (p && p.status === "Accepted" && solveFacts(state.game, p, divisionOf(state, p), c, s.time).counted) counted++;
  }
  return counted;
}

/** A challenge's current value from its counted solves; the board computes the same for the challenges it shows. */
export function challengeValue(state: RoomState, c: RoomChallenge): number {
  return computeChallengeValue(c, countedSolves(state, c));
}

/** The scoreboard input of the state: accepted teams, enabled challenges, all first solves. */
export function boardInput(state: RoomState, now: number): BoardInput {
  const solves: BoardSolve[] = [];
  for (const list of state.solvesByChallenge.values()) for (const s of list) solves.push(s);
  return {
    game: { start: state.game.start, end: state.game.end, bloodBonus: state.game.bloodBonus, bloodFactors: unpackBloodBonus(state.game.bloodBonus) },
    divisions: [...state.divisions.values()],
    teams: [...state.participations.values()]
      .filter((p) => p.status === "Accepted")
      .sort((a, b) => a.id - b.id)
      .map((p) => ({ participationId: p.id, teamId: p.teamId, name: p.name, bio: p.bio, avatar: p.avatar, divisionId: p.divisionId })),
    challenges: [...state.challenges.values()]
      .filter((c) => c.isEnabled)
      .map((c) => ({
        id: c.id,
        title: c.title,
        category: c.category,
        originalScore: c.originalScore,
        minScoreRate: c.minScoreRate,
        difficulty: c.difficulty,
        deadline: c.deadline,
        disableBloodBonus: c.disableBloodBonus,
      })),
    solves,
    now,
  };
}

export const hasSolved = (state: RoomState, participationId: number, challengeId: number): boolean =>
  state.solvedBy.get(challengeId)?.has(participationId) ?? false;

/** Records a solve in judging order. */
export function addSolve(state: RoomState, solve: BoardSolve): void {
  const solvers = state.solvedBy.get(solve.challengeId);
  if (solvers) solvers.add(solve.participationId);
  else state.solvedBy.set(solve.challengeId, new Set([solve.participationId]));
  const list = state.solvesByChallenge.get(solve.challengeId);
  if (list) list.push(solve);
  else state.solvesByChallenge.set(solve.challengeId, [solve]);
}

/** Who may hold the game's player sockets as far as the room knows: its visibility and its players. */
export interface RoomAccess {
  hidden: boolean;
  /** User id → the team of each registered member, still in that team, whose participation is Accepted. */
  accepted: Map<string, number>;
}

export function roomAccess(state: RoomState): RoomAccess {
  const accepted = new Map<string, number>();
  for (const [userId, participationId] of state.members) {
    const p = state.participations.get(participationId);
    if (p?.status === "Accepted") accepted.set(userId, p.teamId);
  }
  return { hidden: state.game.hidden, accepted };
}
