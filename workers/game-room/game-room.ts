import { isDeepStrictEqual } from "node:util";
import { composeLogText } from "~/.server/services/logs";
import type { AnswerResult } from "~/core/enums";
import { type BoardDelta, type BoardIndex, indexBoard, refetchDelta, solveDelta, solvedCounts } from "~/core/game-room/delta";
import { type ChallengeFlagCache, judge, playerStatus, setInstance } from "~/core/game-room/judge";
import { addSolve, boardInput, canViewChallenge, challengeValue, checkSubmission, countedSolves, hasSolved, notPlayingCode, pairKey, type RoomAccess, roomAccess, type RoomState, solveType } from "~/core/game-room/state";
import { computeGamePhase } from "~/core/game/phase";
import { etagMatches } from "~/core/http/conditional";
import { type BodyCoding, gzipBytes } from "~/core/http/encoding";
import { redactField } from "~/core/log-redact";
import { type Channel, type GameEvent, type LogMessage, relayReauthorize, type SubmissionRecord } from "~/core/protocol";
import { TokenBucketLimiter } from "~/core/rate-limit";
import { type BoardSolve, type ChallengeInfo, computeScoreboard, type ScoreboardItem, type ScoreboardModel, type TeamResult } from "~/core/scoring/scoreboard";
import { type GameAccessChange, lostTeams, reauthorizeGameSocket } from "~/core/socket-access";
import { type OutgoingMessage, SocketHub } from "../shared/socket-hub";
import { keepBoardCopy, pageKey, withdrawBoardCopies } from "./board-copies";
import { countSubmissions, loadAccess, loadFlagCache, loadHidden, loadState, loadStoredCounts, mayHaveCounts, reloadMeta } from "./load";
import type { BoardRead, DetailsResult, RefreshWhat, RoomRefusal, StatusResult, SubmitRequest, SubmitResult } from "./types";
import { drainStatements, emptyWrites, hasWrites, IdPool, j, mergeWrites, type NewSubmission, type PendingWrites, reserveIdsStatements } from "./writes";

export type { BoardRead, DetailsResult, RefreshWhat, StatusResult, SubmitRequest, SubmitResult } from "./types";

/**
 * A flush starts this long after the first queued submission (at once when MAX_BATCH are waiting, or when the
 * submission came alone: FLUSH_QUIET_MS).
 * A flush writes the batch to the room's own journal (its SQLite storage: ≈ 0.45 ms of the runtime's
 * thread, against ≈ 1.8 ms for the same rows through D1 — BENCHMARKS.md, twelfth round); at 1,000
 * submissions a second this makes ≈ 225 flushes of 4–5 rows.
 */
const FLUSH_DELAY_MS = 2;
/**
 * A submission this long after the one before it is stored at once: nothing streams in to batch it with (a
 * real game's submissions come seconds apart). Alone, its answer took 6 ms with the wait and 2.4 ms without
 * (p50). In a stream flushes still wait FLUSH_DELAY_MS: flushing every arrival at once made the 1,000/s
 * storm's p99s worse (more commits), and at 10 ms 1.6 % of that storm's submissions came "alone" (after the
 * runtime's pauses, with others right behind them); at 50 ms none did (BENCHMARKS.md, thirty-ninth round).
 */
const FLUSH_QUIET_MS = 50;
const MAX_BATCH = 500;
/**
 * Judged submissions and what their verdicts wrote reach D1 together, at most this long after the first
 * of them (at once when DRAIN_MAX rows wait): a few D1 calls a second instead of one per flush.
 */
const DRAIN_MS = 250;
const DRAIN_MAX = 2_000;
/**
 * A flush that journals rows arms the room's alarm (if not armed) this far ahead. The alarm drains the
 * journal, loading the room first if needed: rows journaled before a restart or an eviction reach D1
 * without waiting for someone to open the game (an overdue alarm runs when the runtime starts again).
 */
const JOURNAL_ALARM_MS = 5_000;
const WRITE_ATTEMPTS = 3;
/** Submission ids are reserved in D1 this many at a time, the next block once half of one is left. */
const ID_BLOCK = 512;
/**
 * Solves are added to the board (and pushed) together: at most one delta per interval while they stream
 * in. Each delta reaches every open board (1,000 sockets in the benchmark): 30 ms brought solve → push
 * p99 near 100 ms at 1,000 submissions a second; 20 ms cost more than it saved (BENCHMARKS.md, fifth round).
 */
const BOARD_INTERVAL_MS = 30;
/**
 * A solve this long after the board's last delta goes out at once: nothing streams in to batch it with (a
 * real game's solves are seconds apart). Sending the first after any gap of 30 ms made 27 deltas a second
 * instead of 21 in the 1,000/s storm, with worse p99s; at 200/s it halved the push's p50. At 100 ms neither
 * storm changes (their deltas come ≈ 47 and ≈ 80 ms apart; BENCHMARKS.md, thirty-eighth round).
 */
const BOARD_QUIET_MS = 100;
/** Stored log records reach the admins' live log stream together, at most this often. */
const LOG_PUSH_MS = 250;
/** A dynamic challenge's flags are re-read from D1 on a miss when older than this. */
const FLAG_CACHE_MAX_AGE_MS = 2_000;
/** Submissions whose judging failed (D1 refused a flag read) are judged again this long after, first. */
const JUDGE_RETRY_MS = 1_000;
const RECENT_LIMIT = 200_000;
const utf8 = new TextEncoder();

interface Queued {
  sub: NewSubmission;
  userName: string;
  resolve: (result: SubmitResult) => void;
}

interface Judged {
  id: number;
  /** D1 holds the row already (as FlagSubmitted): its verdict is an update, not a new row. */
  inD1: boolean;
  challengeId: number;
  participationId: number;
  userId: string | null;
  userName: string;
  answer: string;
  time: number;
  ip: string;
}

interface Board {
  model: ScoreboardModel;
  version: number;
  etag: string;
  /**
   * The whole board serialised (UTF-8) on its first read of this version. Bytes, not a string: a read
   * copies them to the Worker outside its JS heap, where a 4 MB string per read of a 1,000-team board
   * filled the old generation and put a 190 ms collection into the next submission storm (BENCHMARKS.md,
   * fifth round).
   */
  whole: BoardBody | null;
  /** Pages of the items (first page reads), by `skip:count`. */
  pages: Map<string, BoardBody>;
}

interface BoardBody {
  etag: string;
  body: Uint8Array<ArrayBuffer>;
  /** The same bytes gzipped, made on the first read that accepts gzip: one compression per version. */
  gzip: Promise<Uint8Array<ArrayBuffer>> | null;
}

const refusal = (status: number, code: string, retryAfter?: number): RoomRefusal =>
  retryAfter === undefined ? { ok: false, status, code } : { ok: false, status, code, retryAfter };

/** Refreshes after which the open player sockets are checked again (visibility, participations, members). */
const changesAccess = (what: RefreshWhat) => what === "game" || what === "participations" || what === "all" || what === "solves";

/**
 * Whether a change may move the counted solves (rules.md §3) without a solve: a team suspended or back, the
 * game's times, a challenge's deadline, a division's permissions, solves deleted with their team. A team's
 * own flag (an instance) does not.
 */
const movesCounts = (what: RefreshWhat) => typeof what !== "object" || !("participationId" in what);

