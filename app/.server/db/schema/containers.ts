import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CONTAINER_STATUSES } from "~/core/enums";
import { challenges } from "./challenges";
import { gameInstances } from "./instances";
import { participations } from "./participations";
import { users } from "./users";

/**
 * A container started by a container-agent. Team containers have `instanceId` and `participationId`;
 * admin test containers have neither (only `challengeId`). Destroyed rows stay as history; at most one
 * live (not Destroyed) container per instance, and one live test container per challenge.
 */
export const containers = sqliteTable(
  "containers",
  {
    /** UUID; also the proxy entry in PlatformProxy mode. */
    id: text("id").primaryKey(),
    /** Docker container id; null until the agent has created it. */
    containerId: text("container_id"),
    image: text("image").notNull(),
    status: text("status", { enum: CONTAINER_STATUSES }).notNull().default("Pending"),
    /** Address and port inside the Docker host network. */
    ip: text("ip").notNull().default(""),
    port: integer("port").notNull().default(0),
    /** Published address and port (Default port mapping); null in proxy mode. */
    publicIp: text("public_ip"),
    publicPort: integer("public_port"),
    /** What players connect to: `host:port`, or the instance UUID in proxy mode. */
    entry: text("entry").notNull().default(""),
    startedAt: integer("started_at").notNull(),
    expectStopAt: integer("expect_stop_at").notNull(),
    /** The container-agent that runs it. */
    agentId: text("agent_id"),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    instanceId: integer("instance_id").references(() => gameInstances.id, { onDelete: "cascade" }),
    participationId: integer("participation_id").references(() => participations.id, { onDelete: "cascade" }),
    /** The user who created it (FLAGSTAFF_USER_ID). */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The flag an admin test container was started with (DynamicContainer); null otherwise. */
    testFlag: text("test_flag"),
    /** Whether the game was running at creation (a condition of traffic capture). */
    captureEnabled: integer("capture_enabled", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    index("containers_status_expect_stop_idx").on(t.status, t.expectStopAt),
    index("containers_participation_status_idx").on(t.participationId, t.status),
    index("containers_challenge_idx").on(t.challengeId),
    uniqueIndex("containers_live_instance_unique")
      .on(t.instanceId)
      .where(sql`status <> 'Destroyed' AND instance_id IS NOT NULL`),
    uniqueIndex("containers_live_test_unique")
      .on(t.challengeId)
      .where(sql`status <> 'Destroyed' AND instance_id IS NULL`),
  ],
);

/** A pcap of a team's container traffic, stored gzip-compressed in R2 under `r2Key` (rules.md §9). */
export const trafficCaptures = sqliteTable(
  "traffic_captures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    participationId: integer("participation_id")
      .notNull()
      .references(() => participations.id, { onDelete: "cascade" }),
    containerId: text("container_id").references(() => containers.id, { onDelete: "set null" }),
    /** `capture/{challengeId}/{participationId}/{12 hex}-{connection id}.pcap` */
    r2Key: text("r2_key").notNull(),
    /** The last path segment of `r2Key`, used as `{file}` in the captures API. */
    fileName: text("file_name").notNull(),
    /** Stored (compressed) bytes. */
    size: integer("size").notNull(),
    /** Bytes of the pcap itself, as a download gives it (FileRecord.size); null for files collected before it was kept. */
    rawSize: integer("raw_size"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("traffic_captures_r2_key_unique").on(t.r2Key),
    index("traffic_captures_challenge_participation_idx").on(t.challengeId, t.participationId, t.createdAt),
  ],
);

export type Container = typeof containers.$inferSelect;
export type NewContainer = typeof containers.$inferInsert;
export type TrafficCapture = typeof trafficCaptures.$inferSelect;
export type NewTrafficCapture = typeof trafficCaptures.$inferInsert;
