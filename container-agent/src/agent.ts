/**
 * The agent: a signed JSON API over node:http plus the WebSocket proxy on the same port.
 *
 *   GET    /health                         AgentHealth
 *   GET    /containers                     ListContainersResponse
 *   POST   /containers                     CreateContainerRequest → AgentContainer (201; 200 when it exists)
 *   GET    /containers/{instanceId}        AgentContainer
 *   DELETE /containers/{instanceId}        204
 *   POST   /containers/{instanceId}/extend ExtendContainerRequest → AgentContainer
 *   GET    /captures                       ListCapturesResponse
 *   GET    /captures/{key}                 the gzip-compressed pcap
 *   DELETE /captures/{key}                 204
 *   GET    /proxy/{instanceId}[?client=ip] WebSocket upgrade (signed in headers or query); 204 without upgrade
 *
 * Every request is signed (app/core/agent-protocol.ts); anything else is refused with 401.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { isIP } from "node:net";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import Dockerode from "dockerode";
import {
  AGENT_QUERY_CLIENT,
  NonceCache,
  splitQuerySignature,
  verifyRequest,
  type AgentHealth,
  type ListCapturesResponse,
  type ListContainersResponse,
} from "../../app/core/agent-protocol.ts";
import { CaptureManager, type CaptureUploader } from "./capture.ts";
import type { AgentConfig } from "./config.ts";
import { ContainerManager, toView, type Instance } from "./containers.ts";
import { AgentError, describe } from "./errors.ts";
import { consoleLogger, type Logger } from "./log.ts";
import { HttpEventSink, HttpKnownInstancesProvider, noEvents, type AgentEventSink, type KnownInstancesProvider } from "./platform.ts";
import { ProxyManager, rejectUpgrade } from "./proxy.ts";
import { StateStore } from "./state-store.ts";
import { isInstanceId, parseCreateRequest, parseExtendRequest } from "./validate.ts";

export const AGENT_VERSION = "0.1.0";
const MAX_BODY = 64 * 1024;

/** A path segment, decoded; a broken escape (`%`, `%E0%A4%A`) is the caller's mistake, answered 400. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new AgentError(400, "agent.invalid_path", "path segments must be percent-encoded UTF-8");
  }
}

export interface AgentOptions {
  config: AgentConfig;
  log?: Logger;
  docker?: Dockerode;
  /** Default: the platform callback when FLAGSTAFF_PLATFORM_URL is set; null = never reap as unknown. */
  knownInstances?: KnownInstancesProvider | null;
  events?: AgentEventSink;
  uploader?: CaptureUploader;
  runningChecks?: number;
  runningCheckMs?: number;
  proxyMaxConnections?: number;
  proxyMaxConnectionMs?: number;
  now?: () => number;
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), "cache-control": "no-store" });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on("data", (part: Buffer) => {
      size += part.length;
      if (size > MAX_BODY) {
        reject(new AgentError(413, "agent.body_too_large", `bodies are limited to ${MAX_BODY} bytes`));
        req.destroy();
        return;
      }
      parts.push(part);
    });
    req.on("end", () => resolve(Buffer.concat(parts)));
    req.on("error", reject);
  });
}

export class Agent {
  readonly config: AgentConfig;
  readonly log: Logger;
  readonly docker: Dockerode;
  readonly containers: ContainerManager;
  readonly captures: CaptureManager;
  readonly proxy: ProxyManager;
  private readonly nonces = new NonceCache();
  private readonly server: Server;
  private readonly now: () => number;
  private stopped = false;

