import { and, count, eq, gt, gte, inArray, isNull, lt, lte, ne, or } from "drizzle-orm";
import { GamePermission } from "~/core/enums";
import { forbidden, notFound } from "~/core/errors";
import { assertPlayable } from "~/core/game/phase";
import type { ChallengeDetail } from "~/core/schemas/challenge";
import { type BoardDivision, permissionsFor } from "~/core/scoring/scoreboard";
import { computeChallengeValue } from "~/core/scoring/value";
import type { Db } from "../db/client";
import {
  attachments,
  type Challenge,
  challenges,
  containers,
  divisionChallengeConfigs,
  divisions,
  firstSolves,
  flags,
  type Game,
  participations,
  submissions,
} from "../db/schema";
import { getChallengeAttachment, toAttachmentInfo } from "./flags";
import { callerRegistration } from "./game-access";
import { requireGame } from "./games";
import { type InstanceDeps, openInstance } from "./instances";

/** The caller's Accepted participation in a game. */
export interface Player {
  game: Game;
  participation: { id: number; token: string; divisionId: number | null; teamId: number };
  teamName: string;
  division: BoardDivision | undefined;
}

/**
 * Player calls (rules.md §1, §2): the game exists (404), it is playable (10001 / 10002), and the caller's
 * team is Accepted (403; Suspended: `You have been banned`). A registration kept after leaving the team
 * plays no more (403 `submission.left_team`).
 */
export async function requirePlayer(db: Db, gameId: number, userId: string, now: number): Promise<Player> {
  const game = await requireGame(db, gameId);
  assertPlayable(game, now);
  const row = await callerRegistration(db, gameId, userId);
  if (!row) throw forbidden("submission.not_joined");
  if (!row.playing) throw forbidden("submission.left_team");
  if (row.status === "Suspended") throw forbidden("game.banned");
  if (row.status !== "Accepted") throw forbidden("submission.not_player");
  const division = row.divisionId == null ? undefined : await loadDivision(db, row.divisionId);
  return {
    game,
    participation: { id: row.id, token: row.token, divisionId: row.divisionId, teamId: row.teamId },
    teamName: row.teamName,
    division,
  };
}

async function loadDivision(db: Db, divisionId: number): Promise<BoardDivision | undefined> {
  const d = await db.select().from(divisions).where(eq(divisions.id, divisionId)).get();
  if (!d) return undefined;
  const configs = await db.select().from(divisionChallengeConfigs).where(eq(divisionChallengeConfigs.divisionId, d.id)).all();
  return { id: d.id, name: d.name, defaultPermissions: d.defaultPermissions, challengeConfigs: Object.fromEntries(configs.map((c) => [c.challengeId, c.permissions])) };
}

const canView = (player: Player, challengeId: number) =>
  (permissionsFor(player.division, challengeId) & GamePermission.ViewChallenge) === GamePermission.ViewChallenge;

/**
 * Current value and counted solves of each challenge from the stored first solves (rules.md §3: Accepted
 * teams, inside the window, not after the deadline, AffectDynamicScore).
 */
