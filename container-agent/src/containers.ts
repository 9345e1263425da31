/**
 * The containers of one agent on one Docker engine: create with limits, destroy, extend, list, the expiry
 * reaper, and re-adoption after a restart. Everything needed to re-adopt a container is in its labels; the
 * only other state is extended expiry times (StateStore).
 */
import { randomBytes } from "node:crypto";
import type Dockerode from "dockerode";
import {
  AGENT_LABELS,
  FLAG_ENV_NAME,
  type AgentContainer,
  type AgentContainerState,
  type AgentHealth,
  type AgentNetworkMode,
  type CaptureSpec,
  type CreateContainerRequest,
} from "../../app/core/agent-protocol.ts";
import { AgentError, badRequest, describe, dockerStatus, notFound, unavailable } from "./errors.ts";
import type { Logger } from "./log.ts";
import type { AgentEventSink, KnownInstancesProvider } from "./platform.ts";
import type { StateStore } from "./state-store.ts";
import { shortImageName } from "./validate.ts";

export const NETWORK_OPEN = "flagstaff-open";
export const NETWORK_ISOLATED = "flagstaff-isolated";
/** Extra labels beyond the documented five (AGENT_LABELS): what re-adoption needs. */
const LABEL_PORT = "flagstaff.port";
const LABEL_PROXY = "flagstaff.proxy";
const LABEL_NETWORK = "flagstaff.network-mode";
const LABEL_CAPTURE = "flagstaff.capture";
const LABEL_STORAGE = "flagstaff.storage-limited";
const LABEL_STARTED = "flagstaff.started-at";

/** Storage drivers that enforce StorageOpt size (overlay2 only on xfs with pquota; checked at first use). */
const QUOTA_DRIVERS = new Set(["btrfs", "zfs", "devicemapper", "windowsfilter"]);

export type DestroyReason = "request" | "expired" | "unknown" | "failed" | "exited";

export interface Instance {
  instanceId: string;
  containerId: string;
  name: string;
  image: string;
  state: AgentContainerState;
  ip: string;
  port: number;
  publicIp: string | null;
  publicPort: number | null;
  entry: string;
  startedAt: number;
  expectStopAt: number;
  storageLimited: boolean;
  proxy: boolean;
  networkMode: AgentNetworkMode;
  teamId: string;
  userId: string;
  challengeId: number;
  gameId: number | null;
  flag: string | null;
  capture: CaptureSpec | null;
}

export interface ContainerManagerOptions {
  docker: Dockerode;
  agentId: string;
  capacity: number;
  pidsLimit: number;
  publishHost: string;
  publicHost: string;
  customNetwork: string;
  registryAuth: { serveraddress: string; username: string; password: string } | null;
  state: StateStore;
  log: Logger;
  events: AgentEventSink;
  /** Absent: containers are never reaped as unknown. */
  knownInstances?: KnownInstancesProvider;
  /** Called after a container is gone (closes its proxy connections and capture file). */
  onGone?: (instanceId: string) => Promise<void>;
  /** Checks after start that the container runs (rules.md §8: 3 checks 500 ms apart). */
  runningChecks?: number;
  runningCheckMs?: number;
  now?: () => number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function dockerState(state: string | undefined): AgentContainerState {
  const known: AgentContainerState[] = ["created", "running", "paused", "restarting", "exited", "dead", "removing"];
  return known.includes(state as AgentContainerState) ? (state as AgentContainerState) : "missing";
}

export class ContainerManager {
  private readonly docker: Dockerode;
  private readonly options: ContainerManagerOptions;
  private readonly instances = new Map<string, Instance>();
  /** Re-adopted containers not yet reported to the platform (it may have been down at adoption). */
  private readonly unconfirmed = new Set<string>();
  /** Instance ids being created, and container names being created (not orphans). */
  private readonly creating = new Set<string>();
  private readonly creatingNames = new Set<string>();
  private readonly destroying = new Map<string, Promise<boolean>>();
  private reaper: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private storageDriver: string | null = null;
  private storageQuota = false;
  private readonly now: () => number;

  constructor(options: ContainerManagerOptions) {
    this.options = options;
    this.docker = options.docker;
    this.now = options.now ?? Date.now;
  }

  get agentId() {
    return this.options.agentId;
  }