  private constructor(options: AgentOptions) {
    const { config } = options;
    this.config = config;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? consoleLogger(config.logLevel);
    this.docker = options.docker ?? new Dockerode(config.docker);
    const events = options.events ?? (config.platformUrl ? new HttpEventSink(config.platformUrl, config.secret, this.log) : noEvents);
    const knownInstances =
      options.knownInstances === undefined
        ? config.platformUrl
          ? new HttpKnownInstancesProvider(config.platformUrl, config.secret, config.agentId)
          : undefined
        : (options.knownInstances ?? undefined);
    this.captures = new CaptureManager({
      dir: join(config.dataDir, "captures"),
      idleMs: config.captureIdleMs,
      log: this.log,
      uploader: options.uploader,
      now: this.now,
      onReady: (capture) => events.notify({ type: "capture.ready", agentId: config.agentId, at: this.now(), capture }),
    });
    this.proxy = new ProxyManager({
      log: this.log,
      capture: this.captures,
      maxConnections: options.proxyMaxConnections,
      maxConnectionMs: options.proxyMaxConnectionMs,
    });
    this.containers = new ContainerManager({
      docker: this.docker,
      agentId: config.agentId,
      capacity: config.capacity,
      pidsLimit: config.pidsLimit,
      publishHost: config.publishHost,
      publicHost: config.publicHost,
      customNetwork: config.customNetwork,
      registryAuth: config.registryAuth,
      state: new StateStore(join(config.dataDir, "state.json")),
      log: this.log,
      events,
      knownInstances,
      runningChecks: options.runningChecks,
      runningCheckMs: options.runningCheckMs,
      now: this.now,
      onGone: async (instanceId) => {
        this.proxy.closeAll(instanceId);
        await this.captures.release(instanceId);
      },
    });
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res).catch((error: unknown) => this.fail(res, error));
    };
    this.server = config.tls
      ? createTlsServer({ cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) }, handler)
      : createServer(handler);
    this.server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.upgrade(req, socket, head).catch((error: unknown) => {
        this.log.error("proxy.failed", { error: describe(error) });
        rejectUpgrade(socket, 500, "agent.internal", "internal error");
      });
    });
  }

  /** Connects to Docker, re-adopts containers, starts the reaper and listens. */
  static async start(options: AgentOptions): Promise<Agent> {
    const agent = new Agent(options);
    await agent.containers.init();
    await agent.containers.sweep();
    agent.containers.startReaper(options.config.reapIntervalMs);
    await new Promise<void>((resolve, reject) => {
      agent.server.once("error", reject);
      agent.server.listen(options.config.port, options.config.host, () => {
        agent.server.off("error", reject);
        resolve();
      });
    });
    agent.log.info("agent.listening", { agentId: agent.config.agentId, url: agent.url, containers: agent.containers.runningCount });
    return agent;
  }

  get url(): string {
    const address = this.server.address() as AddressInfo;
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    return `${this.config.tls ? "https" : "http"}://${host}:${address.port}`;
  }

  /** Stops serving; containers keep running and are re-adopted by the next start. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.containers.stopReaper();
    this.proxy.shutdown();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    await this.containers.settle();
    await this.captures.closeAll();
    this.log.info("agent.stopped", { agentId: this.config.agentId });
  }

  private fail(res: ServerResponse, error: unknown) {
    if (error instanceof AgentError) {
      sendJson(res, error.status, { error: error.code, message: error.message });
      return;
    }
    this.log.error("agent.internal", { error: describe(error) });
    if (!res.headersSent) sendJson(res, 500, { error: "agent.internal", message: "internal error" });
    else res.destroy();
  }

  private async authenticate(req: IncomingMessage, body: Buffer | null): Promise<void> {
    const result = await verifyRequest(
      this.config.secret,
      { method: req.method ?? "GET", target: req.url ?? "/", headers: req.headers, body },
      { nonces: this.nonces, now: this.now() },
    );
    if (!result.ok) {
      this.log.warn("agent.signature_refused", { reason: result.reason, method: req.method, path: (req.url ?? "").split("?")[0], peer: req.socket.remoteAddress });
      throw new AgentError(401, `agent.signature_${result.reason}`, `request signature ${result.reason}`);
    }
  }

  private instanceOr404(instanceId: string): Instance {
    const instance = isInstanceId(instanceId) ? this.containers.get(instanceId.toLowerCase()) : undefined;
    if (!instance) throw new AgentError(404, "agent.unknown_instance", "this agent runs no such container");
    return instance;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    const body = await readBody(req);
    await this.authenticate(req, body);
    const path = splitQuerySignature(req.url ?? "/").path.split("?")[0]!;
    const segments = path.split("/").filter(Boolean).map(decodeSegment);
    const parseJson = (): unknown => {
      try {
        return JSON.parse(body.toString("utf8"));
      } catch {
        throw new AgentError(400, "agent.invalid_body", "body must be JSON");
      }
    };

    if (segments[0] === "health" && segments.length === 1 && method === "GET") {
      sendJson(res, 200, await this.health());
      return;
    }
    if (segments[0] === "containers") {
      if (segments.length === 1 && method === "GET") {
        await this.containers.sweep();
        const response: ListContainersResponse = { containers: this.containers.all().map((i) => toView(i, this.proxy.connections(i.instanceId))) };
        sendJson(res, 200, response);
        return;
      }
      if (segments.length === 1 && method === "POST") {
        const request = parseCreateRequest(parseJson(), this.now());
        const existed = this.containers.get(request.instanceId) !== undefined;
        const instance = await this.containers.create(request);
        sendJson(res, existed ? 200 : 201, toView(instance, this.proxy.connections(instance.instanceId)));
        return;
      }
      if (segments.length === 2 && method === "GET") {
        const instance = this.instanceOr404(segments[1]!);
        sendJson(res, 200, toView(instance, this.proxy.connections(instance.instanceId)));
        return;
      }
      if (segments.length === 2 && method === "DELETE") {
        const instance = this.instanceOr404(segments[1]!);
        await this.containers.destroy(instance.instanceId, "request");
        res.writeHead(204).end();
        return;
      }
      if (segments.length === 3 && segments[2] === "extend" && method === "POST") {
        const instance = this.instanceOr404(segments[1]!);
        const { expectStopAt } = parseExtendRequest(parseJson(), this.now());
        const extended = await this.containers.extend(instance.instanceId, expectStopAt);
        sendJson(res, 200, toView(extended, this.proxy.connections(extended.instanceId)));
        return;
      }
    }
    if (segments[0] === "captures") {
      if (segments.length === 1 && method === "GET") {
        const response: ListCapturesResponse = { captures: await this.captures.list() };
        sendJson(res, 200, response);
        return;
      }
      const key = segments.slice(1).join("/");
      if (segments.length > 1 && method === "GET") {
        const data = await this.captures.read(key);
        if (!data) throw new AgentError(404, "agent.unknown_capture", "no such capture");
        res.writeHead(200, { "content-type": "application/gzip", "content-length": data.length, "cache-control": "no-store" });
        res.end(data);
        return;
      }
      if (segments.length > 1 && method === "DELETE") {
        if (!(await this.captures.remove(key))) throw new AgentError(404, "agent.unknown_capture", "no such capture");
        res.writeHead(204).end();
        return;
      }
    }
    if (segments[0] === "proxy" && segments.length === 2 && method === "GET") {
      // A valid id without an upgrade (rules.md §9).
      this.instanceOr404(segments[1]!);
      res.writeHead(204).end();
      return;
    }
    throw new AgentError(404, "agent.not_found", `no route for ${method} ${path}`);
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const target = req.url ?? "/";
    const { path } = splitQuerySignature(target);
    const [pathname, query = ""] = path.split("?");
    const segments = pathname!.split("/").filter(Boolean);
    if (segments[0] !== "proxy" || segments.length !== 2 || req.method !== "GET") {
      rejectUpgrade(socket, 404, "agent.not_found", "no such WebSocket endpoint");
      return;
    }
    try {
      await this.authenticate(req, null);
    } catch (error) {
      const e = error as AgentError;
      rejectUpgrade(socket, 401, e.code, e.message);
      return;
    }
    let instance: Instance;
    try {
      instance = this.instanceOr404(segments[1]!);
    } catch {
      rejectUpgrade(socket, 404, "agent.unknown_instance", "this agent runs no such container");
      return;
    }
    const client = new URLSearchParams(query).get(AGENT_QUERY_CLIENT);
    const clientAddress = client && isIP(client) ? client : (req.socket.remoteAddress ?? "::1");
    this.proxy.handle(instance, req, socket, head, clientAddress);
  }

  private async health(): Promise<AgentHealth> {
    const docker = await this.containers.dockerHealth();
    const running = this.containers.runningCount;
    return {
      agentId: this.config.agentId,
      version: AGENT_VERSION,
      capacity: this.containers.capacity,
      running,
      accepting: docker.reachable && running < this.containers.capacity && !this.stopped,
      docker,
      proxyConnections: this.proxy.total,
      captures: { pending: (await this.captures.list()).length },
    };
  }
}
