import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import type { AgentContainer, AgentRemovalReason, CreateContainerRequest } from "~/core/agent-protocol";
import { GamePermission, isContainerType, type PortMappingType } from "~/core/enums";
import type { AgentFailure, ReleasedContainer, RemovalReason } from "~/core/log-messages";
import { AppError, badRequest, notFound } from "~/core/errors";
import { generateTestFlag, type Randomness } from "~/core/flags/template";
import { computeGamePhase, containerUnwantedReason, type GameTimes } from "~/core/game/phase";
import type { GameEvent } from "~/core/protocol";
import { permissionsFor } from "~/core/scoring/scoreboard";
import {
  AgentCallError,
  type AgentsEnv,
  type AgentStatus,
  agentStatuses,
  agentFailureOf,
  agentUnreachable,
  createOnAgent,
  destroyOnAgent,
  extendOnAgent,
  isAgentFailure,
  pickAgent,
  reachableAgent,
  reachableAgentIds,
} from "../agents";
import { inChunks } from "../db/chunks";
import type { Db } from "../db/client";
import {
  type Challenge,
  challenges,
  type Container,
  containers,
  type NewContainer,
  gameEvents,
  gameInstances,
  games,
  participations,
  teams,
  users,
} from "../db/schema";
import { getPlatformConfig } from "./config";
import { type InstanceDeps, openInstance } from "./instances";
import type { LogEntry } from "./logs";
import type { Player } from "./player-challenges";
import { type RoomEnv, roomOf } from "./room";
import { announceContainerChange } from "./sockets";

/**
 * Team and admin test containers (rules.md §8): lifetimes, extension window, per-team limit, the
 * 10-second cooldown, events, and the agent calls behind them (app/.server/agents.ts).
 */

export interface ContainerEnv extends AgentsEnv, RoomEnv {
  /** `PlatformProxy`: containers publish nothing and players reach them through /api/proxy/{id}. */
  FLAGSTAFF_PORT_MAPPING?: string;
  /** `true` turns traffic capture on for challenges that enable it (rules.md §9). */
  FLAGSTAFF_TRAFFIC_CAPTURE?: string;
}

export interface ContainerDeps {
  db: Db;
  now: number;
  env: ContainerEnv;
  /** Writes a log line (the caller fills in the IP and user). */
  log: (entry: Omit<LogEntry, "ip">) => Promise<void>;
}

/** ContainerInfoModel (api.md §4). */
export interface ContainerInfo {
  status: Container["status"];
  startedAt: number;
  expectStopAt: number;
  entry: string;
}

/** The admin test container, with the test flag it was given (DynamicContainer). */
export interface TestContainerInfo extends ContainerInfo {
  testFlag: string | null;
}

/** One row of GET admin/instances. */
export interface AdminInstance {
  team: { id: number; name: string; avatar: string | null };
  challenge: { id: number; title: string; category: string };
  game: { id: number; title: string };
  image: string;
  containerGuid: string;
  containerId: string;
  startedAt: number;
  expectStopAt: number;
  ip: string;
  port: number;
  entry: string;
  status: Container["status"];
  agentId: string | null;
  /** false when the container's agent does not answer: the container may be gone or unreachable. */
  agentReachable: boolean;
}

export const CONTAINER_COOLDOWN_MS = 10_000;
/** The agent removes an expired container within 3 minutes; a row still live after that is stale. */
const EXPIRY_GRACE_MS = 3 * 60_000;
/** A row stuck in Pending this long (the creating request died) is released. */
const PENDING_STALE_MS = 5 * 60_000;
/** The agent's refusals (container-agent/src/containers.ts `agent.*` codes) an admin's test start explains in words. */
const TEST_FAILURE_REASONS = new Set(["image_unavailable", "not_running", "no_port", "create_failed", "start_failed", "docker_failed", "docker_unreachable", "full", "busy"]);
const MINUTE = 60_000;

export function portMappingOf(env: Pick<ContainerEnv, "FLAGSTAFF_PORT_MAPPING">): PortMappingType {
  return env.FLAGSTAFF_PORT_MAPPING === "PlatformProxy" ? "PlatformProxy" : "Default";
}

export const toContainerInfo = (c: Pick<Container, "status" | "startedAt" | "expectStopAt" | "entry">): ContainerInfo => ({
  status: c.status,
  startedAt: c.startedAt,
  expectStopAt: c.expectStopAt,
  entry: c.entry,
});

const live = ne(containers.status, "Destroyed");

// ── Events ────────────────────────────────────────────────────────────────────────────────────────────

async function containerEvent(
  deps: Pick<ContainerDeps, "db" | "now" | "env">,
  type: "ContainerStart" | "ContainerDestroy",
  gameId: number,
  challenge: Pick<Challenge, "id" | "title">,
  teamId: number | null,
  userId: string | null,
): Promise<void> {
  const { db, now, env } = deps;
  const values = [String(challenge.id), challenge.title];
  await db.insert(gameEvents).values({ gameId, type, values, publishTime: now, userId, teamId }).run();
  const [user, team] = await Promise.all([
    userId ? db.select({ name: users.userName }).from(users).where(eq(users.id, userId)).get() : undefined,
    teamId ? db.select({ name: teams.name }).from(teams).where(eq(teams.id, teamId)).get() : undefined,
  ]);
  const event: GameEvent = { type, values, time: now, user: user?.name ?? null, team: team?.name ?? null, teamId };
  const monitors = roomOf(env, gameId)
    .publish("monitor", "event", event)
    .catch((error: unknown) => {
      // The stored row is the record; monitors refetch it after a reconnect.
      console.error("container event publish failed", error);
    });
  // The team's open pages read the challenge again: a teammate's panel shows the container as it now is.
  await Promise.all([monitors, teamId === null ? null : announceContainerChange(env, gameId, teamId, challenge.id)]);
}