  get runningCount() {
    return this.instances.size;
  }

  get(instanceId: string): Instance | undefined {
    return this.instances.get(instanceId);
  }

  all(): Instance[] {
    return [...this.instances.values()];
  }

  /** Networks, storage driver, then re-adoption of this agent's containers. */
  async init(): Promise<void> {
    await this.options.state.load();
    const info = await this.docker.info();
    this.learnStorage(info);
    await this.ensureNetworks();
    await this.adopt();
  }

  private learnStorage(info: { Driver?: string; DriverStatus?: [string, string][] }) {
    const driver = info.Driver ?? null;
    if (driver !== this.storageDriver) {
      this.storageDriver = driver;
      const backing = (info.DriverStatus ?? []).find(([key]) => key === "Backing Filesystem")?.[1];
      this.storageQuota = driver !== null && (QUOTA_DRIVERS.has(driver) || (driver === "overlay2" && backing === "xfs"));
    }
  }

  private networkName(mode: AgentNetworkMode): string {
    if (mode === "Isolated") return NETWORK_ISOLATED;
    if (mode === "Custom") return this.options.customNetwork;
    return NETWORK_OPEN;
  }

  /** Creates the three bridge networks when missing (rules.md §8). */
  async ensureNetworks(): Promise<void> {
    const wanted: { name: string; options: Record<string, string> }[] = [
      // Inter-container traffic off: one team's container cannot reach another team's.
      { name: NETWORK_OPEN, options: { "com.docker.network.bridge.enable_icc": "false" } },
      {
        name: NETWORK_ISOLATED,
        // Masquerading off removes the outbound route; not "internal", which would break port publishing.
        options: { "com.docker.network.bridge.enable_icc": "false", "com.docker.network.bridge.enable_ip_masquerade": "false" },
      },
      { name: this.options.customNetwork, options: {} },
    ];
    const existing = new Set((await this.docker.listNetworks()).map((n) => n.Name));
    for (const network of wanted) {
      if (existing.has(network.name)) continue;
      try {
        await this.docker.createNetwork({
          Name: network.name,
          Driver: "bridge",
          CheckDuplicate: true,
          Options: network.options,
          Labels: { [AGENT_LABELS.agent]: this.options.agentId },
        });
        this.options.log.info("network.created", { name: network.name });
      } catch (error) {
        // Another agent on the same engine made it meanwhile.
        if (dockerStatus(error) !== 409) throw error;
      }
    }
  }

  // -------------------------------------------------------------------------------------------------
  // Create

  async create(request: CreateContainerRequest): Promise<Instance> {
    const existing = this.instances.get(request.instanceId);
    if (existing) return existing;
    if (this.creating.has(request.instanceId)) throw new AgentError(409, "agent.busy", "this instance is being created");
    if (this.instances.size + this.creating.size >= this.options.capacity) {
      throw unavailable("agent.full", `this agent runs its capacity of ${this.options.capacity} containers`);
    }
    this.creating.add(request.instanceId);
    try {
      await this.ensureImage(request.image);
      const instance = await this.createAndStart(request);
      this.instances.set(instance.instanceId, instance);
      this.options.events.notify({ type: "container.started", agentId: this.agentId, at: this.now(), container: toView(instance, 0) });
      this.options.log.info("container.created", {
        instanceId: instance.instanceId,
        containerId: instance.containerId,
        name: instance.name,
        entry: instance.entry,
      });
      return instance;
    } finally {
      this.creating.delete(request.instanceId);
    }
  }

  private async ensureImage(image: string): Promise<void> {
    try {
      await this.docker.getImage(image).inspect();
      return;
    } catch (error) {
      const status = dockerStatus(error);
      if (status === undefined) throw unavailable("agent.docker_unreachable", describe(error));
      if (status !== 404) throw badRequest("agent.image_unavailable", describe(error));
    }
    this.options.log.info("image.pulling", { image });
    try {
      const stream = await this.docker.pull(image, this.options.registryAuth ? { authconfig: this.options.registryAuth } : {});
      await new Promise<void>((resolve, reject) => {
        this.docker.modem.followProgress(stream, (error: Error | null, output: { error?: string }[]) => {
          const failed = error ?? output.find((line) => line.error);
          if (failed) reject(failed instanceof Error ? failed : new Error(failed.error));
          else resolve();
        });
      });
    } catch (error) {
      throw badRequest("agent.image_unavailable", `image ${image} could not be pulled: ${describe(error)}`);
    }
  }

