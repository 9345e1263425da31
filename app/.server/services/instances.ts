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

/**
 * Binds a random unoccupied pair of the challenge to the instance and marks it taken, in one transaction:
 * concurrent openers of other teams never take the same pair, and members of one team opening at once
 * share the pair the first of them bound (no pair is held by a loser meanwhile). The instance's pair
 * afterwards, or null when none was left.
 */
async function bindRandomPair(db: Db, instanceId: number, challengeId: number): Promise<number | null> {
  const [bound] = await db.batch([
    db
      .update(gameInstances)
      .set({
        flagId: sql`(select f.id from ${flags} f where f.challenge_id = ${challengeId} and f.occupied = 0 order by random() limit 1)`,
      })
      .where(and(eq(gameInstances.id, instanceId), isNull(gameInstances.flagId)))
      .returning({ flagId: gameInstances.flagId }),
    db
      .update(flags)
      .set({ occupied: true })
      .where(sql`${flags.id} = (select i.flag_id from ${gameInstances} i where i.id = ${instanceId})`),
  ]);
  if (bound[0]?.flagId != null) return bound[0].flagId;
  // Already bound by a teammate's request (the update matched nothing), or no pair left.
  const current = await db.select({ flagId: gameInstances.flagId }).from(gameInstances).where(eq(gameInstances.id, instanceId)).get();
  return current?.flagId ?? null;
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
    const flagId = await bindRandomPair(db, instance.id, challenge.id);
    if (flagId == null) {
      await deps.log({
        level: "Warning",
        logger: "Game",
        text: { key: "noDynamicAttachment", params: { title: challenge.title, id: challenge.id, team: ctx.teamName } },
        status: "Failed",
      });
      throw badRequest("challenge.no_dynamic_attachment");
    }
    return (await db.select().from(gameInstances).where(eq(gameInstances.id, instance.id)).get())!;
  }
  return instance;
}