// ── Lookups ───────────────────────────────────────────────────────────────────────────────────────────

interface TeamContainer {
  container: Container;
  challenge: Challenge;
  gameId: number;
  teamId: number;
  teamName: string;
}

async function teamContainerById(db: Db, id: string): Promise<TeamContainer | null> {
  const row = await db
    .select({ container: containers, challenge: challenges, teamId: participations.teamId, gameId: participations.gameId, teamName: teams.name })
    .from(containers)
    .innerJoin(challenges, eq(challenges.id, containers.challengeId))
    .innerJoin(participations, eq(participations.id, containers.participationId))
    .innerJoin(teams, eq(teams.id, participations.teamId))
    .where(eq(containers.id, id))
    .get();
  return row ?? null;
}

/** The enabled container challenge the player's team may view; 404 otherwise, 400 for other types. */
async function requirePlayerContainerChallenge(db: Db, player: Player, challengeId: number): Promise<Challenge> {
  const challenge = await db
    .select()
    .from(challenges)
    .where(and(eq(challenges.id, challengeId), eq(challenges.gameId, player.game.id), eq(challenges.isEnabled, true)))
    .get();
  const viewable = challenge && (permissionsFor(player.division, challenge.id) & GamePermission.ViewChallenge) === GamePermission.ViewChallenge;
  if (!challenge || !viewable) throw notFound("challenge.not_found");
  if (!isContainerType(challenge.type)) throw badRequest("container.not_container_challenge");
  return challenge;
}

function cooldownError(last: number, now: number): AppError {
  const wait = Math.max(1, Math.ceil((last + CONTAINER_COOLDOWN_MS - now) / 1000));
  return new AppError(429, "container.too_frequent", { seconds: wait }, { "Retry-After": String(wait) });
}

/** Claims the instance's cooldown slot atomically: 429 when another operation ran in the last 10 s. */
async function claimCooldown(db: Db, instanceId: number, now: number): Promise<void> {
  const claimed = await db
    .update(gameInstances)
    .set({ lastContainerOperation: now })
    .where(and(eq(gameInstances.id, instanceId), lt(gameInstances.lastContainerOperation, now - CONTAINER_COOLDOWN_MS + 1)))
    .returning({ id: gameInstances.id })
    .get();
  if (!claimed) {
    const row = await db.select({ last: gameInstances.lastContainerOperation }).from(gameInstances).where(eq(gameInstances.id, instanceId)).get();
    throw cooldownError(row?.last ?? now, now);
  }
}

/**
 * Gives back a cooldown slot claimed by a create that never happened (rules.md §8 counts creates): the
 * previous time returns only while the slot still holds this call's claim.
 */
async function restoreCooldown(db: Db, instanceId: number, claimedAt: number, previous: number): Promise<void> {
  await db
    .update(gameInstances)
    .set({ lastContainerOperation: previous })
    .where(and(eq(gameInstances.id, instanceId), eq(gameInstances.lastContainerOperation, claimedAt)))
    .run();
}

// ── Housekeeping ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Releases rows that can no longer be live: past their expiry by more than the agent's reaping delay,
 * or stuck in Pending (their creating request died). The agent removes the containers themselves.
 */
export async function releaseStaleContainers(db: Db, now: number): Promise<number> {
  const rows = await db
    .update(containers)
    .set({ status: "Destroyed" })
    .where(
      and(
        live,
        or(lt(containers.expectStopAt, now - EXPIRY_GRACE_MS), and(eq(containers.status, "Pending"), lt(containers.startedAt, now - PENDING_STALE_MS))),
      ),
    )
    .returning({ id: containers.id })
    .all();
  return rows.length;
}

/**
 * Marks a container destroyed and, for a team container that was live, writes the ContainerDestroy event.
 * The event's user is `byPlayer`, the player who destroyed it; null when the platform did (expiry, an
 * admin, the team's container limit, a challenge or team gone), so monitors never read it as the starter's.
 * Returns whether this call changed it (a second caller finds it already destroyed).
 */
async function markDestroyed(deps: Pick<ContainerDeps, "db" | "now" | "env">, container: Container, byPlayer: string | null = null): Promise<boolean> {
  const changed = await deps.db
    .update(containers)
    .set({ status: "Destroyed" })
    .where(and(eq(containers.id, container.id), live))
    .returning({ id: containers.id })
    .get();
  if (!changed || container.participationId == null) return Boolean(changed);
  const owner = await teamContainerById(deps.db, container.id);
  if (owner) await containerEvent(deps, "ContainerDestroy", owner.gameId, owner.challenge, owner.teamId, byPlayer);
  return true;
}