  private createOptions(request: CreateContainerRequest, name: string, withStorage: boolean): Dockerode.ContainerCreateOptions {
    const portKey = `${request.exposePort}/tcp`;
    const env = [
      `FLAGSTAFF_TEAM_ID=${request.teamId}`,
      `FLAGSTAFF_USER_ID=${request.userId}`,
      `FLAGSTAFF_CHALLENGE_ID=${request.challengeId}`,
    ];
    if (request.gameId !== undefined) env.push(`FLAGSTAFF_GAME_ID=${request.gameId}`);
    if (request.flag !== undefined) {
      env.push(`${FLAG_ENV_NAME}=${request.flag}`);
      for (const extra of request.extraFlagEnvNames ?? []) env.push(`${extra}=${request.flag}`);
    }
    const labels: Record<string, string> = {
      [AGENT_LABELS.instance]: request.instanceId,
      [AGENT_LABELS.team]: request.teamId,
      [AGENT_LABELS.user]: request.userId,
      [AGENT_LABELS.challenge]: String(request.challengeId),
      [AGENT_LABELS.game]: request.gameId === undefined ? "" : String(request.gameId),
      [AGENT_LABELS.agent]: this.options.agentId,
      [AGENT_LABELS.expectStopAt]: String(request.expectStopAt),
      [LABEL_PORT]: String(request.exposePort),
      [LABEL_PROXY]: request.proxy ? "1" : "0",
      [LABEL_NETWORK]: request.networkMode,
      [LABEL_STORAGE]: withStorage ? "1" : "0",
      [LABEL_STARTED]: String(this.now()),
    };
    if (request.capture) labels[LABEL_CAPTURE] = JSON.stringify(request.capture);
    const memory = request.memoryLimit * 1024 * 1024;
    return {
      name,
      Image: request.image,
      Env: env,
      Labels: labels,
      ExposedPorts: { [portKey]: {} },
      HostConfig: {
        NanoCpus: request.cpuCount * 100_000_000,
        Memory: memory,
        MemorySwap: memory,
        PidsLimit: this.options.pidsLimit,
        NetworkMode: this.networkName(request.networkMode),
        PortBindings: request.proxy ? {} : { [portKey]: [{ HostIp: this.options.publishHost, HostPort: "" }] },
        RestartPolicy: { Name: "no" },
        ...(withStorage ? { StorageOpt: { size: `${request.storageLimit}M` } } : {}),
      },
    };
  }

  private async createAndStart(request: CreateContainerRequest): Promise<Instance> {
    const name = `${shortImageName(request.image)}_${randomBytes(8).toString("hex")}`;
    this.creatingNames.add(name);
    let container: Dockerode.Container | null = null;
    try {
      let withStorage = request.storageLimit > 0 && this.storageQuota;
      for (let attempt = 1; container === null; attempt++) {
        try {
          container = await this.docker.createContainer(this.createOptions(request, name, withStorage));
        } catch (error) {
          const status = dockerStatus(error);
          if (status === 409 && attempt < 3) {
            // A stale container holds the name: remove it and retry.
            await this.docker.getContainer(name).remove({ force: true, v: true }).catch(() => {});
            continue;
          }
          if (withStorage && /storage.?opt|quota|size option/i.test(describe(error))) {
            this.storageQuota = false;
            withStorage = false;
            this.options.log.warn("storage.quota_unsupported", { driver: this.storageDriver, error: describe(error) });
            continue;
          }
          if (status === 404) throw badRequest("agent.image_unavailable", describe(error));
          if (status === 400 || status === 409) throw badRequest("agent.create_failed", describe(error));
          throw unavailable("agent.docker_failed", describe(error));
        }
      }
      try {
        await container.start();
      } catch (error) {
        throw badRequest("agent.start_failed", `container did not start: ${describe(error)}`);
      }
      const inspect = await this.waitRunning(container);
      return this.fromInspect(inspect, request.flag ?? null);
    } catch (error) {
      if (container) await container.remove({ force: true, v: true }).catch(() => {});
      this.options.log.warn("container.create_failed", { instanceId: request.instanceId, image: request.image, error: describe(error) });
      throw error instanceof AgentError ? error : unavailable("agent.docker_failed", describe(error));
    } finally {
      this.creatingNames.delete(name);
    }
  }