export async function computeChallengeStats(db: Db, game: Game, list: Challenge[]): Promise<Map<number, { score: number; solved: number }>> {
  const stats = new Map(list.map((c) => [c.id, { score: c.originalScore, solved: 0 }]));
  if (list.length === 0) return stats;
  const [solves, divisionRows, configs] = await Promise.all([
    // Timely solves counted per (challenge, division) in SQL: a 50,000-solve game returns a few hundred
    // rows instead of every solve (the challenges page's SSR time, BENCHMARKS.md).
    db
      .select({ challengeId: firstSolves.challengeId, divisionId: participations.divisionId, n: count() })
      .from(firstSolves)
      .innerJoin(participations, eq(participations.id, firstSolves.participationId))
      .innerJoin(challenges, eq(challenges.id, firstSolves.challengeId))
      .where(
        and(
          eq(firstSolves.gameId, game.id),
          eq(participations.status, "Accepted"),
          gte(firstSolves.submitTime, game.startTime),
          lt(firstSolves.submitTime, game.endTime),
          or(isNull(challenges.deadline), lte(firstSolves.submitTime, challenges.deadline)),
        ),
      )
      .groupBy(firstSolves.challengeId, participations.divisionId)
      .all(),
    db.select().from(divisions).where(eq(divisions.gameId, game.id)).all(),
    db
      .select()
      .from(divisionChallengeConfigs)
      .where(inArray(divisionChallengeConfigs.divisionId, db.select({ id: divisions.id }).from(divisions).where(eq(divisions.gameId, game.id))))
      .all(),
  ]);
  const divisionById = new Map<number, BoardDivision>(
    divisionRows.map((d) => [
      d.id,
      {
        id: d.id,
        name: d.name,
        defaultPermissions: d.defaultPermissions,
        challengeConfigs: Object.fromEntries(configs.filter((c) => c.divisionId === d.id).map((c) => [c.challengeId, c.permissions])),
      },
    ]),
  );
  const byId = new Map(list.map((c) => [c.id, c]));
  for (const s of solves) {
    const c = byId.get(s.challengeId);
    if (!c) continue;
    const perms = permissionsFor(s.divisionId == null ? undefined : divisionById.get(s.divisionId), c.id);
    if ((perms & GamePermission.AffectDynamicScore) !== 0) stats.get(c.id)!.solved += s.n;
  }
  for (const c of list) {
    const entry = stats.get(c.id)!;
    entry.score = computeChallengeValue(c, entry.solved);
  }
  return stats;
}

/**
 * GET game/{id}/challenges/{cid}: ChallengeDetailModel. Disabled, unknown or not viewable challenges are
 * 404; the first open attaches the team's own flag or dynamic attachment. A container past its expiry is
 * not shown (its agent removes it; the next start releases it).
 */
export async function getPlayerChallenge(deps: InstanceDeps & { now: number }, player: Player, challengeId: number): Promise<ChallengeDetail> {
  const { db } = deps;
  const challenge = await db
    .select()
    .from(challenges)
    .where(and(eq(challenges.id, challengeId), eq(challenges.gameId, player.game.id), eq(challenges.isEnabled, true)))
    .get();
  if (!challenge || !canView(player, challenge.id)) throw notFound("challenge.not_found");

  const instance = await openInstance(deps, {
    challenge,
    participation: player.participation,
    privateKey: player.game.privateKey,
    teamName: player.teamName,
  });

  let attachment = null;
  if (challenge.type === "DynamicAttachment") {
    const row = instance.flagId
      ? await db
          .select({ attachment: attachments })
          .from(flags)
          .innerJoin(attachments, eq(attachments.id, flags.attachmentId))
          .where(eq(flags.id, instance.flagId))
          .get()
      : undefined;
    attachment = row ? toAttachmentInfo(row.attachment, challenge.fileName) : null;
  } else {
    attachment = await getChallengeAttachment(db, challenge);
  }

  const [stats, attempts, container] = await Promise.all([
    computeChallengeStats(db, player.game, [challenge]),
    db
      .select({ n: count() })
      .from(submissions)
      .where(and(eq(submissions.participationId, player.participation.id), eq(submissions.challengeId, challenge.id)))
      .get(),
    db
      .select({ expectStopAt: containers.expectStopAt, entry: containers.entry })
      .from(containers)
      .where(and(eq(containers.instanceId, instance.id), ne(containers.status, "Destroyed"), gt(containers.expectStopAt, deps.now)))
      .get(),
  ]);

  return {
    id: challenge.id,
    title: challenge.title,
    content: challenge.content,
    category: challenge.category,
    hints: challenge.hints,
    score: stats.get(challenge.id)!.score,
    type: challenge.type,
    context: {
      closeTime: container?.expectStopAt ?? null,
      instanceEntry: container?.entry || null,
      url: attachment?.url ?? null,
      fileSize: attachment?.fileSize ?? null,
    },
    limit: challenge.submissionLimit,
    attempts: attempts?.n ?? 0,
    deadline: challenge.deadline,
  };
}
