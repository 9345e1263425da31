/** Checks of request bodies from the Worker (signed, but still checked: a platform bug must not reach Docker). */
import type { CaptureSpec, CreateContainerRequest, ExtendContainerRequest } from "../../app/core/agent-protocol.ts";
import { badRequest } from "./errors.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Docker reference: [registry[:port]/]path[:tag][@digest], lower-case path. */
const IMAGE = /^(?:(?:localhost|[a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)+|[a-zA-Z0-9-]+(?=:\d))(?::\d+)?\/)?[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@sha256:[0-9a-f]{64})?$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const NETWORK_MODES = new Set(["Open", "Isolated", "Custom"]);

export const isInstanceId = (value: string) => UUID.test(value);

type Body = Record<string, unknown>;

function object(value: unknown, what: string): Body {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw badRequest("agent.invalid_body", `${what} must be a JSON object`);
  return value as Body;
}

function int(body: Body, name: string, min: number, max: number): number {
  const value = body[name];
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw badRequest("agent.invalid_body", `${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

function str(body: Body, name: string, max: number, pattern?: RegExp): string {
  const value = body[name];
  if (typeof value !== "string" || value.length === 0 || value.length > max || (pattern && !pattern.test(value))) {
    throw badRequest("agent.invalid_body", `${name} is missing or malformed`);
  }
  return value;
}

function capture(value: unknown): CaptureSpec {
  const body = object(value, "capture");
  return {
    challengeId: int(body, "challengeId", 1, Number.MAX_SAFE_INTEGER),
    challengeTitle: str(body, "challengeTitle", 200),
    participationId: int(body, "participationId", 1, Number.MAX_SAFE_INTEGER),
    teamId: int(body, "teamId", 1, Number.MAX_SAFE_INTEGER),
    teamName: str(body, "teamName", 200),
  };
}

export function parseCreateRequest(value: unknown, now: number): CreateContainerRequest {
  const body = object(value, "body");
  const request: CreateContainerRequest = {
    instanceId: str(body, "instanceId", 36, UUID).toLowerCase(),
    image: str(body, "image", 255, IMAGE),
    cpuCount: int(body, "cpuCount", 1, 1024),
    memoryLimit: int(body, "memoryLimit", 6, 1_048_576),
    storageLimit: int(body, "storageLimit", 0, 1_048_576),
    exposePort: int(body, "exposePort", 1, 65535),
    networkMode: str(body, "networkMode", 16) as CreateContainerRequest["networkMode"],
    proxy: body.proxy === true,
    expectStopAt: int(body, "expectStopAt", now + 1000, Number.MAX_SAFE_INTEGER),
    teamId: str(body, "teamId", 64, /^(?:\d+|admin)$/),
    userId: str(body, "userId", 64, /^[A-Za-z0-9-]+$/),
    challengeId: int(body, "challengeId", 1, Number.MAX_SAFE_INTEGER),
  };
  if (!NETWORK_MODES.has(request.networkMode)) throw badRequest("agent.invalid_body", "networkMode must be Open, Isolated or Custom");
  if (body.proxy !== undefined && typeof body.proxy !== "boolean") throw badRequest("agent.invalid_body", "proxy must be a boolean");
  if (body.gameId !== undefined && body.gameId !== null) request.gameId = int(body, "gameId", 1, Number.MAX_SAFE_INTEGER);
  if (body.flag !== undefined && body.flag !== null) {
    request.flag = str(body, "flag", 1024);
    if (/[\0\n\r]/.test(request.flag)) throw badRequest("agent.invalid_body", "flag must be one line");
  }
  if (body.extraFlagEnvNames !== undefined) {
    const names = body.extraFlagEnvNames;
    if (!Array.isArray(names) || names.length > 16 || !names.every((n) => typeof n === "string" && ENV_NAME.test(n) && !n.startsWith("FLAGSTAFF_"))) {
      throw badRequest("agent.invalid_body", "extraFlagEnvNames must be valid variable names not starting with FLAGSTAFF_");
    }
    request.extraFlagEnvNames = names as string[];
  }
  if (body.capture !== undefined && body.capture !== null) request.capture = capture(body.capture);
  return request;
}

export function parseExtendRequest(value: unknown, now: number): ExtendContainerRequest {
  const body = object(value, "body");
  return { expectStopAt: int(body, "expectStopAt", now + 1000, Number.MAX_SAFE_INTEGER) };
}

/** `registry:5000/team/web-app:1.2@sha256:…` → `web-app`, safe as a container name prefix. */
export function shortImageName(image: string): string {
  const withoutDigest = image.split("@")[0]!;
  const last = withoutDigest.split("/").pop()!;
  const name = last.split(":")[0]!.replace(/[^a-zA-Z0-9_.-]/g, "_");
  return /^[a-zA-Z0-9]/.test(name) ? name.slice(0, 48) : `c${name.slice(0, 47)}`;
}