/**
 * One per game (named `game:{id}`): the single judge of the game's submissions and the holder of its live
 * scoreboard. Players subscribe on channel `game`, monitors on `monitor`.
 *
 * Submissions are queued and written to the room's journal (its own SQLite storage) in one batch per
 * flush, numbered from id blocks reserved in D1; each caller gets its id once its row is durable (the
 * runtime holds the room's replies until the write is on disk). The batch is judged in id order from
 * memory at once. Judged rows and what their verdicts wrote reach D1 in drains a few times a second, and
 * leave the journal then. On wake the room rebuilds from D1 and re-judges, in id order, every journaled
 * row D1 does not have yet (and any D1 row still FlagSubmitted); its alarm wakes it after a restart.
 */
export class GameRoom extends SocketHub {
  protected allowedChannels: readonly Channel[] = ["game", "monitor"];

  private state: RoomState | null = null;
  private loading: Promise<RoomState | null> | null = null;
  private readonly nonce = crypto.randomUUID().slice(0, 8);
  private queue: Queued[] = [];
  /** The batch a flush took from the queue and has not journaled yet (waiting for ids). */
  private journaling: Queued[] = [];
  /** Journaled submissions whose judging failed, in id order: judged again before any later one. */
  private unjudged: Judged[] = [];
  private judgeRetryTimer: ReturnType<typeof setTimeout> | null = null;
  private writes: PendingWrites = emptyWrites();
  private flushing: Promise<void> | null = null;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  /** FLUSH_DELAY_MS (tests lengthen it to hold submissions). */
  private flushDelayMs = FLUSH_DELAY_MS;
  /** When the last submission came: one FLUSH_QUIET_MS after it is flushed at once. */
  private arrivedAt = 0;
  private readonly ids = new IdPool();
  private reserving: Promise<boolean> | null = null;
  private draining: Promise<boolean> | null = null;
  private drainTimer: ReturnType<typeof setTimeout> | null = null;
  private journalReady = false;
  private alarmArmed = false;
  private lastTime = 0;
  private recent = new Map<number, { participationId: number; challengeId: number; status: AnswerResult }>();
  private flagLoadedAt = new Map<number, number>();
  private outgoing: OutgoingMessage[] = [];
  private board: Board | null = null;
  private boardVersion = 0;
  private boardTimer: ReturnType<typeof setTimeout> | null = null;
  /** When the last solves' delta was made: a solve BOARD_QUIET_MS after it is not batched. */
  private boardDeltaAt = 0;
  /** BOARD_INTERVAL_MS (tests lengthen it to hold solves). */
  private boardIntervalMs = BOARD_INTERVAL_MS;
  private logsOut: LogMessage[] = [];
  private logTimer: ReturnType<typeof setTimeout> | null = null;
  /** The board's inputs other than solves, indexed (made by each full computation). */
  private boardIndex: BoardIndex | null = null;
  /** Solves judged since the board's version, added by the next delta. */
  private pendingSolves: BoardSolve[] = [];
  /** The latest solve time on the board: a solve judged before it (never live) needs a full computation. */
  private boardSolveTime = 0;
  /** The Submit bucket (rules.md §10): 100 per team, 50 more every 5 s. */
  private readonly limiter = new TokenBucketLimiter(100, 50, 5_000);
  private lastLoadMs = 0;
  private lastRejudged = 0;

  // ── State ──────────────────────────────────────────────────────────────────────────────────────────

