/**
 * Worker ⇄ container-agent protocol (ARCHITECTURE.md §8): request and response shapes and HMAC-SHA256
 * request signing. Pure Web Crypto, no Node APIs: the Worker imports it to sign its calls and verify the
 * agent's callbacks; the agent (container-agent/, run by Node with type stripping) imports it to verify
 * the Worker's calls and sign its callbacks. Only type imports may be added here.
 *
 * A signed request carries three headers (or, for WebSocket upgrades, three query parameters):
 * timestamp (Unix milliseconds), nonce (16–64 chars of [A-Za-z0-9_-]) and signature = lower-case hex
 * HMAC-SHA256(secret, canonical), where canonical is
 *
 *     METHOD \n path-with-query \n timestamp \n nonce \n hex SHA-256(body)
 *
 * The path is the request target as sent (`/containers/abc?x=1`), without scheme and host and, for a
 * query-signed URL, without the three signature parameters. The receiver refuses a timestamp more than
 * AGENT_SIGNATURE_WINDOW_MS away from its clock and a nonce it has already seen within that window.
 */
import type { NetworkMode } from "./enums";

/** The shared HMAC secret's least length, for the platform, the agents and the launcher alike. */
export const AGENT_SECRET_MIN_LENGTH = 32;
export const AGENT_SIGNATURE_WINDOW_MS = 60_000;
export const AGENT_HEADER_TIMESTAMP = "x-flagstaff-timestamp";
export const AGENT_HEADER_NONCE = "x-flagstaff-nonce";
export const AGENT_HEADER_SIGNATURE = "x-flagstaff-signature";
/** Query parameters carrying the signature of a WebSocket upgrade URL. */
export const AGENT_QUERY_TIMESTAMP = "fs_ts";
export const AGENT_QUERY_NONCE = "fs_nonce";
export const AGENT_QUERY_SIGNATURE = "fs_sig";
/** Query parameter of a proxy URL: the player's address, used as the client side of captured frames. */
export const AGENT_QUERY_CLIENT = "client";

/** Container labels written by the agent (rules.md §8). */
export const AGENT_LABELS = {
  instance: "flagstaff.instance",
  team: "flagstaff.team",
  user: "flagstaff.user",
  challenge: "flagstaff.challenge",
  game: "flagstaff.game",
  agent: "flagstaff.agent",
  expectStopAt: "flagstaff.expect-stop-at",
} as const;

/** The environment variable a team's container gets its flag in (the admin pages name it to challenge authors). */
export const FLAG_ENV_NAME = "FLAGSTAFF_FLAG";

/** Proxy limits (rules.md §9). */
export const PROXY_MAX_CONNECTIONS = 32;
export const PROXY_MAX_CONNECTION_MS = 30 * 60_000;
export const PROXY_CHUNK_BYTES = 4096;

const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
const HEX_SIGNATURE = /^[0-9a-f]{64}$/;
const encoder = new TextEncoder();

// ---------------------------------------------------------------------------------------------------
// Shapes

export type AgentNetworkMode = NetworkMode;

/** POST /containers */
export interface CreateContainerRequest {
  /** The platform's container UUID (containers.id); labels `flagstaff.instance`. */
  instanceId: string;
  image: string;
  /** CPU in units of 0.1 core (1–1024). */
  cpuCount: number;
  /** Memory in MB (bytes = MB × 1024²). */
  memoryLimit: number;
  /** Writable-layer size in MB, applied only where the storage driver supports it. */
  storageLimit: number;
  /** TCP port of the service inside the container. */
  exposePort: number;
  networkMode: AgentNetworkMode;
  /** true: publish nothing, players reach the service through GET /proxy/{instanceId}. */
  proxy: boolean;
  /** Unix ms; the agent destroys the container after it. */
  expectStopAt: number;
  /** Team id, or "admin" for a test container. */
  teamId: string;
  userId: string;
  challengeId: number;
  /** Game id; absent for test containers. */
  gameId?: number;
  /** The instance's flag; absent for static containers. */
  flag?: string;
  /** Extra variable names that receive the flag (containerPolicy.extraFlagEnvNames). */
  extraFlagEnvNames?: string[];
  /** Present when this container's proxied traffic is captured (rules.md §9). */
  capture?: CaptureSpec;
}

