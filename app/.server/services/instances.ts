import { and, eq, isNull, sql } from "drizzle-orm";
import { badRequest } from "~/core/errors";
import { computeGameSalt, computeTeamHash } from "~/core/flags/team-hash";
import { generateFlag } from "~/core/flags/template";
import type { Db } from "../db/client";
import { type Challenge, flags, type GameInstance, gameInstances, participations } from "../db/schema";
import type { LogEntry } from "./logs";

/**
 * Instances of flags (rules.md §5): one row per enabled challenge × accepted participation. Rows are made
 * on acceptance (participations.ts) and here when a challenge is enabled; the team's own flag or dynamic
 * attachment is attached the first time the team opens the challenge.
 */

export interface InstanceDeps {
  db: Db;
  /** Writes an admin log line (the request's IP and user are filled in by the caller). */
  log: (entry: Omit<LogEntry, "ip">) => Promise<void>;
}

/** How often a random free pair is tried before giving up when other teams keep taking the same one. */
const CLAIM_ATTEMPTS = 8;

/** An instance for every Accepted participation of the challenge's game (existing ones are kept). */
export async function createInstancesForChallenge(db: Db, challenge: Pick<Challenge, "id" | "gameId">): Promise<void> {
  await db.run(sql`insert into ${gameInstances} (participation_id, challenge_id, flag_id, flag, last_container_operation)
    select id, ${challenge.id}, null, null, 0 from ${participations}
    where game_id = ${challenge.gameId} and status = 'Accepted'
    on conflict do nothing`);
}

async function requireInstance(db: Db, participationId: number, challengeId: number): Promise<GameInstance> {
  const find = () =>
    db
      .select()
      .from(gameInstances)
      .where(and(eq(gameInstances.participationId, participationId), eq(gameInstances.challengeId, challengeId)))
      .get();
  const found = await find();
  if (found) return found;
  await db.insert(gameInstances).values({ participationId, challengeId }).onConflictDoNothing().run();
  return (await find())!;
}

/** Marks one random unoccupied pair of the challenge as taken; null when none is left. */
async function claimRandomPair(db: Db, challengeId: number): Promise<number | null> {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const candidate = await db
      .select({ id: flags.id })
      .from(flags)
      .where(and(eq(flags.challengeId, challengeId), eq(flags.occupied, false)))
      .orderBy(sql`random()`)
      .limit(1)
      .get();
    if (!candidate) return null;
    // Conditional: a concurrent opener may have taken the same pair; then try another.
    const taken = await db
      .update(flags)
      .set({ occupied: true })
      .where(and(eq(flags.id, candidate.id), eq(flags.occupied, false)))
      .returning({ id: flags.id })
      .get();
    if (taken) return taken.id;
  }
  throw badRequest("challenge.assignment_busy");
}

/**
 * The team's instance of a challenge with its flag attached: a generated flag for DynamicContainer (made
 * once, deterministic per team for the team-hash part), a random free (flag, attachment) pair for
 * DynamicAttachment; static types need nothing. 400 `challenge.no_dynamic_attachment` when no pair is left.
 */
export async function openInstance(
  deps: InstanceDeps,
  ctx: { challenge: Challenge; participation: { id: number; token: string }; privateKey: string; teamName: string },
): Promise<GameInstance> {
  const { db } = deps;
  const { challenge, participation } = ctx;
  const instance = await requireInstance(db, participation.id, challenge.id);

  if (challenge.type === "DynamicContainer" && instance.flag == null) {
    const teamHash = await computeTeamHash(await computeGameSalt(ctx.privateKey), challenge.id, participation.token);
    const flag = generateFlag(challenge.flagTemplate ?? "", teamHash);
    await db
      .update(gameInstances)
      .set({ flag })
      .where(and(eq(gameInstances.id, instance.id), isNull(gameInstances.flag)))
      .run();
    return (await db.select().from(gameInstances).where(eq(gameInstances.id, instance.id)).get())!;
  }

  if (challenge.type === "DynamicAttachment" && instance.flagId == null) {
    const flagId = await claimRandomPair(db, challenge.id);
    if (flagId == null) {
      await deps.log({
        level: "Warning",
        logger: "Game",
        text: { key: "noDynamicAttachment", params: { title: challenge.title, id: challenge.id, team: ctx.teamName } },
        status: "Failed",
      });
      throw badRequest("challenge.no_dynamic_attachment");
    }
    const bound = await db
      .update(gameInstances)
      .set({ flagId })
      .where(and(eq(gameInstances.id, instance.id), isNull(gameInstances.flagId)))
      .returning({ id: gameInstances.id })
      .get();
    // Two members opened at once: the other request bound a pair first; give this one back.
    if (!bound) await db.update(flags).set({ occupied: false }).where(eq(flags.id, flagId)).run();
    return (await db.select().from(gameInstances).where(eq(gameInstances.id, instance.id)).get())!;
  }
  return instance;
}