/** What became of a container's removal: `failure` says why its agent did not remove it. */
export interface DestroyOutcome {
  id: string;
  reached: boolean;
  failure: AgentFailure | null;
}

/**
 * Destroys a container on its agent and marks the row. When the agent cannot be reached or answers an
 * error, the row is still released (the agent reaps the container on its own at expiry, and at its next
 * start as unknown) and the outcome says why; callers log it. Cleanup never fails because of an agent.
 */
async function destroyContainer(deps: ContainerDeps, container: Container, byPlayer: string | null = null): Promise<DestroyOutcome> {
  let failure: AgentFailure | null = null;
  if (container.agentId != null) {
    const agent = await reachableAgent(deps.env, container.agentId, deps.now);
    if (!agent) failure = { kind: "unavailable", agent: container.agentId };
    else {
      try {
        await destroyOnAgent(deps.env, agent, container.id);
      } catch (error) {
        if (!isAgentFailure(error)) throw error;
        failure = agentFailureOf(error, container.agentId);
      }
    }
  }
  await markDestroyed(deps, container, byPlayer);
  return { id: container.id, reached: failure == null, failure };
}

// ── Player containers ────────────────────────────────────────────────────────────────────────────────

function captureWanted(env: ContainerEnv, challenge: Challenge, gameRunning: boolean): boolean {
  return String(env.FLAGSTAFF_TRAFFIC_CAPTURE) === "true" && challenge.enableTrafficCapture && gameRunning;
}

async function startOnAgent(deps: ContainerDeps, row: Container, request: CreateContainerRequest, failureCode: string): Promise<Container> {
  const { db, env } = deps;
  let agent: AgentStatus;
  try {
    agent = await pickAgent(env, deps.now);
  } catch (error) {
    await db.delete(containers).where(eq(containers.id, row.id)).run();
    if (!isAgentFailure(error)) throw error;
    // api.md §9/§10: a start that cannot happen is a 400 "could not be started"; the admin log says why.
    await deps.log({ level: "Warning", logger: "Container", text: { key: "containerNoAgent", params: { challenge: request.challengeId, image: request.image } }, status: "Failed" });
    // An admin's test start says why (players get the plain "could not be started").
    throw badRequest(failureCode === "container.test_failed" ? "container.test_no_agent" : failureCode);
  }
  let created: AgentContainer;
  try {
    created = await createOnAgent(env, agent, request);
  } catch (error) {
    // Nothing may stay behind: the row goes, and a container the agent may have made is removed.
    await db.delete(containers).where(eq(containers.id, row.id)).run();
    if (!(error instanceof AgentCallError && error.status < 500)) await destroyOnAgent(env, agent, row.id).catch(() => undefined);
    if (!isAgentFailure(error)) throw error;
    await deps.log({
      level: "Warning",
      logger: "Container",
      text: { key: "containerStartFailed", params: { challenge: request.challengeId, image: request.image, agentUrl: agent.url, failure: agentFailureOf(error) } },
      status: "Failed",
    });
    if (failureCode !== "container.test_failed") throw badRequest(failureCode);
    // Why, in the admin's language, for the agent's known refusals; then the agent's own words (Docker's,
    // usually), which only the engine can phrase.
    if (!(error instanceof AgentCallError)) throw badRequest("container.test_failed_unreachable");
    const reason = error.code.startsWith("agent.") ? error.code.slice("agent.".length) : "";
    throw TEST_FAILURE_REASONS.has(reason)
      ? badRequest(`container.test_failed_agent.${reason}`, { message: error.message })
      : badRequest("container.test_failed_answered", { status: error.status, code: error.code, message: error.message });
  }
  const updated = await db
    .update(containers)
    .set({
      status: "Running",
      containerId: created.containerId,
      ip: created.ip,
      port: created.port,
      publicIp: created.publicIp,
      publicPort: created.publicPort,
      entry: created.entry,
      agentId: agent.agentId,
      startedAt: created.startedAt,
      expectStopAt: created.expectStopAt,
    })
    // Only while still Pending: a row released meanwhile must not come back to life.
    .where(and(eq(containers.id, row.id), eq(containers.status, "Pending")))
    .returning()
    .get();
  if (!updated) {
    // Promoted meanwhile by the agent's container.started event (containerStarted): the same container.
    const promoted = await db.select().from(containers).where(and(eq(containers.id, row.id), eq(containers.status, "Running"))).get();
    if (promoted && promoted.containerId === created.containerId) return promoted;
    // Released meanwhile (e.g. the challenge was deleted): do not leave the container running.
    await destroyOnAgent(env, agent, row.id).catch(() => undefined);
    throw badRequest(failureCode);
  }
  return updated;
}

/**
 * Releases the team's containers that are past their expiry (the agent removes them within its sweep, or
 * at its next start when it is down): they neither block a new start of their challenge nor count towards
 * the team limit. Destroyed on their agent when it answers; released all the same when it does not (the
 * agent removes an expired container on its own).
 */