export interface CaptureSpec {
  challengeId: number;
  challengeTitle: string;
  participationId: number;
  teamId: number;
  teamName: string;
}

export type AgentContainerState = "created" | "running" | "paused" | "restarting" | "exited" | "dead" | "removing" | "missing";

export interface AgentContainer {
  instanceId: string;
  /** Docker container id (64 hex). */
  containerId: string;
  name: string;
  image: string;
  state: AgentContainerState;
  /** Address and port of the service on the Docker host's network. */
  ip: string;
  port: number;
  /** Published address and port; null in proxy mode. */
  publicIp: string | null;
  publicPort: number | null;
  /** host:port, or the instance UUID in proxy mode. */
  entry: string;
  startedAt: number;
  expectStopAt: number;
  /** Whether the storage limit was applied (false when the storage driver cannot limit size). */
  storageLimited: boolean;
  capture: boolean;
  /** Open proxy connections. */
  connections: number;
  teamId: string;
  userId: string;
  challengeId: number;
  gameId: number | null;
}

/** POST /containers/{instanceId}/extend */
export interface ExtendContainerRequest {
  expectStopAt: number;
}

/** GET /containers */
export interface ListContainersResponse {
  containers: AgentContainer[];
}

/** GET /health */
export interface AgentHealth {
  agentId: string;
  version: string;
  /** Containers this agent may run at once. */
  capacity: number;
  running: number;
  /** Whether new containers are accepted (Docker reachable and running < capacity). */
  accepting: boolean;
  docker: {
    reachable: boolean;
    serverVersion: string | null;
    storageDriver: string | null;
    /** Whether the storage driver enforces per-container size (StorageOpt size). */
    storageQuota: boolean;
    cpus: number | null;
    memoryBytes: number | null;
    error: string | null;
  };
  proxyConnections: number;
  captures: { pending: number };
}

/** GET /captures: finished capture files waiting to be collected by the platform. */
export interface AgentCaptureFile {
  /** `{challengeId}/{participationId}/{12 hex of the container id}-{first connection id}.pcap` — the R2 key without `capture/`. */
  key: string;
  instanceId: string;
  challengeId: number;
  participationId: number;
  /** Gzip-compressed bytes. */
  size: number;
  packets: number;
  dropped: number;
  createdAt: number;
}

export interface ListCapturesResponse {
  captures: AgentCaptureFile[];
}

/** Error body of every non-2xx agent response. */
export interface AgentErrorBody {
  error: string;
  message: string;
}

/** Agent → Worker, POST {platform}/api/agent/instances: which of these instances the platform still knows. */
export interface KnownInstancesRequest {
  agentId: string;
  instanceIds: string[];
}

export interface KnownInstancesResponse {
  /** The subset of the asked ids that are live on the platform; every other one is reaped. */
  known: string[];
}

/**
 * Why the agent removed a container: asked to (`request`), past its expiry (`expired`), left out of the
 * platform's known instances (`unknown`), its start failed (`failed`), it stopped by itself (`exited`).
 */
export type AgentRemovalReason = "request" | "expired" | "unknown" | "failed" | "exited";

/** Agent → Worker, POST {platform}/api/agent/events: container state changes and finished captures. */
export type AgentEvent =
  | { type: "container.started"; agentId: string; at: number; container: AgentContainer }
  | {
      type: "container.destroyed";
      agentId: string;
      at: number;
      instanceId: string;
      reason: AgentRemovalReason;
    }
  | { type: "capture.ready"; agentId: string; at: number; capture: AgentCaptureFile };

// ---------------------------------------------------------------------------------------------------
// Signing

export interface SignatureParts {
  timestamp: number;
  nonce: string;
  signature: string;
}

export type SignedBody = string | Uint8Array | null | undefined;

function toHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let out = "";
  for (const b of view) out += b.toString(16).padStart(2, "0");
  return out;
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function bodyBytes(body: SignedBody): Uint8Array<ArrayBuffer> {
  if (body === null || body === undefined) return new Uint8Array(0);
  if (typeof body === "string") return encoder.encode(body);
  const copy = new Uint8Array(body.byteLength);
  copy.set(body);
  return copy;
}

export async function sha256Hex(body: SignedBody): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", bodyBytes(body)));
}

export function canonicalRequest(method: string, path: string, timestamp: number, nonce: string, bodyHash: string): string {
  return `${method.toUpperCase()}\n${path}\n${timestamp}\n${nonce}\n${bodyHash}`;
}

const keyCache = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keyCache.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    if (keyCache.size > 16) keyCache.clear();
    keyCache.set(secret, key);
  }
  return key;
}

/** A random nonce: 32 hex characters. */
export function newNonce(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(16)));
}

export interface SignInput {
  method: string;
  /** Path with query, e.g. `/containers/abc/extend`. */
  path: string;
  body?: SignedBody;
  /** Unix ms; defaults to Date.now(). */
  now?: number;
  nonce?: string;
}

export async function signParts(secret: string, input: SignInput): Promise<SignatureParts> {
  if (!secret) throw new Error("agent secret is empty");
  const timestamp = Math.floor(input.now ?? Date.now());
  const nonce = input.nonce ?? newNonce();
  const canonical = canonicalRequest(input.method, input.path, timestamp, nonce, await sha256Hex(input.body));
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(canonical));
  return { timestamp, nonce, signature: toHex(mac) };
}

/** Headers to add to a signed request. */
export async function signRequest(secret: string, input: SignInput): Promise<Record<string, string>> {
  const parts = await signParts(secret, input);
  return {
    [AGENT_HEADER_TIMESTAMP]: String(parts.timestamp),
    [AGENT_HEADER_NONCE]: parts.nonce,
    [AGENT_HEADER_SIGNATURE]: parts.signature,
  };
}

/**
 * A path with the signature in its query (for WebSocket upgrades, whose headers some clients cannot
 * set). The signed path is `path` as given; the three parameters are appended after it.
 */
export async function signPathWithQuery(secret: string, input: Omit<SignInput, "body">): Promise<string> {
  const parts = await signParts(secret, { ...input, body: null });
  const params = new URLSearchParams({
    [AGENT_QUERY_TIMESTAMP]: String(parts.timestamp),
    [AGENT_QUERY_NONCE]: parts.nonce,
    [AGENT_QUERY_SIGNATURE]: parts.signature,
  });
  return `${input.path}${input.path.includes("?") ? "&" : "?"}${params}`;
}

/**
 * Splits a request target into the path that was signed and the query signature, if any: the three
 * signature parameters are removed and the remaining query is kept in its original order and encoding.
 */
/**
 * A query value decoded, or as sent when its escape is broken (`%`): it then fails the format check (401)
 * instead of throwing (a 500). Inline rather than app/core/http/cookie.ts: only type imports here (above).
 */
