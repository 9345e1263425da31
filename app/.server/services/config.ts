import { eq, inArray, sql } from "drizzle-orm";
import {
  type ConfigUpdate,
  normalizeCustomTheme,
  type AccountPolicy,
  accountPolicySchema,
  type ClientConfig,
  type ContainerPolicy,
  containerPolicySchema,
  type GlobalConfig,
  globalConfigSchema,
  toClientConfig,
} from "~/core/schemas/config";
import type { Db } from "../db/client";
import { configEntries } from "../db/schema";

export interface PlatformConfig {
  accountPolicy: AccountPolicy;
  globalConfig: GlobalConfig;
  containerPolicy: ContainerPolicy;
}

const SECTIONS = ["accountPolicy", "globalConfig", "containerPolicy"] as const;
type Section = (typeof SECTIONS)[number];
const schemas = { accountPolicy: accountPolicySchema, globalConfig: globalConfigSchema, containerPolicy: containerPolicySchema };

/**
 * Settings are read on nearly every request (client config, account policy), so they are kept in the
 * isolate's memory for a few seconds and dropped at once when this isolate saves them.
 */
const CACHE_MS = 5000;
let cached: { at: number; value: PlatformConfig } | null = null;

function parseSection<S extends Section>(section: S, raw: string | undefined): PlatformConfig[S] {
  let value: unknown = {};
  if (raw) {
    try {
      value = JSON.parse(raw);
    } catch {
      value = {};
    }
  }
  const parsed = schemas[section].safeParse(value);
  return (parsed.success ? parsed.data : schemas[section].parse({})) as PlatformConfig[S];
}

export async function getPlatformConfig(db: Db, now = Date.now()): Promise<PlatformConfig> {
  if (cached && now - cached.at < CACHE_MS) return cached.value;
  const rows = await db.select().from(configEntries).where(inArray(configEntries.key, [...SECTIONS])).all();
  const raw = new Map(rows.map((r) => [r.key, r.value]));
  const value: PlatformConfig = {
    accountPolicy: parseSection("accountPolicy", raw.get("accountPolicy")),
    globalConfig: parseSection("globalConfig", raw.get("globalConfig")),
    containerPolicy: parseSection("containerPolicy", raw.get("containerPolicy")),
  };
  cached = { at: now, value };
  return value;
}

/** Changed fields of some sections (already validated by the caller). */
export type ConfigPatch = { [S in Section]?: Partial<PlatformConfig[S]> };

/**
 * Saves the fields given, each set on its own inside the stored JSON (`json_set`), in one transaction:
 * two saves of different fields never undo each other, however stale the caller's copy (the settings
 * cache of another isolate, or a request that read them just before another saved).
 */
export async function savePlatformConfig(db: Db, patch: ConfigPatch, now = Date.now()): Promise<PlatformConfig> {
  const statements = SECTIONS.flatMap((section) => {
    const fields = Object.entries(patch[section] ?? {}).filter(([, v]) => v !== undefined);
    if (fields.length === 0) return [];
    const pairs = sql.join(
      fields.map(([name, v]) => sql`${`$.${name}`}, json(${JSON.stringify(v)})`),
      sql`, `,
    );
    return [
      db.insert(configEntries).values({ key: section, value: "{}", updatedAt: now }).onConflictDoNothing(),
      db
        .update(configEntries)
        .set({ value: sql`json_set(${configEntries.value}, ${pairs})`, updatedAt: now })
        .where(eq(configEntries.key, section)),
    ];
  });
  if (statements.length > 0) await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
  cached = null;
  return getPlatformConfig(db, now);
}

export function invalidateConfigCache(): void {
  cached = null;
}

export async function getClientConfig(db: Db, portMapping: ClientConfig["portMapping"] = "Default"): Promise<ClientConfig> {
  const config = await getPlatformConfig(db);
  return toClientConfig(config.globalConfig, config.containerPolicy, portMapping);
}

/** Merges a partial update into the stored settings (null/omitted fields unchanged) and saves it. */
export async function updatePlatformConfig(db: Db, update: ConfigUpdate, now = Date.now()): Promise<PlatformConfig> {
  const defined = <T extends object>(o: T | null | undefined) =>
    Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined && v !== null)) as {
      [K in keyof T]?: Exclude<T[K], null | undefined>;
    };
  const patch: ConfigPatch = {};
  if (update.accountPolicy) patch.accountPolicy = defined(update.accountPolicy);
  if (update.globalConfig) {
    const g = defined(update.globalConfig);
    patch.globalConfig = g.customTheme === undefined ? g : { ...g, customTheme: normalizeCustomTheme(g.customTheme) };
  }
  if (update.containerPolicy) patch.containerPolicy = defined(update.containerPolicy);
  return savePlatformConfig(db, patch, now);
}