async function releaseExpiredOfParticipation(deps: ContainerDeps, participationId: number): Promise<void> {
  const expired = await deps.db
    .select()
    .from(containers)
    .where(and(eq(containers.participationId, participationId), live, lte(containers.expectStopAt, deps.now)))
    .all();
  for (const row of expired) await destroyContainer(deps, row);
}

const isUniqueViolation = (error: unknown): boolean => /UNIQUE constraint failed/i.test(`${String(error)} ${String((error as { cause?: unknown } | null)?.cause ?? "")}`);

/**
 * Inserts the team's new Pending container only while the team limit leaves room for it, in one statement
 * (D1 runs each atomically), so teammates starting at once cannot get past the limit together. With
 * auto-destroy a team at its limit may start one container beyond it, one at a time (no other start of the
 * team in flight); its oldest goes once the new one runs. Only while the challenge is still enabled: a
 * disable's destroy pass runs after its update, so a row written after that update would outlive it
 * (a row written before it is destroyed by the pass). Null when refused.
 */
async function claimContainerSlot(db: Db, values: NewContainer, limit: number, autoDestroy: boolean): Promise<Container | null> {
  const pid = values.participationId!;
  const teamLive = sql`(select count(*) from ${containers} where participation_id = ${pid} and instance_id is not null and status <> 'Destroyed')`;
  const room =
    limit <= 0
      ? sql`1`
      : autoDestroy
        ? sql`(${teamLive} < ${limit} or not exists (select 1 from ${containers} where participation_id = ${pid} and instance_id is not null and status = 'Pending'))`
        : sql`${teamLive} < ${limit}`;
  const inserted = await db.all<{ id: string }>(sql`insert into ${containers}
      (id, image, status, started_at, expect_stop_at, challenge_id, instance_id, participation_id, user_id, capture_enabled)
    select ${values.id}, ${values.image}, 'Pending', ${values.startedAt}, ${values.expectStopAt}, ${values.challengeId}, ${values.instanceId}, ${pid}, ${values.userId}, ${values.captureEnabled ? 1 : 0}
    where ${room} and exists (select 1 from ${challenges} where id = ${values.challengeId} and is_enabled = 1)
    returning id`);
  if (inserted.length === 0) return null;
  return (await db.select().from(containers).where(eq(containers.id, values.id)).get()) ?? null;
}

/**
 * Auto-destroy: once the team's new container runs, its oldest running ones go until the team is back at
 * the limit. Only containers older than the new one: a teammate's newer one is settled by its own call.
 */
async function releaseOldestOverLimit(deps: ContainerDeps, player: Player, started: Container, limit: number): Promise<void> {
  const running = await deps.db
    .select()
    .from(containers)
    .where(and(eq(containers.participationId, player.participation.id), isNotNull(containers.instanceId), eq(containers.status, "Running")))
    .orderBy(asc(containers.startedAt), asc(containers.id))
    .all();
  const excess = running.length - limit;
  if (excess <= 0) return;
  const older = running.filter((c) => c.id !== started.id && (c.startedAt < started.startedAt || (c.startedAt === started.startedAt && c.id < started.id)));
  for (const old of older.slice(0, excess)) {
    const outcome = await destroyContainer(deps, old);
    await deps.log({
      level: outcome.reached ? "Information" : "Warning",
      logger: "Container",
      text: outcome.failure
        ? { key: "containerLimitReleased", params: { id: old.id, team: player.teamName, limit, failure: outcome.failure } }
        : { key: "containerLimitDestroyed", params: { id: old.id, team: player.teamName, limit } },
      status: "Success",
    });
  }
}

/**
 * POST game/{id}/container/{cid}: starts the team's container. The team's flag is assigned first when the
 * team has not opened the challenge yet; the per-team limit refuses or, with auto-destroy, removes the
 * team's oldest containers once the new one runs (a failed start costs the team nothing, its cooldown
 * included).
 */
