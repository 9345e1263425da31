/** Agent settings from the environment (README.md lists them). */
import { hostname } from "node:os";
import { resolve } from "node:path";
import { AGENT_SECRET_MIN_LENGTH } from "../../app/core/agent-protocol.ts";
import type { LogLevel } from "./log.ts";

export interface RegistryAuth {
  serveraddress: string;
  username: string;
  password: string;
}

export interface DockerTarget {
  socketPath?: string;
  host?: string;
  port?: number;
  protocol?: "http" | "https";
}

export interface AgentConfig {
  agentId: string;
  secret: string;
  host: string;
  port: number;
  /** Host address published ports bind to. */
  publishHost: string;
  /** Host name or address players are told to connect to (`entry`). */
  publicHost: string;
  capacity: number;
  pidsLimit: number;
  dataDir: string;
  docker: DockerTarget;
  registryAuth: RegistryAuth | null;
  /** Base URL of the platform for signed callbacks; null = no callbacks (containers are never reaped as unknown). */
  platformUrl: string | null;
  /** Operator network used by the Custom network mode. */
  customNetwork: string;
  reapIntervalMs: number;
  captureIdleMs: number;
  logLevel: LogLevel;
  /** PEM files; both set = serve HTTPS/WSS instead of plain HTTP. */
  tls: { certFile: string; keyFile: string } | null;
}

export const DEFAULT_PORT = 8788;
export const MIN_SECRET_LENGTH = AGENT_SECRET_MIN_LENGTH;

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

/** DOCKER_HOST forms: unix:///path, tcp://host:port (http), https://host:port; default the local socket. */
export function parseDockerHost(value: string | undefined): DockerTarget {
  if (!value) return { socketPath: "/var/run/docker.sock" };
  if (value.startsWith("unix://")) return { socketPath: value.slice("unix://".length) };
  let url: URL | undefined;
  try {
    url = new URL(value.replace(/^tcp:/, "http:"));
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) {
    throw new ConfigError(`DOCKER_HOST must be unix:///path, tcp://host:port or https://host:port, got "${value}"`);
  }
  return {
    host: url.hostname,
    port: Number(url.port || (url.protocol === "https:" ? 2376 : 2375)),
    protocol: url.protocol === "https:" ? "https" : "http",
  };
}

function tls(env: NodeJS.ProcessEnv): AgentConfig["tls"] {
  const certFile = env.FLAGSTAFF_AGENT_TLS_CERT;
  const keyFile = env.FLAGSTAFF_AGENT_TLS_KEY;
  if (!certFile && !keyFile) return null;
  if (!certFile || !keyFile) throw new ConfigError("FLAGSTAFF_AGENT_TLS_CERT and FLAGSTAFF_AGENT_TLS_KEY go together");
  return { certFile, keyFile };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AgentConfig {
  const secret = env.FLAGSTAFF_AGENT_SECRET ?? "";
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`FLAGSTAFF_AGENT_SECRET must be set to at least ${MIN_SECRET_LENGTH} characters (e.g. openssl rand -hex 32)`);
  }
  const publishHost = env.FLAGSTAFF_AGENT_PUBLISH_HOST || "127.0.0.1";
  const platformUrl = env.FLAGSTAFF_PLATFORM_URL ? env.FLAGSTAFF_PLATFORM_URL.replace(/\/+$/, "") : null;
  if (platformUrl && !/^https?:\/\//.test(platformUrl)) throw new ConfigError("FLAGSTAFF_PLATFORM_URL must be an http(s) URL");
  const registryUser = env.FLAGSTAFF_REGISTRY_USERNAME;
  const logLevel = (env.FLAGSTAFF_AGENT_LOG_LEVEL || "info") as LogLevel;
  if (!["info", "warn", "error", "silent"].includes(logLevel)) throw new ConfigError("FLAGSTAFF_AGENT_LOG_LEVEL must be info, warn, error or silent");
  return {
    agentId: env.FLAGSTAFF_AGENT_ID || hostname(),
    secret,
    host: env.FLAGSTAFF_AGENT_HOST || "127.0.0.1",
    port: integer(env, "FLAGSTAFF_AGENT_PORT", DEFAULT_PORT, 0, 65535),
    publishHost,
    publicHost: env.FLAGSTAFF_AGENT_PUBLIC_HOST || publishHost,
    capacity: integer(env, "FLAGSTAFF_AGENT_CAPACITY", 64, 1, 100_000),
    pidsLimit: integer(env, "FLAGSTAFF_AGENT_PIDS_LIMIT", 512, 16, 1_000_000),
    dataDir: resolve(env.FLAGSTAFF_AGENT_DATA_DIR || "data"),
    docker: parseDockerHost(env.FLAGSTAFF_DOCKER_HOST || env.DOCKER_HOST),
    registryAuth: registryUser
      ? { serveraddress: env.FLAGSTAFF_REGISTRY_SERVER || "https://index.docker.io/v1/", username: registryUser, password: env.FLAGSTAFF_REGISTRY_PASSWORD ?? "" }
      : null,
    platformUrl,
    customNetwork: env.FLAGSTAFF_AGENT_CUSTOM_NETWORK || "flagstaff-custom",
    reapIntervalMs: integer(env, "FLAGSTAFF_AGENT_REAP_INTERVAL_MS", 30_000, 100, 3_600_000),
    captureIdleMs: integer(env, "FLAGSTAFF_AGENT_CAPTURE_IDLE_MS", 30_000, 100, 3_600_000),
    logLevel,
    tls: tls(env),
  };
}
