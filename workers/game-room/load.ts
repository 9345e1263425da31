import type { ChallengeCategory, ChallengeType, ParticipationStatus } from "~/core/enums";
import { emptyFlagCache, setInstance, type ChallengeFlagCache } from "~/core/game-room/judge";
import { addSolve, pairKey, type RoomAccess, type RoomChallenge, type RoomGame, type RoomParticipation, type RoomState } from "~/core/game-room/state";
import type { BoardDivision } from "~/core/scoring/scoreboard";

/**
 * Bulk loads of the room's state from D1: one batch of a few SELECTs (no per-row queries), read as raw
 * arrays. Flags and instances are loaded per challenge on first use.
 */

type Row = unknown[];
const avatar = (hash: unknown) => (hash ? `/assets/${String(hash)}/avatar` : null);

export function gameFromRow(r: Row): RoomGame {
  return {
    id: Number(r[0]),
    title: String(r[1]),
    hidden: Boolean(r[2]),
    start: Number(r[3]),
    end: Number(r[4]),
    practiceMode: Boolean(r[5]),
    bloodBonus: Number(r[6]),
    writeupRequired: Boolean(r[7]),
    writeupDeadline: Number(r[8]),
  };
}

const GAME_SQL =
  "SELECT id, title, hidden, start_time, end_time, practice_mode, blood_bonus, writeup_required, writeup_deadline FROM games WHERE id = ?1";
const DIVISIONS_SQL = "SELECT id, name, default_permissions FROM divisions WHERE game_id = ?1 ORDER BY id";
const DIVISION_CONFIGS_SQL =
  "SELECT c.division_id, c.challenge_id, c.permissions FROM division_challenge_configs c JOIN divisions d ON d.id = c.division_id WHERE d.game_id = ?1";
const PARTICIPATIONS_SQL =
  "SELECT p.id, p.team_id, t.name, t.bio, t.avatar_hash, p.division_id, p.status, p.token FROM participations p JOIN teams t ON t.id = p.team_id WHERE p.game_id = ?1";
/**
 * The registered members, each with whether they are still in the participation's team: one who left keeps
 * the registration (its crew; no other team in the game) but plays for the team no more.
 */
const MEMBERS_SQL =
  "SELECT m.user_id, m.participation_id, u.user_name, EXISTS (SELECT 1 FROM participations p JOIN team_members t ON t.team_id = p.team_id AND t.user_id = m.user_id WHERE p.id = m.participation_id) FROM participation_members m JOIN users u ON u.id = m.user_id WHERE m.game_id = ?1";

/** Puts the rows of MEMBERS_SQL into the state's players, those who left their team and the names. */
function setMembers(state: RoomState, rows: unknown[][]): void {
  state.members = new Map();
  state.departed = new Set();
  for (const r of rows) {
    const userId = String(r[0]);
    if (Number(r[3]) === 1) state.members.set(userId, Number(r[1]));
    else state.departed.add(userId);
    state.userNames.set(userId, String(r[2]));
  }
}
const CHALLENGES_SQL =
  "SELECT id, title, category, type, is_enabled, original_score, min_score_rate, difficulty, deadline, disable_blood_bonus, submission_limit FROM challenges WHERE game_id = ?1";
/**
 * The first solves, one row per challenge holding its solves as a JSON array in judging order (as the
 * room records them live; the board sorts all solves itself). One value per challenge crosses
 * D1's transport instead of five per solve: 50,000 solves are read in ≈ 70 ms instead of ≈ 135 ms
 * (DECISIONS.md), and each value stays far below D1's 2 MB limit.
 */
const SOLVES_SQL =
  "SELECT s.challenge_id, json_group_array(json_array(s.participation_id, s.submission_id, s.submit_time, coalesce(u.user_name, '')) ORDER BY s.submit_time, s.submission_id) FROM first_solves s LEFT JOIN users u ON u.id = s.user_id WHERE s.game_id = ?1 GROUP BY s.challenge_id";

function divisionsFrom(rows: Row[], configs: Row[]): Map<number, BoardDivision> {
  const map = new Map<number, BoardDivision>();
  for (const r of rows) map.set(Number(r[0]), { id: Number(r[0]), name: String(r[1]), defaultPermissions: Number(r[2]), challengeConfigs: {} });
  for (const r of configs) {
    const d = map.get(Number(r[0]));
    if (d) d.challengeConfigs[Number(r[1])] = Number(r[2]);
  }
  return map;
}