export async function createPlayerContainer(deps: ContainerDeps, instanceDeps: InstanceDeps, player: Player, challengeId: number, userId: string): Promise<ContainerInfo> {
  const { db, now, env } = deps;
  const challenge = await requirePlayerContainerChallenge(db, player, challengeId);
  if (!challenge.containerImage?.trim()) throw badRequest("challenge.no_image_to_start");
  await releaseStaleContainers(db, now);
  await releaseExpiredOfParticipation(deps, player.participation.id);
  const instance = await openInstance(instanceDeps, {
    challenge,
    participation: player.participation,
    privateKey: player.game.privateKey,
    teamName: player.teamName,
  });
  const existing = await db.select().from(containers).where(and(eq(containers.instanceId, instance.id), live)).get();
  if (existing) throw badRequest("container.already_running");
  // Checked early so that a refused call writes nothing; claimed atomically below.
  if (instance.lastContainerOperation > now - CONTAINER_COOLDOWN_MS) throw cooldownError(instance.lastContainerOperation, now);

  const policy = (await getPlatformConfig(db, now)).containerPolicy;
  const limit = player.game.containerCountLimit;
  const autoDestroy = limit > 0 && policy.autoDestroyOnLimitReached;
  const id = crypto.randomUUID();
  const capture = captureWanted(env, challenge, computeGamePhase(player.game, now) === "Running");
  const expectStopAt = now + policy.defaultLifetime * MINUTE;
  let row: Container | null;
  try {
    row = await claimContainerSlot(
      db,
      {
        id,
        image: challenge.containerImage,
        startedAt: now,
        expectStopAt,
        challengeId: challenge.id,
        instanceId: instance.id,
        participationId: player.participation.id,
        userId,
        captureEnabled: capture,
      },
      limit,
      autoDestroy,
    );
  } catch (error) {
    // The live-instance unique index: a concurrent request of the same team won.
    if (isUniqueViolation(error)) throw badRequest("container.already_running");
    throw error;
  }
  if (!row) {
    // Disabled (or deleted) meanwhile: as if it had been before the call.
    const enabled = await db.select({ id: challenges.id }).from(challenges).where(and(eq(challenges.id, challenge.id), eq(challenges.isEnabled, true))).get();
    if (!enabled) throw notFound("challenge.not_found");
    // Refused by the limit; with auto-destroy, another start of the team is under way.
    throw badRequest(autoDestroy ? "container.team_starting" : "container.limit_exceeded");
  }
  // The cooldown is claimed after the row: of two teammates starting at once, the second is told the
  // container is running (the index above), not to wait 10 s.
  try {
    await claimCooldown(db, instance.id, now);
  } catch (error) {
    await db.delete(containers).where(eq(containers.id, id)).run();
    throw error;
  }
  const request: CreateContainerRequest = {
    instanceId: id,
    image: challenge.containerImage,
    cpuCount: challenge.cpuCount,
    memoryLimit: challenge.memoryLimit,
    storageLimit: challenge.storageLimit,
    exposePort: challenge.exposePort,
    networkMode: challenge.networkMode,
    proxy: portMappingOf(env) === "PlatformProxy",
    expectStopAt,
    teamId: String(player.participation.teamId),
    userId,
    challengeId: challenge.id,
    gameId: player.game.id,
    ...(challenge.type === "DynamicContainer" && instance.flag ? { flag: instance.flag } : {}),
    ...(policy.extraFlagEnvNames.length > 0 ? { extraFlagEnvNames: policy.extraFlagEnvNames } : {}),
    ...(capture
      ? { capture: { challengeId: challenge.id, challengeTitle: challenge.title, participationId: player.participation.id, teamId: player.participation.teamId, teamName: player.teamName } }
      : {}),
  };
  let started: Container;
  try {
    started = await startOnAgent(deps, row, request, "container.create_failed");
  } catch (error) {
    await restoreCooldown(db, instance.id, now, instance.lastContainerOperation);
    throw error;
  }
  await containerEvent(deps, "ContainerStart", player.game.id, challenge, player.participation.teamId, userId);
  await deps.log({
    level: "Information",
    logger: "Container",
    text: {
      key: "containerStarted",
      params: { team: player.teamName, id: started.id, title: challenge.title, challenge: challenge.id, agent: started.agentId ?? "", entry: started.entry },
    },
    status: "Success",
  });
  if (autoDestroy) await releaseOldestOverLimit(deps, player, started, limit);
  return toContainerInfo(started);
}

async function requireLiveTeamContainer(db: Db, player: Player, challengeId: number): Promise<{ challenge: Challenge; container: Container; instanceId: number }> {
  const challenge = await requirePlayerContainerChallenge(db, player, challengeId);
  const row = await db
    .select({ container: containers, instanceId: gameInstances.id })
    .from(gameInstances)
    .innerJoin(containers, and(eq(containers.instanceId, gameInstances.id), live))
    .where(and(eq(gameInstances.participationId, player.participation.id), eq(gameInstances.challengeId, challenge.id)))
    .get();
  if (!row) throw badRequest("container.not_running");
  return { challenge, container: row.container, instanceId: row.instanceId };
}

/**
 * POST game/{id}/container/{cid}/extend: only inside the renewal window before expiry. An expired container
 * the agent has not removed yet is released, not brought back (the challenge's detail no longer shows it).
 */
export async function extendPlayerContainer(deps: ContainerDeps, player: Player, challengeId: number): Promise<ContainerInfo> {
  const { db, now, env } = deps;
  await releaseStaleContainers(db, now);
  const { container, instanceId } = await requireLiveTeamContainer(db, player, challengeId);
  if (container.expectStopAt <= now) {
    await destroyContainer(deps, container);
    throw badRequest("container.not_running");
  }
  const policy = (await getPlatformConfig(db, now)).containerPolicy;
  if (container.expectStopAt - now > policy.renewalWindow * MINUTE) {
    throw badRequest("container.extend_too_early", { min: policy.renewalWindow });
  }
  const agent = await reachableAgent(env, container.agentId, now);
  // 400 with the reason (api.md §1 has no 503); the container may still run, so the row stays.
  if (!agent) throw agentUnreachable();
  await claimCooldown(db, instanceId, now);
  const expectStopAt = container.expectStopAt + policy.extensionDuration * MINUTE;
  try {
    await extendOnAgent(env, agent, container.id, expectStopAt);
  } catch (error) {
    if (error instanceof AgentCallError && error.status === 404) {
      // The agent no longer runs it (expired or removed): the row follows.
      await markDestroyed(deps, container);
      throw badRequest("container.not_running");
    }
    if (!isAgentFailure(error)) throw error;
    await deps.log({ level: "Warning", logger: "Container", text: { key: "containerNotExtended", params: { id: container.id, team: player.teamName, failure: agentFailureOf(error) } }, status: "Failed" });
    throw error instanceof AgentCallError ? badRequest("container.extend_failed") : error;
  }
  const updated = (await db.update(containers).set({ expectStopAt }).where(eq(containers.id, container.id)).returning().get())!;
  await announceContainerChange(env, player.game.id, player.participation.teamId, challengeId);
  await deps.log({ level: "Information", logger: "Container", text: { key: "containerExtended", params: { team: player.teamName, id: container.id, until: expectStopAt } }, status: "Success" });
  return toContainerInfo(updated);
}