  private async waitRunning(container: Dockerode.Container): Promise<Dockerode.ContainerInspectInfo> {
    const checks = this.options.runningChecks ?? 3;
    const interval = this.options.runningCheckMs ?? 500;
    let last: Dockerode.ContainerInspectInfo | null = null;
    for (let check = 0; check < checks; check++) {
      await sleep(interval);
      last = await container.inspect();
      if (last.State.Running && !last.State.Restarting) return last;
      if (["exited", "dead"].includes(last.State.Status)) break;
    }
    const state = last?.State;
    throw badRequest(
      "agent.not_running",
      `container is not running (${state?.Status ?? "unknown"}${state?.ExitCode ? `, exit code ${state.ExitCode}` : ""}${state?.Error ? `: ${state.Error}` : ""})`,
    );
  }

  /** An Instance from `docker inspect` and the container's labels. */
  private fromInspect(inspect: Dockerode.ContainerInspectInfo, flag: string | null): Instance {
    const labels = inspect.Config.Labels ?? {};
    const instanceId = labels[AGENT_LABELS.instance]!;
    const port = Number(labels[LABEL_PORT]);
    const proxy = labels[LABEL_PROXY] === "1";
    const networkMode = (labels[LABEL_NETWORK] ?? "Open") as AgentNetworkMode;
    const networks = inspect.NetworkSettings.Networks ?? {};
    const ip = networks[this.networkName(networkMode)]?.IPAddress || Object.values(networks).find((n) => n.IPAddress)?.IPAddress || "";
    let publicPort: number | null = null;
    if (!proxy) {
      const bindings = (inspect.NetworkSettings.Ports ?? {})[`${port}/tcp`] ?? [];
      const binding = bindings.find((b) => b.HostIp === this.options.publishHost) ?? bindings[0];
      publicPort = binding ? Number(binding.HostPort) : null;
      if (!publicPort) throw badRequest("agent.no_port", `port ${port}/tcp was not published`);
    }
    const stored = this.options.state.expectStopAt(instanceId);
    const labelled = Number(labels[AGENT_LABELS.expectStopAt]);
    let capture: CaptureSpec | null = null;
    if (labels[LABEL_CAPTURE]) {
      try {
        capture = JSON.parse(labels[LABEL_CAPTURE]) as CaptureSpec;
      } catch {
        capture = null;
      }
    }
    return {
      instanceId,
      containerId: inspect.Id,
      name: inspect.Name.replace(/^\//, ""),
      image: inspect.Config.Image,
      state: dockerState(inspect.State.Status),
      ip,
      port,
      publicIp: proxy ? null : this.options.publicHost,
      publicPort,
      entry: proxy ? instanceId : `${this.options.publicHost}:${publicPort}`,
      startedAt: Number(labels[LABEL_STARTED]) || Date.parse(inspect.Created),
      expectStopAt: Math.max(stored ?? 0, Number.isFinite(labelled) ? labelled : 0),
      storageLimited: labels[LABEL_STORAGE] === "1",
      proxy,
      networkMode,
      teamId: labels[AGENT_LABELS.team] ?? "",
      userId: labels[AGENT_LABELS.user] ?? "",
      challengeId: Number(labels[AGENT_LABELS.challenge]),
      gameId: labels[AGENT_LABELS.game] ? Number(labels[AGENT_LABELS.game]) : null,
      flag,
      capture,
    };
  }

  // -------------------------------------------------------------------------------------------------
  // Destroy, extend

  /** Removes the container; false when this agent does not run it. Idempotent while in progress. */
  destroy(instanceId: string, reason: DestroyReason): Promise<boolean> {
    const pending = this.destroying.get(instanceId);
    if (pending) return pending;
    const instance = this.instances.get(instanceId);
    if (!instance) return Promise.resolve(false);
    const task = (async () => {
      try {
        await this.docker.getContainer(instance.containerId).remove({ force: true, v: true });
      } catch (error) {
        if (dockerStatus(error) !== 404) {
          this.options.log.error("container.destroy_failed", { instanceId, error: describe(error) });
          throw unavailable("agent.docker_failed", describe(error));
        }
      }
      this.instances.delete(instanceId);
      await this.options.state.delete(instanceId);
      await this.options.onGone?.(instanceId);
      this.options.log.info("container.destroyed", { instanceId, containerId: instance.containerId, reason });
      this.options.events.notify({ type: "container.destroyed", agentId: this.agentId, at: this.now(), instanceId, reason });
      return true;
    })();
    this.destroying.set(instanceId, task);
    void task.then(
      () => this.destroying.delete(instanceId),
      () => this.destroying.delete(instanceId),
    );
    return task;
  }

  async extend(instanceId: string, expectStopAt: number): Promise<Instance> {
    const instance = this.instances.get(instanceId);
    if (!instance || this.destroying.has(instanceId)) throw notFound("agent.unknown_instance", "this agent runs no such container");
    instance.expectStopAt = expectStopAt;
    await this.options.state.set(instanceId, expectStopAt);
    return instance;
  }

  // -------------------------------------------------------------------------------------------------
  // Reaper, adoption

  private async ownContainers(): Promise<Dockerode.ContainerInfo[]> {
    return this.docker.listContainers({ all: true, filters: { label: [`${AGENT_LABELS.agent}=${this.options.agentId}`] } });
  }

  /** Re-adopts this agent's containers after a (re)start and reaps those the platform no longer knows. */
  async adopt(): Promise<void> {
    const listed = await this.ownContainers();
    const adopted: string[] = [];
    for (const summary of listed) {
      const instanceId = summary.Labels[AGENT_LABELS.instance];
      if (!instanceId || this.instances.has(instanceId)) continue;
      try {
        const inspect = await this.docker.getContainer(summary.Id).inspect();
        if (!inspect.State.Running) {
          await this.docker.getContainer(summary.Id).remove({ force: true, v: true }).catch(() => {});
          this.options.log.info("container.reaped", { instanceId, reason: "exited" });
          this.options.events.notify({ type: "container.destroyed", agentId: this.agentId, at: this.now(), instanceId, reason: "exited" });
          continue;
        }
        const flagLine = (inspect.Config.Env ?? []).find((line) => line.startsWith(`${FLAG_ENV_NAME}=`));
        this.instances.set(instanceId, this.fromInspect(inspect, flagLine ? flagLine.slice(FLAG_ENV_NAME.length + 1) : null));
        adopted.push(instanceId);
        this.options.log.info("container.adopted", { instanceId, containerId: summary.Id });
      } catch (error) {
        this.options.log.warn("container.adopt_failed", { instanceId, error: describe(error) });
      }
    }
    for (const instanceId of adopted) this.unconfirmed.add(instanceId);
    await this.options.state.retain(new Set(this.instances.keys()));
    await this.reapUnknown();
  }

  /** Asks the platform which instances it still knows; unreachable platform → keep everything. */
  async reapUnknown(opts: { quiet?: boolean } = {}): Promise<string[]> {
    const provider = this.options.knownInstances;
    if (!provider || this.instances.size === 0) {
      this.unconfirmed.clear();
      return [];
    }
    const ids = [...this.instances.keys()];
    let known: Set<string>;
    try {
      known = await provider.known(ids);
    } catch (error) {
      if (!opts.quiet) this.options.log.warn("platform.unreachable", { error: describe(error), kept: ids.length });
      return [];
    }
    const unknown = ids.filter((id) => !known.has(id));
    await Promise.all(unknown.map((id) => this.destroy(id, "unknown").catch(() => false)));
    // Once the platform answers, report the re-adopted containers it keeps again: one whose creating
    // request died with the platform (both killed) is still Pending there and becomes Running.
    for (const instanceId of this.unconfirmed) {
      const instance = this.instances.get(instanceId);
      if (instance && known.has(instanceId)) {
        this.options.events.notify({ type: "container.started", agentId: this.agentId, at: this.now(), container: toView(instance, 0) });
      }
    }
    this.unconfirmed.clear();
    return unknown;
  }

  /** One reaper pass: expired containers, containers that stopped, orphans of failed creations. */
  sweep(): Promise<void> {
    if (this.sweeping) return this.sweeping;
    this.sweeping = (async () => {
      try {
        const now = this.now();
        const expired = [...this.instances.values()].filter((i) => i.expectStopAt <= now).map((i) => i.instanceId);
        await Promise.all(expired.map((id) => this.destroy(id, "expired").catch(() => false)));
        const listed = await this.ownContainers();
        const seen = new Set<string>();
        for (const summary of listed) {
          const instanceId = summary.Labels[AGENT_LABELS.instance] ?? "";
          const name = (summary.Names[0] ?? "").replace(/^\//, "");
          const instance = this.instances.get(instanceId);
          if (instance && instance.containerId === summary.Id) {
            seen.add(instanceId);
            instance.state = dockerState(summary.State);
            if (instance.state === "exited" || instance.state === "dead") await this.destroy(instanceId, "exited").catch(() => false);
          } else if (!this.creatingNames.has(name) && !this.creating.has(instanceId) && !this.destroying.has(instanceId)) {
            // Labelled with this agent but not tracked: left behind by an interrupted creation.
            await this.docker.getContainer(summary.Id).remove({ force: true, v: true }).catch(() => {});
            this.options.log.warn("container.orphan_removed", { containerId: summary.Id, name });
          }
        }
        for (const instance of this.instances.values()) {
          if (!seen.has(instance.instanceId) && !this.destroying.has(instance.instanceId) && !listed.some((c) => c.Id === instance.containerId)) {
            // Removed behind the agent's back.
            instance.state = "missing";
            await this.destroy(instance.instanceId, "exited").catch(() => false);
          }
        }
        // Re-adopted containers the platform could not be asked about yet (it was down when this agent
        // started, e.g. both restarted together): ask again until it answers.
        // (Quietly: the first failure was logged at adoption.)
        if (this.unconfirmed.size > 0) await this.reapUnknown({ quiet: true });
      } catch (error) {
        this.options.log.error("reaper.failed", { error: describe(error) });
      }
    })().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  /**
   * One timed pass: the sweep, then the platform's word on every container (it drops, for example, the
   * containers of a game that ended without practice mode). Not part of `sweep`, which a listing also runs:
   * the platform lists containers through the agent, and must not wait on a call back to itself.
   */
  async reap(): Promise<void> {
    await this.sweep();
    await this.reapUnknown({ quiet: true });
  }

  startReaper(intervalMs: number): void {
    this.stopReaper();
    this.reaper = setInterval(() => void this.reap(), intervalMs);
    this.reaper.unref();
  }

  stopReaper(): void {
    if (this.reaper) clearInterval(this.reaper);
    this.reaper = null;
  }

  /** Waits for a running sweep and pending destructions (shutdown). */
  async settle(): Promise<void> {
    await this.sweeping;
    await Promise.allSettled([...this.destroying.values()]);
  }

  // -------------------------------------------------------------------------------------------------
  // Health

  async dockerHealth(): Promise<AgentHealth["docker"]> {
    try {
      const info = (await this.docker.info()) as { ServerVersion?: string; Driver?: string; DriverStatus?: [string, string][]; NCPU?: number; MemTotal?: number };
      this.learnStorage(info);
      return {
        reachable: true,
        serverVersion: info.ServerVersion ?? null,
        storageDriver: info.Driver ?? null,
        storageQuota: this.storageQuota,
        cpus: info.NCPU ?? null,
        memoryBytes: info.MemTotal ?? null,
        error: null,
      };
    } catch (error) {
      return { reachable: false, serverVersion: null, storageDriver: this.storageDriver, storageQuota: this.storageQuota, cpus: null, memoryBytes: null, error: describe(error) };
    }
  }

  get capacity() {
    return this.options.capacity;
  }
}

export function toView(instance: Instance, connections: number): AgentContainer {
  return {
    instanceId: instance.instanceId,
    containerId: instance.containerId,
    name: instance.name,
    image: instance.image,
    state: instance.state,
    ip: instance.ip,
    port: instance.port,
    publicIp: instance.publicIp,
    publicPort: instance.publicPort,
    entry: instance.entry,
    startedAt: instance.startedAt,
    expectStopAt: instance.expectStopAt,
    storageLimited: instance.storageLimited,
    capture: instance.capture !== null,
    connections,
    teamId: instance.teamId,
    userId: instance.userId,
    challengeId: instance.challengeId,
    gameId: instance.gameId,
  };
}