function participationsFrom(rows: Row[]): Map<number, RoomParticipation> {
  const map = new Map<number, RoomParticipation>();
  for (const r of rows) {
    map.set(Number(r[0]), {
      id: Number(r[0]),
      teamId: Number(r[1]),
      name: String(r[2]),
      bio: String(r[3] ?? ""),
      avatar: avatar(r[4]),
      divisionId: r[5] === null ? null : Number(r[5]),
      status: String(r[6]) as ParticipationStatus,
      token: String(r[7]),
    });
  }
  return map;
}

function challengesFrom(rows: Row[]): Map<number, RoomChallenge> {
  const map = new Map<number, RoomChallenge>();
  for (const r of rows) {
    map.set(Number(r[0]), {
      id: Number(r[0]),
      title: String(r[1]),
      category: String(r[2]) as ChallengeCategory,
      type: String(r[3]) as ChallengeType,
      isEnabled: Boolean(r[4]),
      originalScore: Number(r[5]),
      minScoreRate: Number(r[6]),
      difficulty: Number(r[7]),
      deadline: r[8] === null ? null : Number(r[8]),
      disableBloodBonus: Boolean(r[9]),
      submissionLimit: Number(r[10]),
    });
  }
  return map;
}

/** The whole state of a game, or null when the game does not exist. */
export async function loadState(db: D1Database, gameId: number): Promise<RoomState | null> {
  const q = (sql: string) => db.prepare(sql).bind(gameId);
  // The room is the only writer of its first solves, and it is not writing while it loads.
  const [results, solvesByChallenge] = await Promise.all([
    db.batch([q(GAME_SQL), q(DIVISIONS_SQL), q(DIVISION_CONFIGS_SQL), q(PARTICIPATIONS_SQL), q(MEMBERS_SQL), q(CHALLENGES_SQL)]),
    q(SOLVES_SQL).raw(),
  ]);
  const [game, divisions, configs, participations, members, challenges] = results.map((r) =>
    (r.results as Record<string, unknown>[]).map((o) => Object.values(o)),
  );
  if (!game || game.length === 0) return null;
  const state: RoomState = {
    game: gameFromRow(game[0]!),
    divisions: divisionsFrom(divisions!, configs!),
    participations: participationsFrom(participations!),
    members: new Map(),
    departed: new Set(),
    userNames: new Map(),
    challenges: challengesFrom(challenges!),
    flagCaches: new Map(),
    solvedBy: new Map(),
    solvesByChallenge: new Map(),
    submissionCounts: new Map(),
  };
  setMembers(state, members!);
  // One string per solver, not one per solve: the room's heap is walked whole by every full GC, whose
  // pauses are the tail of the verdict latency (BENCHMARKS.md).
  const names = new Map<string, string>();
  for (const [challengeId, json] of solvesByChallenge) {
    for (const [participationId, submissionId, time, parsed] of JSON.parse(String(json)) as [number, number, number, string][]) {
      let userName = names.get(parsed);
      if (userName === undefined) names.set(parsed, (userName = parsed));
      addSolve(state, { participationId, challengeId: Number(challengeId), submissionId, time, userName });
    }
  }
  const limited = [...state.challenges.values()].filter((c) => c.submissionLimit > 0).map((c) => c.id);
  state.submissionCounts = await countSubmissions(db, limited);
  return state;
}

/**
 * Submission counts per team (by `pairKey`) of the given challenges in D1; with `below`, only rows whose
 * id is under it and not in `except` (rows the caller counts from its own memory).
 */
export async function countSubmissions(db: D1Database, challengeIds: number[], below?: { id: number | null; except: number[] }): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (challengeIds.length === 0) return counts;
  const rows = await db
    .prepare(
      `SELECT participation_id, challenge_id, count(*) FROM submissions WHERE challenge_id IN (SELECT value FROM json_each(?1))
       AND (?2 IS NULL OR id < ?2) AND id NOT IN (SELECT value FROM json_each(?3)) GROUP BY participation_id, challenge_id`,
    )
    .bind(JSON.stringify(challengeIds), below?.id ?? null, JSON.stringify(below?.except ?? []))
    .raw();
  for (const r of rows) counts.set(pairKey(Number(r[0]), Number(r[1])), Number(r[2]));
  return counts;
}

/**
 * Reloads the parts of the state that edits change (everything except solves and flag caches). Resolves
 * with the challenges whose submission limit was just turned on (the room counts their attempts), null
 * when the game is gone.
 */