/**
 * DELETE game/{id}/container/{cid}. When the agent cannot be reached or answers an error, the instance is
 * still released (200, the outcome says so) so the team can start again; the admin log has the reason.
 */
export async function destroyPlayerContainer(deps: ContainerDeps, player: Player, challengeId: number, userId: string): Promise<DestroyOutcome> {
  const { db, now } = deps;
  await releaseStaleContainers(db, now);
  const { container, instanceId } = await requireLiveTeamContainer(db, player, challengeId);
  await claimCooldown(db, instanceId, now);
  const outcome = await destroyContainer(deps, container, userId);
  await deps.log({
    level: outcome.reached ? "Information" : "Warning",
    logger: "Container",
    text: outcome.failure
      ? { key: "containerReleasedByTeam", params: { team: player.teamName, id: container.id, failure: outcome.failure } }
      : { key: "containerDestroyedByTeam", params: { team: player.teamName, id: container.id } },
    status: "Success",
  });
  return outcome;
}

// ── Admin test containers ────────────────────────────────────────────────────────────────────────────

/** Deterministic randomness from a seed, so a test container's flag can be shown again later. */
function seededRandomness(seed: string): Randomness {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let state = h >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n) => Math.floor(next() * n),
    uuid: () => {
      const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16)).join("");
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    },
  };
}

/** The test flag of a DynamicContainer test container (derived from the container id); null for static ones. */
export function testFlagOf(challenge: Pick<Challenge, "type" | "flagTemplate">, containerId: string): string | null {
  if (challenge.type !== "DynamicContainer") return null;
  return generateTestFlag(challenge.flagTemplate ?? "", seededRandomness(containerId));
}

/** The challenge's live test container, if any. */
export async function getTestContainer(db: Db, challenge: Pick<Challenge, "id" | "type" | "flagTemplate">): Promise<TestContainerInfo | null> {
  const row = await db
    .select()
    .from(containers)
    .where(and(eq(containers.challengeId, challenge.id), isNull(containers.instanceId), live))
    .get();
  // The flag it was started with: the challenge's template may have changed since (a row from before the
  // column was added has none stored, and is given the flag its id and the template make).
  return row ? { ...toContainerInfo(row), testFlag: row.testFlag ?? testFlagOf(challenge, row.id) } : null;
}

/** POST edit/games/{id}/challenges/{cid}/container: the admin test container (an existing one is returned). */
export async function startTestContainer(deps: ContainerDeps, challenge: Challenge, userId: string): Promise<TestContainerInfo> {
  const { db, now, env } = deps;
  if (!isContainerType(challenge.type)) throw badRequest("container.not_container_challenge");
  if (!challenge.containerImage?.trim()) throw badRequest("challenge.no_image_to_start");
  await releaseStaleContainers(db, now);
  const existing = await getTestContainer(db, challenge);
  if (existing) return existing;
  const policy = (await getPlatformConfig(db, now)).containerPolicy;
  const id = crypto.randomUUID();
  const flag = testFlagOf(challenge, id);
  const expectStopAt = now + policy.defaultLifetime * MINUTE;
  let row: Container;
  try {
    row = (await db
      .insert(containers)
      .values({ id, image: challenge.containerImage, status: "Pending", startedAt: now, expectStopAt, challengeId: challenge.id, userId, testFlag: flag })
      .returning()
      .get())!;
  } catch {
    const again = await getTestContainer(db, challenge);
    if (again) return again;
    throw badRequest("container.test_failed");
  }
  const request: CreateContainerRequest = {
    instanceId: id,
    image: challenge.containerImage,
    cpuCount: challenge.cpuCount,
    memoryLimit: challenge.memoryLimit,
    storageLimit: challenge.storageLimit,
    exposePort: challenge.exposePort,
    networkMode: challenge.networkMode,
    proxy: portMappingOf(env) === "PlatformProxy",
    expectStopAt,
    teamId: "admin",
    userId,
    challengeId: challenge.id,
    ...(flag ? { flag } : {}),
    ...(policy.extraFlagEnvNames.length > 0 ? { extraFlagEnvNames: policy.extraFlagEnvNames } : {}),
  };
  const started = await startOnAgent(deps, row, request, "container.test_failed");
  await deps.log({ level: "Information", logger: "Container", text: { key: "testContainerStarted", params: { id: started.id, title: challenge.title, challenge: challenge.id, entry: started.entry } }, status: "Success" });
  return { ...toContainerInfo(started), testFlag: flag };
}