  private async ready(gameId: number): Promise<RoomState | null> {
    // A load sets the state before it judges again what a restart left: until it is done every call waits
    // for it, so nothing new is judged before the journal's older rows (bloods follow ids), and no drain
    // of a newer row can take older ones out of the journal before they reach D1.
    if (!this.loading && this.state && this.state.game.id === gameId) return this.state;
    this.loading ??= this.load(gameId).finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async load(gameId: number): Promise<RoomState | null> {
    withdrawBoardCopies(gameId);
    const started = Date.now();
    const state = await loadState(this.env.DB, gameId);
    const journal = this.journal();
    if (!state) {
      // The game is gone: so is anything journaled for it.
      journal.exec("DELETE FROM journal WHERE game_id = ?", gameId);
      return null;
    }
    this.state = state;
    this.flagLoadedAt.clear();
    // Crash recovery, in id order: rows D1 holds as FlagSubmitted (stored before the room kept a
    // journal), then every journaled row D1 does not have yet. Judging is deterministic in that order,
    // so a row judged before the restart gets the same verdict and blood again.
    const pending = await this.env.DB.prepare(
      "SELECT id, challenge_id, participation_id, user_id, answer, submit_time, ip FROM submissions WHERE game_id = ?1 AND status = 'FlagSubmitted' ORDER BY id",
    )
      .bind(gameId)
      .raw();
    const recs: Judged[] = pending.map((r) => ({
      id: Number(r[0]),
      inD1: true,
      challengeId: Number(r[1]),
      participationId: Number(r[2]),
      userId: r[3] === null ? null : String(r[3]),
      userName: "",
      answer: String(r[4]),
      time: Number(r[5]),
      ip: String(r[6] ?? ""),
    }));
    const journaled = journal
      .exec<{ id: number; challenge_id: number; participation_id: number; user_id: string | null; user_name: string; answer: string; submit_time: number; ip: string }>(
        "SELECT id, challenge_id, participation_id, user_id, user_name, answer, submit_time, ip FROM journal WHERE game_id = ? ORDER BY id",
        gameId,
      )
      .toArray();
    if (journaled.length > 0) {
      // A drain that committed in D1 just before the restart left its rows here too.
      const drained = await this.env.DB.prepare("SELECT id FROM submissions WHERE game_id = ?1 AND id >= ?2").bind(gameId, journaled[0]!.id).raw();
      const inD1 = new Set(drained.map((r) => Number(r[0])));
      if (inD1.size > 0) journal.exec("DELETE FROM journal WHERE id IN (SELECT value FROM json_each(?))", JSON.stringify([...inD1]));
      for (const r of journaled) {
        if (inD1.has(r.id)) continue;
        recs.push({ id: r.id, inD1: false, challengeId: r.challenge_id, participationId: r.participation_id, userId: r.user_id, userName: r.user_name, answer: r.answer, time: r.submit_time, ip: r.ip });
        const challenge = state.challenges.get(r.challenge_id);
        if (challenge && challenge.submissionLimit > 0) {
          const key = pairKey(r.participation_id, r.challenge_id);
          state.submissionCounts.set(key, (state.submissionCounts.get(key) ?? 0) + 1);
        }
      }
    }
    recs.sort((a, b) => a.id - b.id);
    for (const rec of recs) {
      rec.userName ||= (rec.userId && state.userNames.get(rec.userId)) || "";
      this.lastTime = Math.max(this.lastTime, rec.time);
    }
    await this.judgeInOrder(recs);
    this.lastRejudged = recs.length;
    this.recomputeBoard(false);
    this.lastLoadMs = Date.now() - started;
    await this.pushOut();
    this.scheduleDrain(true);
    return state;
  }

  /** The room's journal of submissions not yet in D1 (made on first use). */
  private journal(): SqlStorage {
    const sql = this.ctx.storage.sql;
    if (!this.journalReady) {
      sql.exec(
        `CREATE TABLE IF NOT EXISTS journal (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, challenge_id INTEGER NOT NULL,
         participation_id INTEGER NOT NULL, user_id TEXT, user_name TEXT NOT NULL, answer TEXT NOT NULL, submit_time INTEGER NOT NULL, ip TEXT NOT NULL)`,
      );
      this.journalReady = true;
    }
    return sql;
  }

  private async flagCache(challengeId: number, maxAge?: number): Promise<ChallengeFlagCache | null> {
    const state = this.state!;
    const challenge = state.challenges.get(challengeId);
    if (!challenge) return null;
    const cached = state.flagCaches.get(challengeId);
    const loadedAt = this.flagLoadedAt.get(challengeId) ?? 0;
    if (cached && (maxAge === undefined || Date.now() - loadedAt <= maxAge)) return cached;
    const fresh = await loadFlagCache(this.env.DB, challenge);
    state.flagCaches.set(challengeId, fresh);
    this.flagLoadedAt.set(challengeId, Date.now());
    return fresh;
  }

  // ── Submissions ────────────────────────────────────────────────────────────────────────────────────

  /** Checks a submission against the room's state and stores it; resolves with its id once durable. */
  async submit(req: SubmitRequest): Promise<SubmitResult> {
    const state = await this.ready(req.gameId);
    if (!state) return refusal(404, "game.not_found");
    const now = Date.now();
    const checked = checkSubmission(state, req.userId, req.challengeId, now);
    if ("code" in checked) return refusal(checked.status, checked.code);
    const { participation } = checked;
    // The Submit bucket is the team's (rules.md §10), so it counts for loopback clients too.
    if (String(this.env.FLAGSTAFF_DISABLE_RATE_LIMIT) !== "true") {
      const wait = this.limiter.hit(`p:${participation.id}`, now);
      if (wait > 0) return refusal(429, "common.too_many_requests", wait);
    }
    const time = Math.max(now, this.lastTime);
    this.lastTime = time;
    const alone = now - this.arrivedAt >= FLUSH_QUIET_MS;
    this.arrivedAt = now;
    if (checked.challenge.submissionLimit > 0) {
      const key = pairKey(participation.id, req.challengeId);
      state.submissionCounts.set(key, (state.submissionCounts.get(key) ?? 0) + 1);
    }
    return new Promise<SubmitResult>((resolve) => {
      this.queue.push({
        sub: { challengeId: req.challengeId, participationId: participation.id, userId: req.userId, answer: req.answer, time, ip: req.ip },
        userName: req.userName,
        resolve,
      });
      this.scheduleFlush(alone || this.queue.length >= MAX_BATCH);
    });
  }

  private scheduleFlush(now = false): void {
    if (this.flushing) return;
    if (now) {
      if (this.flushTimer) clearTimeout(this.flushTimer);
      this.flushTimer = null;
      void this.flush();
      return;
    }
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = null;
      void this.flush();
    }, this.flushDelayMs);
  }

  /** Journals the queued submissions, one batch at a time, until nothing is left. */
  private flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    // Back to back: what arrived while a batch was written goes in the next one at once.
    const run = (async () => {
      // Submissions left unjudged get one attempt per run (their retry timer calls again), new ones all.
      let retry = this.unjudged.length > 0;
      while (this.state && (this.queue.length > 0 || retry)) {
        retry = false;
        await this.flushOnce(this.state);
      }
    })();
    this.flushing = run;
    // Cleared once the run has settled, never from inside it: a run with nothing to do settles before it
    // is stored, and clearing it inside left a settled promise here for good — every later submission
    // then waited behind it and a monitor list's writeOut spun on it, freezing the runtime (the flush
    // timer fired after a monitor list had flushed the queue). See settledRunsClear in the tests.
    const done = () => {
      if (this.flushing === run) this.flushing = null;
      if (this.queue.length > 0) this.scheduleFlush(true);
    };
    run.then(done, done);
    return run;
  }

  private async flushOnce(state: RoomState): Promise<void> {
    const batch = this.queue.splice(0, MAX_BATCH);
    this.journaling = batch;
    try {
      await this.journalAndJudge(state, batch);
    } finally {
      this.journaling = [];
    }
  }

  private async journalAndJudge(state: RoomState, batch: Queued[]): Promise<void> {
    const refuse = () => {
      for (const q of batch) {
        const key = pairKey(q.sub.participationId, q.sub.challengeId);
        const count = state.submissionCounts.get(key);
        if (count !== undefined) state.submissionCounts.set(key, Math.max(0, count - 1));
        q.resolve(refusal(409, "submission.write_conflict"));
      }
    };
    if (batch.length > 0 && !(await this.haveIds(batch.length))) {
      refuse();
      return;
    }
    const ids = this.ids.take(batch.length);
    const rows = batch.map((q, i) => [ids[i], state.game.id, q.sub.challengeId, q.sub.participationId, q.sub.userId, q.userName, q.sub.answer, q.sub.time, q.sub.ip]);
    try {
      // One statement; the runtime commits it when this turn ends and holds the room's replies (the ids
      // below, the verdicts) until it is on disk.
      if (batch.length > 0) {
        this.journal().exec(
          `INSERT INTO journal (id, game_id, challenge_id, participation_id, user_id, user_name, answer, submit_time, ip)
           SELECT ${j(0)}, ${j(1)}, ${j(2)}, ${j(3)}, ${j(4)}, ${j(5)}, ${j(6)}, ${j(7)}, ${j(8)} FROM json_each(?) j ORDER BY j.key`,
          JSON.stringify(rows),
        );
      }
    } catch (err) {
      console.error(`game room ${state.game.id}: journal write failed`, err);
      refuse();
      return;
    }
    this.journaling = [];
    if (batch.length > 0) this.armAlarm();
    const judged: Judged[] = batch.map((q, i) => {
      const id = ids[i]!;
      const { sub } = q;
      this.remember(id, sub.participationId, sub.challengeId, "FlagSubmitted");
      q.resolve({ ok: true, id });
      return { id, inD1: false, challengeId: sub.challengeId, participationId: sub.participationId, userId: sub.userId, userName: q.userName, answer: sub.answer, time: sub.time, ip: sub.ip };
    });
    await this.judgeInOrder(judged);
    await this.pushOut();
    this.scheduleDrain();
  }

  /**
   * Judges stored submissions in id order, after any left unjudged. When judging one fails (D1 refused its
   * flags' read) it and every later one wait, journaled, for the retry: a later one judged first could take
   * its blood, and a drain of a later one must not take it out of the journal before it is in D1.
   */
  private async judgeInOrder(recs: Judged[]): Promise<void> {
    const waiting = this.unjudged.length > 0 ? [...this.unjudged, ...recs] : recs;
    this.unjudged = [];
    for (let i = 0; i < waiting.length; i++) {
      try {
        await this.judgeOne(waiting[i]!);
      } catch (err) {
        console.error(`game room: judging submission ${waiting[i]!.id} failed, ${waiting.length - i} wait for a retry`, err);
        this.unjudged = waiting.slice(i);
        this.judgeRetryTimer ??= setTimeout(() => {
          this.judgeRetryTimer = null;
          void this.flush();
        }, JUDGE_RETRY_MS);
        return;
      }
    }
  }

  /** Arms the journal's alarm unless it is armed; the write commits with the flush's journal insert. */
  private armAlarm(): void {
    if (this.alarmArmed) return;
    this.alarmArmed = true;
    void this.ctx.storage.setAlarm(Date.now() + JOURNAL_ALARM_MS);
  }

  /**
   * Writes what is judged to D1 in one drain, loading the room for the journal's game first when it is not
   * loaded (after a restart: the load judges the journaled rows). Rows left (D1 refused, or journaled
   * meanwhile) get the next alarm; a failed load throws, and the runtime retries the alarm. It never waits
   * for the queue to empty, and flushes arm no alarm while one runs: a first version that did both (the
   * alarm waited in `writeOut` and each flush re-armed it) held a storm's replies until the stream stopped.
   */
  async alarm(): Promise<void> {
    this.alarmArmed = true;
    try {
      const games = this.journal().exec<{ game_id: number }>("SELECT DISTINCT game_id FROM journal").toArray();
      for (const { game_id: gameId } of games) {
        if (!(await this.ready(gameId))) continue;
        await this.drain();
      }
    } finally {
      this.alarmArmed = false;
    }
    if (this.journal().exec("SELECT 1 FROM journal LIMIT 1").toArray().length > 0) this.armAlarm();
  }

  /** Makes sure `n` ids are in the pool, reserving the next block ahead when half of one is left. */
  private async haveIds(n: number): Promise<boolean> {
    while (this.ids.available < n) {
      if (!(await this.reserveIds())) return false;
    }
    if (this.ids.available - n < ID_BLOCK / 2) void this.reserveIds();
    return true;
  }

  /** Reserves one block of ids in D1 (one reservation at a time); false when D1 refused three times. */
  private reserveIds(): Promise<boolean> {
    this.reserving ??= (async () => {
      try {
        for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
          try {
            const results = await this.env.DB.batch(reserveIdsStatements(this.env.DB, ID_BLOCK));
            const row = results[results.length - 1]!.results[0] as { seq: number } | undefined;
            if (row) {
              this.ids.add(row.seq - ID_BLOCK + 1, row.seq + 1);
              return true;
            }
          } catch (err) {
            console.error(`game room: id reservation attempt ${attempt + 1} failed`, err);
          }
        }
        return false;
      } finally {
        this.reserving = null;
      }
    })();
    return this.reserving;
  }

  /** A drain DRAIN_MS from now (`drain` clears the timer), or at once. */
  private scheduleDrain(now = false): void {
    if (this.draining || !hasWrites(this.writes)) return;
    if (now || this.writes.submissions.length >= DRAIN_MAX) void this.drain();
    else this.drainTimer ??= setTimeout(() => void this.drain(), DRAIN_MS);
  }

  /**
   * Writes the judged submissions and their verdicts' rows to D1 in one batch; what comes meanwhile goes
   * in the next drain, DRAIN_MS later. Resolves false when D1 refused it: it stays for the next drain
   * (and in the journal, for a restart).
   */
  private drain(): Promise<boolean> {
    if (this.draining) return this.draining;
    if (this.drainTimer) clearTimeout(this.drainTimer);
    this.drainTimer = null;
    const run = (async () => {
      try {
        return this.state && hasWrites(this.writes) ? await this.drainOnce(this.state) : true;
      } catch (err) {
        // After D1 took the batch (the journal or a push failed): a restart finds the rows in D1.
        console.error("game room: drain failed after its write", err);
        return false;
      }
    })();
    this.draining = run;
    // Cleared once settled, as in flush (a drain with nothing to write settles before it is stored).
    void run.then(() => {
      if (this.draining === run) this.draining = null;
      this.scheduleDrain(false);
    });
    return run;
  }

  private async drainOnce(state: RoomState): Promise<boolean> {
    const writes = this.writes;
    this.writes = emptyWrites();
    let results: D1Result[] | null = null;
    const plan = () => drainStatements(this.env.DB, state.game.id, writes, this.acceptedCounts(state, writes.acceptedChallenges));
    let planned = plan();
    for (let attempt = 0; attempt < WRITE_ATTEMPTS && results === null; attempt++) {
      try {
        results = await this.env.DB.batch(planned.statements);
      } catch (err) {
        console.error(`game room ${state.game.id}: drain attempt ${attempt + 1} failed`, err);
        planned = plan();
      }
    }
    if (results === null) {
      this.writes = mergeWrites(writes, this.writes);
      return false;
    }
    // Notices stored by this drain are pushed with their ids.
    if (planned.noticeIndex >= 0) {
      const ids = (results[planned.noticeIndex]!.results as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
      writes.notices.forEach(([type, values, time], i) => {
        if (ids[i] !== undefined) this.outgoing.push({ channel: "game", type: "notice", data: { id: ids[i]!, type, values, time } });
      });
    }
    this.queueLogs(writes.logs);
    // The drained rows leave the journal, those only: a row whose judging waits for a retry stays there.
    if (writes.submissions.length > 0) this.journal().exec("DELETE FROM journal WHERE id IN (SELECT value FROM json_each(?))", JSON.stringify(writes.submissions.map((row) => row[0])));
    await this.pushOut();
    return true;
  }

  /**
   * [challengeId, counted solves] of the room's challenges among `ids` (a deleted one is left out), written
   * as their acceptedCount (rules.md §3): the board's `solved` with the solves waiting for its next delta,
   * 0.01 ms for a storm's drain (40 challenges of 500 solves) where walking their solves took 1.2 ms. A
   * challenge off the board (disabled), or no board yet: its solves are walked, by the same rule.
   */
  private acceptedCounts(state: RoomState, ids: Iterable<number>): [number, number][] {
    const onBoard = this.board && this.boardIndex ? solvedCounts(this.boardIndex, this.board.model, this.pendingSolves) : null;
    const counts: [number, number][] = [];
    for (const id of ids) {
      const c = state.challenges.get(id);
      if (c) counts.push([id, onBoard?.get(id) ?? countedSolves(state, c)]);
    }
    return counts;
  }

  private remember(id: number, participationId: number, challengeId: number, status: AnswerResult) {
    this.recent.set(id, { participationId, challengeId, status });
    if (this.recent.size > RECENT_LIMIT) {
      const oldest = this.recent.keys().next().value;
      if (oldest !== undefined) this.recent.delete(oldest);
    }
  }

  /** Judges one stored submission (rules.md §7) and queues its writes and pushes. */
  private async judgeOne(rec: Judged): Promise<void> {
    const state = this.state!;
    const challenge = state.challenges.get(rec.challengeId);
    const p = state.participations.get(rec.participationId);
    let status: AnswerResult = "NotFound";
    let owner: number | null = null;
    if (challenge && p) {
      let cache = await this.flagCache(challenge.id);
      let verdict = cache ? judge(cache, p.id, rec.answer) : ({ status: "NotFound" } as const);
      if (verdict.status === "NotFound" || (verdict.status === "WrongAnswer" && cache?.dynamic)) {
        // An instance or own flag assigned since the cache was read: read it again (at most every 2 s).
        cache = await this.flagCache(challenge.id, FLAG_CACHE_MAX_AGE_MS);
        if (cache) verdict = judge(cache, p.id, rec.answer);
      }
      status = verdict.status;
      if (verdict.status === "CheatDetected") owner = verdict.ownerParticipationId;
    }
    const w = this.writes;
    if (rec.inD1) w.statuses.push([rec.id, status]);
    else w.submissions.push([rec.id, rec.challengeId, rec.participationId, rec.userId, rec.answer, status, rec.time, rec.ip]);
    this.remember(rec.id, rec.participationId, rec.challengeId, status);
    const title = challenge?.title ?? "";
    const teamName = p?.name ?? "";
    const events: GameEvent[] = [
      { type: "FlagSubmit", values: [status, rec.answer, title, String(rec.challengeId)], time: rec.time, user: rec.userName, team: teamName, teamId: p?.teamId ?? null },
    ];
    // The team as it stands now (an admin may have suspended it since the submission was stored, or while
    // its flags were read). A suspended team keeps the solve its accepted flag earned, at the submission's
    // time (rules.md §7: the first acceptance is the solve); the board shows it once the team plays again,
    // and no blood is taken or announced for it meanwhile.
    const standing = state.participations.get(rec.participationId);
    if (status === "Accepted" && challenge && p && standing && !hasSolved(state, p.id, challenge.id)) {
      const playing = standing.status === "Accepted";
      const type = playing ? solveType(state, standing, challenge, rec.time) : "Normal";
      const solve: BoardSolve = { participationId: p.id, challengeId: challenge.id, submissionId: rec.id, time: rec.time, userName: rec.userName };
      addSolve(state, solve);
      w.firstSolves.push([p.id, challenge.id, rec.id, rec.userId, rec.time, type]);
      w.acceptedChallenges.add(challenge.id);
      if (type === "FirstBlood" || type === "SecondBlood" || type === "ThirdBlood") w.notices.push([type, [p.name, challenge.title], rec.time]);
      const solved = { team: p.name, title: challenge.title, id: challenge.id };
      const log = composeLogText(type === "Normal" || type === "Unaccepted" ? { key: "solved", params: solved } : { key: "solvedBlood", params: { ...solved, type } });
      w.logs.push([rec.time, redactField(rec.userName || null, 64), rec.ip || null, log.message, log.key, log.params]);
      if (playing) this.markBoardDirty(solve);
    }
    if (status === "CheatDetected" && owner !== null && p) {
      w.cheats.push([owner, p.id, rec.id]);
      const ownerName = state.participations.get(owner)?.name ?? "";
      events.push({ type: "CheatDetected", values: [title, teamName, ownerName], time: rec.time, user: rec.userName, team: teamName, teamId: p.teamId });
    }
    for (const e of events) {
      w.events.push([e.type, e.values, e.time, rec.userId, e.teamId]);
      this.outgoing.push({ channel: "monitor", type: "event", data: e });
    }
    const record: SubmissionRecord = {
      id: rec.id,
      answer: rec.answer,
      status,
      time: rec.time,
      user: rec.userName,
      team: teamName,
      challenge: title,
      challengeId: rec.challengeId,
      teamId: p?.teamId ?? null,
      ip: rec.ip,
    };
    this.outgoing.push({ channel: "monitor", type: "submission", data: record });
    if (p) this.outgoing.push({ channel: "game", type: "verdict", data: { submissionId: rec.id, challengeId: rec.challengeId, status: playerStatus(status) }, teamId: p.teamId });
  }

  /**
   * Queues the flush's stored log records for the admins' log stream; they go together, one call to the
   * admin hub at most every LOG_PUSH_MS (a solve is logged in nearly every flush of a storm).
   */
  private queueLogs(logs: PendingWrites["logs"]) {
    if (logs.length === 0) return;
    for (const [time, name, ip, msg, key, params] of logs) this.logsOut.push({ time, name, level: "Information", ip, msg, status: "Success", key, params });
    this.logTimer ??= setTimeout(() => {
      this.logTimer = null;
      const out = this.logsOut;
      this.logsOut = [];
      try {
        this.env.ADMIN_HUB.get(this.env.ADMIN_HUB.idFromName("admin")).publishLogs(out).catch(() => undefined);
      } catch {
        // The admin stream is best effort; the records are stored.
      }
    }, LOG_PUSH_MS);
  }

  private async pushOut(): Promise<void> {
    if (this.outgoing.length === 0) return;
    const messages = this.outgoing;
    this.outgoing = [];
    await this.publishMany(messages);
  }

  /** GET .../status/{submissionId}: the caller's team's submission only (CheatDetected as WrongAnswer). */
  async status(gameId: number, userId: string, challengeId: number, submissionId: number): Promise<StatusResult> {
    const state = await this.ready(gameId);
    if (!state) return refusal(404, "game.not_found");
    const pid = state.members.get(userId);
    if (pid === undefined) return refusal(404, "submission.not_found");
    // A suspended team is refused every player call (rules.md §2), its verdicts included.
    if (state.participations.get(pid)?.status === "Suspended") return refusal(403, "game.banned");
    const known = this.recent.get(submissionId);
    if (known) {
      if (known.participationId !== pid || known.challengeId !== challengeId) return refusal(404, "submission.not_found");
      return { ok: true, status: playerStatus(known.status) };
    }
    const row = await this.env.DB.prepare("SELECT status FROM submissions WHERE id = ?1 AND game_id = ?2 AND challenge_id = ?3 AND participation_id = ?4")
      .bind(submissionId, gameId, challengeId, pid)
      .first<{ status: AnswerResult }>();
    if (!row) return refusal(404, "submission.not_found");
    return { ok: true, status: playerStatus(row.status) };
  }

  // ── Scoreboard ─────────────────────────────────────────────────────────────────────────────────────

  private markBoardDirty(solve: BoardSolve): void {
    // Without a board nobody holds a version: the next read computes it with this solve.
    if (!this.board) return;
    if (this.state) withdrawBoardCopies(this.state.game.id);
    this.pendingSolves.push(solve);
    // A solve after a quiet spell goes out at once (with whatever is judged in the same turn); one in a stream
    // waits the interval for the solves behind it.
    this.boardTimer ??= setTimeout(
      () => {
        this.boardTimer = null;
        this.addPendingSolves();
        void this.pushOut();
      },
      Date.now() - this.boardDeltaAt >= BOARD_QUIET_MS ? 0 : this.boardIntervalMs,
    );
  }

  /** Adds the solves judged since the board's version as one delta, and queues it for the board's readers. */
  private addPendingSolves(): void {
    this.clearBoardTimer();
    const solves = this.pendingSolves;
    this.pendingSolves = [];
    const state = this.state;
    if (!state || !this.board || !this.boardIndex || solves.length === 0) return;
    if (solves.some((s) => s.time < this.boardSolveTime)) {
      this.recomputeBoard(true);
      return;
    }
    const { delta, board } = solveDelta(this.boardIndex, this.board.model, solves, this.boardVersion + 1, Date.now());
    this.boardDeltaAt = Date.now();
    this.boardSolveTime = solves[solves.length - 1]!.time;
    this.setBoard(board);
    this.queueBoardPush(state, delta);
  }

  /**
   * Computes the whole board from the cached rows; with `push`, tells the board's readers to refetch it —
   * before the start too when `boardWasOpen` (see queueBoardPush). With `keepUnchanged`, a board that came
   * out as it was (a flag added, a hint edited, a challenge created disabled) keeps its version and nothing
   * is pushed: every open board would refetch the whole board for no change.
   */
  private recomputeBoard(push: boolean, boardWasOpen = false, keepUnchanged = false): void {
    const state = this.state;
    if (!state) return;
    this.clearBoardTimer();
    this.pendingSolves = [];
    const input = boardInput(state, Date.now());
    const model = computeScoreboard(input);
    const previous = this.board;
    this.boardIndex = indexBoard(input);
    this.boardSolveTime = input.solves.reduce((max, s) => Math.max(max, s.time), 0);
    if (keepUnchanged && previous && isDeepStrictEqual({ ...model, updateTimeUtc: 0 }, { ...previous.model, updateTimeUtc: 0 })) return;
    const board = this.setBoard(model);
    if (!push || !previous) return;
    this.queueBoardPush(state, refetchDelta(board.version, model.updateTimeUtc), boardWasOpen);
  }

  /**
   * The board as it is now for a reader: solves judged but still waiting for the board's next batch go in
   * first (and out to the board's sockets), so a player told "Accepted" who opens the board, or an export,
   * finds the solve there (rules.md §4: no stale board).
   */
  private currentBoard(): Board {
    if (this.pendingSolves.length > 0) {
      this.addPendingSolves();
      void this.pushOut();
    }
    if (!this.board) this.recomputeBoard(false);
    return this.board!;
  }

  /** The next version of the board (its serialisations are made on first read). */
  private setBoard(model: ScoreboardModel): Board {
    if (this.state) withdrawBoardCopies(this.state.game.id);
    const version = ++this.boardVersion;
    this.board = { model, version, etag: `W/"sb-${this.nonce}-${version}"`, whole: null, pages: new Map() };
    return this.board;
  }

  private clearBoardTimer(): void {
    if (this.boardTimer) clearTimeout(this.boardTimer);
    this.boardTimer = null;
  }

  /**
   * Queues a delta for the board's readers. Before the start nobody holds a board (reads are refused), so
   * nothing goes — unless `boardWasOpen`: an edit moved the start past now under boards already shown,
   * whose pages must refetch (and hear "not started") rather than keep the old board (rules.md §4).
   */
  private queueBoardPush(state: RoomState, delta: BoardDelta, boardWasOpen = false): void {
    if (Date.now() < state.game.start && !boardWasOpen) return;
    const hidden = state.game.hidden;
    this.outgoing.push({ channel: "game", type: "scoreboard", data: delta, boardReadersOnly: hidden });
  }

  /** GET game/{id}/scoreboard from memory, with its validators; `page` slices the items (first page reads). */
  /**
   * A team's submissions so far to a challenge with a submission limit (null without one), counted as
   * each is accepted for judging — so with those not yet drained to D1, which a count there would miss.
   */
  async attempts(gameId: number, participationId: number, challengeId: number): Promise<number | null> {
    const state = await this.ready(gameId);
    const challenge = state?.challenges.get(challengeId);
    if (!state || !challenge || challenge.submissionLimit <= 0) return null;
    return state.submissionCounts.get(pairKey(participationId, challengeId)) ?? 0;
  }

  /**
   * Counts the attempts at challenges whose submission limit was just turned on (without a limit the room
   * counts none): D1's rows, and the room's own that D1 may not have yet — journaled, queued, or taken for
   * the journal. Submissions from now on are counted as they come (the limit is on); their ids come from
   * the pool's next id on, which the D1 count leaves out, as it leaves out the journaled rows counted here.
   */
  private async countAttempts(state: RoomState, challengeIds: number[]): Promise<void> {
    if (challengeIds.length === 0) return;
    while (this.ids.available === 0) if (!(await this.reserveIds())) break;
    const limited = new Set(challengeIds);
    const counts = state.submissionCounts;
    for (const key of [...counts.keys()]) if (limited.has(Number(key.slice(key.indexOf(":") + 1)))) counts.delete(key);
    const add = (participationId: number, challengeId: number) => {
      if (!limited.has(challengeId)) return;
      const key = pairKey(participationId, challengeId);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    };
    const journaled = this.journal().exec<{ id: number; participation_id: number; challenge_id: number }>("SELECT id, participation_id, challenge_id FROM journal").toArray();
    for (const r of journaled) add(r.participation_id, r.challenge_id);
    for (const q of [...this.journaling, ...this.queue]) add(q.sub.participationId, q.sub.challengeId);
    const stored = await countSubmissions(this.env.DB, challengeIds, { id: this.ids.next, except: journaled.map((r) => r.id) });
    for (const [key, n] of stored) counts.set(key, (counts.get(key) ?? 0) + n);
  }

  async readBoard(gameId: number, opts: { etag?: string | null; allowHidden?: boolean; skip?: number; count?: number; coding?: BodyCoding } = {}): Promise<BoardRead> {
    const state = await this.ready(gameId);
    if (!state) return { kind: "notFound" };
    if (state.game.hidden && !opts.allowHidden) return { kind: "hidden" };
    if (Date.now() < state.game.start) return { kind: "notStarted" };
    const board = this.currentBoard();
    let variant: BoardBody;
    if (opts.count === undefined) {
      variant = board.whole ??= { etag: board.etag, body: utf8.encode(JSON.stringify({ ...board.model, version: board.version })), gzip: null };
    } else {
      const skip = opts.skip ?? 0;
      const key = `${skip}:${opts.count}`;
      let page = board.pages.get(key);
      if (!page) {
        page = {
          etag: `W/"sb-${this.nonce}-${board.version}-${key}"`,
          body: utf8.encode(JSON.stringify({ ...board.model, items: board.model.items.slice(skip, skip + opts.count), version: board.version, total: board.model.items.length })),
          gzip: null,
        };
        if (board.pages.size < 64) board.pages.set(key, page);
      }
      variant = page;
    }
    const etag = variant.etag;
    // If-Modified-Since is decided by the Worker from changedAt and at (the rare client sending it
    // without If-None-Match gets the body shipped over RPC, then a 304).
    const validators = { etag, changedAt: board.model.updateTimeUtc, at: Date.now() };
    // A public board's bytes are shared with the Worker's route in this isolate (board-copies.ts).
    const key = pageKey(opts.skip, opts.count);
    const keep = (gzip: Uint8Array<ArrayBuffer> | null) => {
      if (!state.game.hidden && this.board === board && this.pendingSolves.length === 0) {
        keepBoardCopy(gameId, board.version, validators.changedAt, key, { etag, body: variant.body, gzip }, Date.now());
      }
    };
    if (opts.etag && etagMatches(opts.etag, etag)) {
      keep(null);
      return { kind: "notModified", ...validators };
    }
    if (opts.coding !== "gzip") {
      keep(null);
      return { kind: "ok", body: variant.body, coding: "identity", ...validators };
    }
    // Concurrent readers of a version share its one compression.
    variant.gzip ??= gzipBytes(variant.body);
    try {
      const gzip = await variant.gzip;
      keep(gzip);
      return { kind: "ok", body: gzip, coding: "gzip", ...validators };
    } catch (err) {
      console.error(`game room ${gameId}: gzip of the board failed, sent as is`, err);
      variant.gzip = null;
      return { kind: "ok", body: variant.body, coding: "identity", ...validators };
    }
  }

  /** The current board model (for exports and services in the same game). */
  async boardModel(gameId: number): Promise<ScoreboardModel | null> {
    const state = await this.ready(gameId);
    if (!state) return null;
    return this.currentBoard().model;
  }

  /**
   * Each challenge's current value (counted solves only: in the game's time, before its deadline, by
   * divisions that move the value) — the board's, and for a challenge not on it (disabled) the same rule's —
   * for the admin list; null when the game is gone.
   */
  async challengeScores(gameId: number): Promise<Record<number, number> | null> {
    const model = await this.boardModel(gameId);
    const state = this.state;
    if (!model || !state) return null;
    const scores: Record<number, number> = {};
    for (const c of state.challenges.values()) scores[c.id] = challengeValue(state, c);
    for (const list of Object.values(model.challenges)) for (const c of list) scores[c.id] = c.score;
    return scores;
  }

  /** GET game/{id}/details: the player's view (rules.md §1 gates, only challenges the team may view). */
  async details(gameId: number, userId: string): Promise<DetailsResult> {
    const state = await this.ready(gameId);
    if (!state) return refusal(404, "game.not_found");
    const pid = state.members.get(userId);
    const p = pid === undefined ? undefined : state.participations.get(pid);
    if (!p) return refusal(403, notPlayingCode(state, userId));
    if (p.status === "Suspended") return refusal(403, "game.banned");
    if (p.status !== "Accepted") return refusal(403, "submission.not_player");
    const phase = computeGamePhase({ startTime: state.game.start, endTime: state.game.end }, Date.now());
    if (phase === "NotStarted") return refusal(10001, "game.not_started");
    if (phase === "Ended" && !state.game.practiceMode) return refusal(10002, "game.ended");
    // The team's own solve still waiting for the board's next batch goes in now: a page loaded right after
    // an Accepted verdict shows the challenge solved (other teams' solves keep their batch).
    if (this.pendingSolves.some((s) => s.participationId === p.id)) {
      this.addPendingSolves();
      void this.pushOut();
    }
    if (!this.board) this.recomputeBoard(false);
    const model = this.board!.model;
    const challenges: Record<string, ChallengeInfo[]> = {};
    let count = 0;
    for (const [category, list] of Object.entries(model.challenges)) {
      const visible = (list ?? []).filter((c) => {
        const rc = state.challenges.get(c.id);
        return rc !== undefined && canViewChallenge(state, p, rc);
      });
      if (visible.length > 0) {
        challenges[category] = visible;
        count += visible.length;
      }
    }
    const own: ScoreboardItem = model.items.find((i) => i.id === p.teamId) ?? {
      id: p.teamId,
      name: p.name,
      bio: p.bio,
      divisionId: p.divisionId,
      avatar: p.avatar,
      score: 0,
      rank: 0,
      divisionRank: null,
      lastSubmissionTime: 0,
      solvedChallenges: [],
      solvedCount: 0,
    };
    return {
      ok: true,
      gameTitle: state.game.title,
      end: state.game.end,
      practiceMode: state.game.practiceMode,
      hidden: state.game.hidden,
      body: JSON.stringify({
        challenges,
        challengeCount: count,
        rank: own,
        teamToken: p.token,
        writeupRequired: state.game.writeupRequired,
        writeupDeadline: state.game.writeupDeadline,
      }),
    };
  }

  /**
   * The final result of the user's team (an accepted one) after the game's end, from the board in memory;
   * null before the end or for a user who played for no accepted team. Read by the game's overview and the
   * closed challenges page, which have no board of their own then.
   */
  async teamResult(gameId: number, userId: string): Promise<TeamResult | null> {
    const state = await this.ready(gameId);
    if (!state || state.game.end > Date.now()) return null;
    const pid = state.members.get(userId);
    const p = pid === undefined ? undefined : state.participations.get(pid);
    if (!p || p.status !== "Accepted") return null;
    const item = this.currentBoard().model.items.find((i) => i.id === p.teamId);
    const division = p.divisionId === null ? null : (state.divisions.get(p.divisionId)?.name ?? null);
    return {
      teamName: p.name,
      rank: item?.rank ?? 0,
      divisionRank: item?.divisionRank ?? null,
      division,
      score: item?.score ?? 0,
      solvedCount: item?.solvedCount ?? 0,
    };
  }

  // ── Changes from services ──────────────────────────────────────────────────────────────────────────

  /**
   * Something changed in D1 (game, divisions, participations, challenges, flags, instances): reload it and
   * update the board before returning, then push the change.
   */
  async refresh(gameId: number, what: RefreshWhat = "all"): Promise<void> {
    // No copy of the board read before or during the change is served after it.
    withdrawBoardCopies(gameId);
    try {
      await this.refreshNow(gameId, what);
    } finally {
      withdrawBoardCopies(gameId);
    }
  }

  private async refreshNow(gameId: number, what: RefreshWhat): Promise<void> {
    if (this.loading) await this.loading;
    if (!this.state || this.state.game.id !== gameId) {
      this.board = null;
      if (changesAccess(what)) await this.reauthorizeUnloaded(gameId);
      // The stored counts follow the change: the room loads (from D1, after it) when they may be wrong.
      if (movesCounts(what) && (await mayHaveCounts(this.env.DB, gameId))) {
        const state = await this.ready(gameId);
        if (state) await this.writeMovedCounts(state);
      }
      return;
    }
    if (what === "solves") {
      await this.rebuild(gameId);
      if (this.state) await this.writeMovedCounts(this.state);
      return;
    }
    const state = this.state;
    if (typeof what === "object" && "participationId" in what) {
      await this.refreshInstance(state, what.challengeId, what.participationId);
      return;
    }
    const before = changesAccess(what) ? roomAccess(state) : null;
    // Open pages may hold the board only once the game has started (reads are refused before).
    const boardWasOpen = Date.now() >= state.game.start;
    const limited = await reloadMeta(this.env.DB, state);
    if (!limited) {
      await this.reset(gameId);
      return;
    }
    await this.countAttempts(state, limited);
    if (typeof what === "object") {
      state.flagCaches.delete(what.challengeId);
    } else if (what !== "game") {
      state.flagCaches.clear();
    }
    // A change of the game itself (hidden, times) reaches open boards even when the board stays the same.
    this.recomputeBoard(true, boardWasOpen, what !== "game" && what !== "all");
    // The board's readers hear of the change first (a game just hidden: a board page refetches and is refused).
    await this.pushOut();
    if (before) this.reauthorizeLoaded(state, before);
    await this.writeMovedCounts(state);
  }

  /**
   * After a change that may move the counted solves without a solve (movesCounts): writes the acceptedCount
   * of every challenge whose count in the room differs from D1's before returning, so the admin list and
   * the editor show it at once rather than at the challenge's next solve. Admin changes only: the judge's
   * path never comes here (its solves reach the counts through the drain).
   */
  private async writeMovedCounts(state: RoomState): Promise<void> {
    const stored = await loadStoredCounts(this.env.DB, state.game.id);
    if (this.state !== state) return;
    let moved = false;
    for (const [id, n] of this.acceptedCounts(state, state.challenges.keys())) {
      if (stored.get(id) === n) continue;
      this.writes.acceptedChallenges.add(id);
      moved = true;
    }
    if (!moved) return;
    // A drain under way planned its counts before this change: the next one writes them.
    while (this.draining) await this.draining;
    if (!(await this.drain())) console.error(`game room ${state.game.id}: D1 refused the moved solve counts (kept for the next drain)`);
  }

  // ── Who holds the player sockets ───────────────────────────────────────────────────────────────────

  /**
   * A user lost the monitor's or the admin's role (their monitor feeds are closed apart): their player
   * sockets are checked again — a hidden game they do not play closes, its board stops.
   */
  async reauthorize(gameId: number, change: { unstaffed: string[] }): Promise<number> {
    if (!this.hasListeners("game")) return 0;
    const hidden = this.state?.game.id === gameId ? this.state.game.hidden : await loadHidden(this.env.DB, gameId);
    if (hidden === null) return 0;
    const full: GameAccessChange = { hidden, unstaffed: change.unstaffed };
    return this.reviseGameSockets(full, full);
  }

  /**
   * After a change to the game or its participations: the room's own sockets are checked against all it
   * knows now; the relay hears what changed since `before` (the users whose team went, the game hidden).
   */
  private reauthorizeLoaded(state: RoomState, before: RoomAccess | null): number {
    if (!this.hasListeners("game")) return 0;
    const now = roomAccess(state);
    const all: GameAccessChange = { hidden: now.hidden, teams: Object.fromEntries(now.accepted), complete: true };
    let relay: GameAccessChange | null = all;
    if (before) {
      const teams = lostTeams(before.accepted, now.accepted);
      relay = Object.keys(teams).length > 0 || (now.hidden && !before.hidden) ? { hidden: now.hidden, teams } : null;
    }
    return this.reviseGameSockets(all, relay);
  }

  /** The same with the room not loaded (its sockets outlived it in memory): read from D1, not loaded for this. */
  private async reauthorizeUnloaded(gameId: number): Promise<number> {
    if (!this.hasListeners("game")) return 0;
    const access = await loadAccess(this.env.DB, gameId);
    // A game that is gone: its deletion closes every socket.
    if (!access) return 0;
    const all: GameAccessChange = { hidden: access.hidden, teams: Object.fromEntries(access.accepted), complete: true };
    return this.reviseGameSockets(all, all);
  }

  private reviseGameSockets(change: GameAccessChange, relay: GameAccessChange | null): number {
    return this.reviseSockets(
      "game",
      (identity) => {
        const holder = { ...identity, staff: identity.staff === true, boardReader: identity.boardReader === true };
        const next = reauthorizeGameSocket(holder, change);
        return next === holder ? identity : next;
      },
      relay ? relayReauthorize(relay) : null,
    );
  }

  private async refreshInstance(state: RoomState, challengeId: number, participationId: number): Promise<void> {
    const cache = state.flagCaches.get(challengeId);
    if (!cache) return;
    if (cache.instances.has(participationId) && (!cache.dynamic || cache.instances.get(participationId))) return;
    const row = await this.env.DB.prepare(
      "SELECT coalesce(i.flag, f.flag) AS flag FROM game_instances i LEFT JOIN flags f ON f.id = i.flag_id WHERE i.challenge_id = ?1 AND i.participation_id = ?2",
    )
      .bind(challengeId, participationId)
      .first<{ flag: string | null }>();
    if (row) setInstance(cache, participationId, cache.dynamic ? row.flag : null);
  }

  /**
   * Drops everything held in memory after writing what is pending; the next call rebuilds from D1 and
   * re-judges what is still FlagSubmitted (what a restart does).
   */
  async reset(gameId: number): Promise<void> {
    await this.writeOut();
    withdrawBoardCopies(gameId);
    this.state = null;
    this.board = null;
    this.boardIndex = null;
    this.pendingSolves = [];
    this.recent.clear();
    this.flagLoadedAt.clear();
    // Whatever D1 refused, or is not judged yet, is still journaled (or still FlagSubmitted there): the next
    // load judges it again.
    this.writes = emptyWrites();
    this.unjudged = [];
    if (this.judgeRetryTimer) clearTimeout(this.judgeRetryTimer);
    this.judgeRetryTimer = null;
    if (this.drainTimer) clearTimeout(this.drainTimer);
    this.drainTimer = null;
    this.clearBoardTimer();
  }

  /**
   * The game was deleted: its sockets close (4404) and, once D1 no longer has the game, the room's own storage
   * goes too (journal, stream numbers, alarm) — nothing of a deleted game is left behind.
   */
  async gameDeleted(gameId: number): Promise<number> {
    const closed = await this.closeAll(4404, "game deleted");
    if ((await loadHidden(this.env.DB, gameId)) !== null) return closed;
    await this.reset(gameId);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.journalReady = false;
    this.alarmArmed = false;
    return closed;
  }

  /**
   * Journals every queued submission and writes every judged one to D1. Resolves true when nothing is
   * left; false when D1 refused a drain (what it refused stays for the next one).
   */
  private async writeOut(): Promise<boolean> {
    for (;;) {
      if (this.flushing) await this.flushing;
      else if (this.queue.length > 0) await this.flush();
      else if (this.draining) await this.draining;
      else if (this.state && hasWrites(this.writes)) {
        if (!(await this.drain())) return false;
      } else return true;
    }
  }

  /**
   * Waits until D1 holds every submission the room has taken and every verdict it gave (the monitor lists
   * and the submission sheet read D1). A room that is not loaded has nothing to write unless its journal
   * holds rows from before a restart: then it loads, which judges and writes them.
   */
  async drained(gameId: number): Promise<void> {
    if (!this.state || this.state.game.id !== gameId) {
      const waiting = this.journal().exec<{ n: number }>("SELECT count(*) AS n FROM journal WHERE game_id = ?", gameId).one().n;
      if (waiting === 0 && !this.loading) return;
      if (!(await this.ready(gameId))) return;
    }
    await this.writeOut();
  }

  /**
   * POST edit/games/{id}/challenges/updateaccepted: the room rebuilds from D1 (the solve records, what a
   * restart does) and writes every challenge's acceptedCount from its counts before returning. False when
   * the game is gone; throws when D1 refused the write.
   */
  async updateAcceptedCounts(gameId: number): Promise<boolean> {
    await this.refresh(gameId, "solves");
    const state = await this.ready(gameId);
    if (!state) return false;
    for (const id of state.challenges.keys()) this.writes.acceptedChallenges.add(id);
    if (!(await this.writeOut())) throw new Error(`game room ${gameId}: D1 refused the solve counts`);
    return true;
  }

  /** Reloads everything from D1 (what a restart does) and tells the board's readers to refetch. */
  private async rebuild(gameId: number): Promise<void> {
    const hadBoard = this.board !== null;
    const before = this.state ? roomAccess(this.state) : null;
    await this.reset(gameId);
    const state = await this.ready(gameId);
    if (!state) return;
    if (hadBoard) {
      if (!this.board) this.recomputeBoard(false);
      this.queueBoardPush(state, refetchDelta(this.board!.version, this.board!.model.updateTimeUtc));
      await this.pushOut();
    }
    // A deleted team's (or user's) sockets.
    this.reauthorizeLoaded(state, before);
  }

  /** Loads the room if needed and reports how long the last rebuild took (bench and tests). */
  async warm(gameId: number): Promise<{ loaded: boolean; rebuildMs: number; rejudged: number; teams: number; solves: number }> {
    const state = await this.ready(gameId);
    return {
      loaded: state !== null,
      rebuildMs: this.lastLoadMs,
      rejudged: this.lastRejudged,
      teams: state?.participations.size ?? 0,
      solves: [...(state?.solvedBy.values() ?? [])].reduce((n, set) => n + set.size, 0),
    };
  }

  /** Waits until every queued submission and verdict is written and every pending solve pushed (tests). */
  async settle(gameId: number): Promise<void> {
    await this.ready(gameId);
    do {
      if (this.boardTimer) {
        this.addPendingSolves();
        await this.pushOut();
      }
      if (!(await this.writeOut())) throw new Error(`game room ${gameId}: D1 refused the drain`);
    } while (this.boardTimer || this.flushing || this.queue.length > 0 || this.draining || hasWrites(this.writes));
  }
}