export async function reloadMeta(db: D1Database, state: RoomState): Promise<number[] | null> {
  const gameId = state.game.id;
  const q = (sql: string) => db.prepare(sql).bind(gameId);
  const results = await db.batch([q(GAME_SQL), q(DIVISIONS_SQL), q(DIVISION_CONFIGS_SQL), q(PARTICIPATIONS_SQL), q(MEMBERS_SQL), q(CHALLENGES_SQL)]);
  const [game, divisions, configs, participations, members, challenges] = results.map((r) =>
    (r.results as Record<string, unknown>[]).map((o) => Object.values(o)),
  );
  if (!game || game.length === 0) return null;
  state.game = gameFromRow(game[0]!);
  state.divisions = divisionsFrom(divisions!, configs!);
  state.participations = participationsFrom(participations!);
  setMembers(state, members!);
  const before = state.challenges;
  state.challenges = challengesFrom(challenges!);
  // Challenges gone or whose type changed lose their caches; solves of deleted challenges go too.
  for (const id of before.keys()) {
    if (!state.challenges.has(id)) {
      state.flagCaches.delete(id);
      state.solvedBy.delete(id);
      state.solvesByChallenge.delete(id);
    }
  }
  // Solves of deleted participations go.
  for (const [cid, list] of state.solvesByChallenge) {
    const kept = list.filter((s) => state.participations.has(s.participationId));
    if (kept.length !== list.length) {
      state.solvesByChallenge.set(cid, kept);
      for (const s of list) if (!state.participations.has(s.participationId)) state.solvedBy.get(cid)?.delete(s.participationId);
    }
  }
  return [...state.challenges.values()].filter((c) => c.submissionLimit > 0 && !before.get(c.id)?.submissionLimit).map((c) => c.id);
}

const ACCEPTED_SQL =
  "SELECT m.user_id, p.team_id FROM participation_members m JOIN participations p ON p.id = m.participation_id JOIN team_members t ON t.team_id = p.team_id AND t.user_id = m.user_id WHERE m.game_id = ?1 AND p.status = 'Accepted'";

/**
 * Who may hold the game's player sockets (the game's visibility and its accepted players), read without
 * loading the room; null when the game does not exist.
 */
export async function loadAccess(db: D1Database, gameId: number): Promise<RoomAccess | null> {
  const [game, members] = await db.batch([db.prepare("SELECT hidden FROM games WHERE id = ?1").bind(gameId), db.prepare(ACCEPTED_SQL).bind(gameId)]);
  const row = (game!.results as { hidden: number }[])[0];
  if (!row) return null;
  const accepted = new Map<string, number>();
  for (const r of members!.results as { user_id: string; team_id: number }[]) accepted.set(String(r.user_id), Number(r.team_id));
  return { hidden: Boolean(row.hidden), accepted };
}

/** Each challenge's acceptedCount as D1 holds it (the admin list's solve count), by challenge id. */
export async function loadStoredCounts(db: D1Database, gameId: number): Promise<Map<number, number>> {
  const rows = await db.prepare("SELECT id, accepted_count FROM challenges WHERE game_id = ?1").bind(gameId).raw();
  return new Map(rows.map((r) => [Number(r[0]), Number(r[1])]));
}

/**
 * Whether a change to the game may have moved a stored count while the room is not loaded: it has solves,
 * or a count above 0 (without either there is nothing a count could be wrong about).
 */
export async function mayHaveCounts(db: D1Database, gameId: number): Promise<boolean> {
  const row = await db
    .prepare("SELECT EXISTS (SELECT 1 FROM first_solves WHERE game_id = ?1) OR EXISTS (SELECT 1 FROM challenges WHERE game_id = ?1 AND accepted_count <> 0) AS v")
    .bind(gameId)
    .first<{ v: number }>();
  return Boolean(row?.v);
}

/** Whether the game is hidden; null when it does not exist. */
export async function loadHidden(db: D1Database, gameId: number): Promise<boolean | null> {
  const row = await db.prepare("SELECT hidden FROM games WHERE id = ?1").bind(gameId).first<{ hidden: number }>();
  return row ? Boolean(row.hidden) : null;
}

/** A challenge's flags and instances (with each team's own flag for dynamic types). */
export async function loadFlagCache(db: D1Database, challenge: RoomChallenge): Promise<ChallengeFlagCache> {
  const dynamic = challenge.type === "DynamicAttachment" || challenge.type === "DynamicContainer";
  const [flags, instances] = await db.batch([
    db.prepare("SELECT flag FROM flags WHERE challenge_id = ?1").bind(challenge.id),
    db
      .prepare("SELECT i.participation_id, coalesce(i.flag, f.flag) FROM game_instances i LEFT JOIN flags f ON f.id = i.flag_id WHERE i.challenge_id = ?1")
      .bind(challenge.id),
  ]);
  const cache = emptyFlagCache(dynamic);
  if (!dynamic) cache.staticFlags = (flags!.results as { flag: string }[]).map((r) => r.flag);
  for (const r of instances!.results as Record<string, unknown>[]) {
    const [pid, flag] = Object.values(r);
    setInstance(cache, Number(pid), dynamic && flag != null ? String(flag) : null);
  }
  return cache;
}