/** DELETE edit/games/{id}/challenges/{cid}/container: 404 without a live test container. */
export async function stopTestContainer(deps: ContainerDeps, challenge: Challenge): Promise<DestroyOutcome> {
  const row = await deps.db
    .select()
    .from(containers)
    .where(and(eq(containers.challengeId, challenge.id), isNull(containers.instanceId), live))
    .get();
  if (!row) throw notFound("container.no_test_container");
  return destroyContainer(deps, row);
}

// ── Admin instances ──────────────────────────────────────────────────────────────────────────────────

/** GET admin/instances: live team containers (no test containers, nothing destroyed), newest first. */
export async function listAdminInstances(deps: Pick<ContainerDeps, "db" | "now" | "env">): Promise<AdminInstance[]> {
  const { db, now, env } = deps;
  await releaseStaleContainers(db, now);
  const [rows, reachable] = await Promise.all([
    db
      .select({ c: containers, ch: challenges, team: teams, game: { id: games.id, title: games.title } })
      .from(containers)
      .innerJoin(challenges, eq(challenges.id, containers.challengeId))
      .innerJoin(participations, eq(participations.id, containers.participationId))
      .innerJoin(teams, eq(teams.id, participations.teamId))
      .innerJoin(games, eq(games.id, participations.gameId))
      .where(and(live, isNotNull(containers.instanceId)))
      .orderBy(sql`${containers.startedAt} desc`)
      .all(),
    reachableAgentIds(env, now),
  ]);
  return rows.map(({ c, ch, team, game }) => ({
    team: { id: team.id, name: team.name, avatar: team.avatarHash ? `/assets/${team.avatarHash}/avatar` : null },
    challenge: { id: ch.id, title: ch.title, category: ch.category },
    game,
    image: c.image,
    containerGuid: c.id,
    containerId: c.containerId ?? "",
    startedAt: c.startedAt,
    expectStopAt: c.expectStopAt,
    ip: c.publicIp ?? c.ip,
    port: c.publicPort ?? c.port,
    entry: c.entry,
    status: c.status,
    agentId: c.agentId,
    agentReachable: c.agentId != null && reachable.has(c.agentId),
  }));
}

/** DELETE admin/instances/{id}: destroys a live team container (404 for test containers and unknown ids). */
export async function destroyAdminInstance(deps: ContainerDeps, id: string): Promise<DestroyOutcome> {
  const row = /^[0-9a-f-]{36}$/i.test(id)
    ? await deps.db
        .select()
        .from(containers)
        .where(and(eq(containers.id, id.toLowerCase()), live, isNotNull(containers.instanceId)))
        .get()
    : undefined;
  if (!row) throw notFound("container.not_found");
  return destroyContainer(deps, row);
}

/** The configured agents and their health, for the admin screen. */
export async function listAgents(env: ContainerEnv, now: number) {
  return (await agentStatuses(env, now)).map((a) => ({
    url: a.url,
    agentId: a.agentId,
    reachable: a.reachable,
    capacity: a.health?.capacity ?? null,
    running: a.health?.running ?? null,
    storageQuota: a.health?.docker.storageQuota ?? null,
    error: a.error,
  }));
}

// ── Bulk removal (challenge disabled or deleted, game deleted) ───────────────────────────────────────

/**
 * Destroys the live containers of some challenges (team containers only unless `includeTest`). Never fails
 * because of an agent: containers whose agent cannot be reached or answers an error have their rows
 * released (the agent reaps them itself) and one Warning in the admin log names them.
 */
export async function destroyContainersOfChallenges(
  deps: ContainerDeps,
  challengeIds: number[],
  includeTest: boolean,
  /** The game whose containers these are all (the log names it instead of the challenges). */
  gameId?: number,
): Promise<number> {
  const rows = await inChunks(challengeIds, (part) =>
    deps.db
      .select()
      .from(containers)
      .where(and(inArray(containers.challengeId, part), live, includeTest ? undefined : isNotNull(containers.instanceId)))
      .all(),
  );
  const released = await destroyEach(deps, rows);
  if (released.length > 0) {
    const counts = releasedCounts(released, rows.length);
    await deps.log({
      level: "Warning",
      logger: "Container",
      text:
        gameId != null
          ? { key: "containersReleasedOfGame", params: { ...counts, game: gameId } }
          : { key: "containersReleasedOfChallenges", params: { ...counts, challenges: challengeIds } },
      status: "Success",
    });
  }
  return rows.length;
}

/** Destroys each row's container; returns those released without their agent. */
async function destroyEach(deps: ContainerDeps, rows: Container[]): Promise<ReleasedContainer[]> {
  const released: ReleasedContainer[] = [];
  for (const row of rows) {
    const outcome = await destroyContainer(deps, row);
    if (outcome.failure) released.push({ id: row.id, failure: outcome.failure });
  }
  return released;
}

/** A bulk removal's log parameters: counts and the first 20 containers released without their agent. */
const releasedCounts = (released: ReleasedContainer[], total: number) => ({ released: released.length, total, containers: released.slice(0, 20), more: Math.max(0, released.length - 20) });