function decodeOrRaw(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function splitQuerySignature(target: string): { path: string; parts: { timestamp: string | null; nonce: string | null; signature: string | null } } {
  const q = target.indexOf("?");
  if (q < 0) return { path: target, parts: { timestamp: null, nonce: null, signature: null } };
  const found: Record<string, string> = {};
  const kept: string[] = [];
  for (const piece of target.slice(q + 1).split("&")) {
    const eq = piece.indexOf("=");
    const name = eq < 0 ? piece : piece.slice(0, eq);
    if (name === AGENT_QUERY_TIMESTAMP || name === AGENT_QUERY_NONCE || name === AGENT_QUERY_SIGNATURE) {
      found[name] = eq < 0 ? "" : decodeOrRaw(piece.slice(eq + 1));
    } else if (piece !== "") {
      kept.push(piece);
    }
  }
  const base = target.slice(0, q);
  return {
    path: kept.length > 0 ? `${base}?${kept.join("&")}` : base,
    parts: {
      timestamp: found[AGENT_QUERY_TIMESTAMP] ?? null,
      nonce: found[AGENT_QUERY_NONCE] ?? null,
      signature: found[AGENT_QUERY_SIGNATURE] ?? null,
    },
  };
}

export type VerifyFailure = "missing" | "malformed" | "expired" | "forged" | "replayed";
export type VerifyResult = { ok: true; timestamp: number; nonce: string } | { ok: false; reason: VerifyFailure };

/** Remembers nonces for the signature window so a captured request cannot be replayed. */
export class NonceCache {
  private readonly seen = new Map<string, number>();
  private readonly windowMs: number;
  private readonly maxEntries: number;

  constructor(windowMs = AGENT_SIGNATURE_WINDOW_MS, maxEntries = 100_000) {
    this.windowMs = windowMs;
    this.maxEntries = maxEntries;
  }

  /** Records the nonce; false when it was already seen (a replay) or the cache is full of live nonces. */
  remember(nonce: string, now: number): boolean {
    this.prune(now);
    if (this.seen.has(nonce)) return false;
    if (this.seen.size >= this.maxEntries) return false;
    // Kept until its request can no longer pass the timestamp check anywhere in the window.
    this.seen.set(nonce, now + 2 * this.windowMs);
    return true;
  }

  get size(): number {
    return this.seen.size;
  }

  private prune(now: number) {
    // Entries are inserted in time order (expiry = insertion time + constant), so the oldest come first.
    for (const [nonce, expires] of this.seen) {
      if (expires > now) break;
      this.seen.delete(nonce);
    }
  }
}

export interface VerifyInput {
  method: string;
  path: string;
  body?: SignedBody;
  timestamp: string | null | undefined;
  nonce: string | null | undefined;
  signature: string | null | undefined;
  now?: number;
  nonces: NonceCache;
  windowMs?: number;
}

export async function verifyParts(secret: string, input: VerifyInput): Promise<VerifyResult> {
  const { timestamp, nonce, signature } = input;
  if (!timestamp || !nonce || !signature) return { ok: false, reason: "missing" };
  if (!/^\d{1,16}$/.test(timestamp) || !NONCE_PATTERN.test(nonce) || !HEX_SIGNATURE.test(signature)) {
    return { ok: false, reason: "malformed" };
  }
  const now = input.now ?? Date.now();
  const ts = Number(timestamp);
  if (Math.abs(now - ts) > (input.windowMs ?? AGENT_SIGNATURE_WINDOW_MS)) return { ok: false, reason: "expired" };
  const canonical = canonicalRequest(input.method, input.path, ts, nonce, await sha256Hex(input.body));
  // subtle.verify compares in constant time.
  const valid = await crypto.subtle.verify("HMAC", await hmacKey(secret), fromHex(signature), encoder.encode(canonical));
  if (!valid) return { ok: false, reason: "forged" };
  if (!input.nonces.remember(nonce, now)) return { ok: false, reason: "replayed" };
  return { ok: true, timestamp: ts, nonce };
}

/** Header lookup that works for both Fetch `Headers` and Node's lower-cased header objects. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | null {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/**
 * Verifies a request signed in its headers or, when the headers carry no signature, in its query.
 * `target` is the request target (path and query) as received.
 */
export async function verifyRequest(
  secret: string,
  request: { method: string; target: string; headers: HeaderSource; body?: SignedBody },
  options: { nonces: NonceCache; now?: number; windowMs?: number },
): Promise<VerifyResult> {
  const signature = header(request.headers, AGENT_HEADER_SIGNATURE);
  if (signature !== null) {
    return verifyParts(secret, {
      method: request.method,
      path: request.target,
      body: request.body,
      timestamp: header(request.headers, AGENT_HEADER_TIMESTAMP),
      nonce: header(request.headers, AGENT_HEADER_NONCE),
      signature,
      ...options,
    });
  }
  const split = splitQuerySignature(request.target);
  return verifyParts(secret, {
    method: request.method,
    path: split.path,
    body: request.body,
    ...split.parts,
    ...options,
  });
}