/**
 * Destroys the live containers of a participation that is no longer Accepted (suspended, rejected or
 * back to pending) or is about to be deleted with its team: its team can neither use nor destroy them,
 * and they would hold a slot of the agent until they expire. Never fails because of an agent, as above.
 */
export async function destroyContainersOfParticipation(deps: ContainerDeps, participationId: number): Promise<number> {
  const rows = await deps.db
    .select()
    .from(containers)
    .where(and(eq(containers.participationId, participationId), live))
    .all();
  const released = await destroyEach(deps, rows);
  if (released.length > 0) {
    const team = await deps.db
      .select({ name: teams.name })
      .from(participations)
      .innerJoin(teams, eq(teams.id, participations.teamId))
      .where(eq(participations.id, participationId))
      .get();
    await deps.log({
      level: "Warning",
      logger: "Container",
      text: { key: "containersReleasedOfTeam", params: { ...releasedCounts(released, rows.length), team: team?.name ?? `#${participationId}` } },
      status: "Success",
    });
  }
  return rows.length;
}

/** Destroys the live containers of every participation of a team that is about to be deleted. */
export async function destroyContainersOfTeam(deps: ContainerDeps, teamId: number): Promise<number> {
  const rows = await deps.db.select({ id: participations.id }).from(participations).where(eq(participations.teamId, teamId)).all();
  let destroyed = 0;
  for (const { id } of rows) destroyed += await destroyContainersOfParticipation(deps, id);
  return destroyed;
}

export async function destroyContainersOfGame(deps: ContainerDeps, gameId: number): Promise<number> {
  const ids = (await deps.db.select({ id: challenges.id }).from(challenges).where(eq(challenges.gameId, gameId)).all()).map((r) => r.id);
  return destroyContainersOfChallenges(deps, ids, true, gameId);
}

// ── Agent callbacks ──────────────────────────────────────────────────────────────────────────────────

/**
 * POST api/agent/instances: which of the agent's instance ids are live here and still of use (the agent
 * reaps the others, at its start and on every sweep). A team's container whose game has ended without
 * practice mode is not: its team can neither use, extend nor destroy it (10002), so it would hold a slot of
 * the agent until it expired. Admin test containers (no participation) follow their row only.
 */
export async function knownInstances(db: Db, instanceIds: string[], now: number): Promise<string[]> {
  const ids = [...new Set(instanceIds.map((i) => i.toLowerCase()).filter((i) => /^[0-9a-f-]{36}$/.test(i)))];
  const rows = await inChunks(ids, (part) =>
    db
      .select({ id: containers.id, game: { startTime: games.startTime, endTime: games.endTime, practiceMode: games.practiceMode } })
      .from(containers)
      .leftJoin(participations, eq(participations.id, containers.participationId))
      .leftJoin(games, eq(games.id, participations.gameId))
      .where(and(inArray(containers.id, part), live))
      .all(),
  );
  return rows.filter((r) => r.game?.endTime == null || containerUnwantedReason(r.game as GameTimes, now) === null).map((r) => r.id);
}

/** A container the agent reports as started: the row learns its agent if it did not know it yet. */
export async function containerStarted(db: Db, agentId: string, container: AgentContainer): Promise<void> {
  const id = container.instanceId.toLowerCase();
  await db
    .update(containers)
    .set({ agentId })
    .where(and(eq(containers.id, id), isNull(containers.agentId), live))
    .run();
  // A row still Pending whose creating request died (the platform was killed meanwhile): the agent's
  // report (at creation, or again when it re-adopts after a restart) makes it Running, so the team is not
  // stuck and the container is not left without a row. startOnAgent accepts a row promoted this way.
  await db
    .update(containers)
    .set({
      status: "Running",
      containerId: container.containerId,
      ip: container.ip,
      port: container.port,
      publicIp: container.publicIp,
      publicPort: container.publicPort,
      entry: container.entry,
      startedAt: container.startedAt,
      expectStopAt: container.expectStopAt,
    })
    .where(and(eq(containers.id, id), eq(containers.status, "Pending"), eq(containers.agentId, agentId)))
    .run();
}

/**
 * A container the agent removed (expired, exited, unknown): the row follows, with the event. Returns the
 * removal's reason for the log, or null when no live row of that agent was removed. The agent's `unknown`
 * is the platform's own decision (knownInstances): the reason is then why the platform let it go.
 */
export async function containerGone(
  deps: Pick<ContainerDeps, "db" | "now" | "env">,
  agentId: string,
  instanceId: string,
  reported: AgentRemovalReason,
): Promise<RemovalReason | null> {
  const found = await deps.db
    .select({ row: containers, game: { startTime: games.startTime, endTime: games.endTime, practiceMode: games.practiceMode } })
    .from(containers)
    .leftJoin(participations, eq(participations.id, containers.participationId))
    .leftJoin(games, eq(games.id, participations.gameId))
    .where(and(eq(containers.id, instanceId.toLowerCase()), live))
    .get();
  if (!found || (found.row.agentId != null && found.row.agentId !== agentId)) return null;
  if (!(await markDestroyed(deps, found.row))) return null;
  const game = found.game?.endTime == null ? null : (found.game as GameTimes);
  return reported === "unknown" && game ? (containerUnwantedReason(game, deps.now) ?? "unknown") : reported;
}
