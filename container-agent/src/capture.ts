/**
 * Traffic capture of proxied connections (rules.md §9): one gzip-compressed pcap file per container at a
 * time, multiplexing its connections. A file opens with the first packet after none was open, starts with
 * the JSON metadata datagram, and closes after `idleMs` without packets, when the container is destroyed,
 * or at shutdown. Finished files wait in `{dir}/{challengeId}/{participationId}/` with a JSON sidecar until
 * the platform collects them (GET /captures, GET and DELETE /captures/{key}) or an uploader takes them.
 */
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { dirname, join, relative, sep } from "node:path";
import { createGzip, type Gzip } from "node:zlib";
import type { AgentCaptureFile, CaptureSpec } from "../../app/core/agent-protocol.ts";
import type { Logger } from "./log.ts";
import {
  METADATA_SOURCE_IP,
  METADATA_SOURCE_PORT,
  MAX_UDP_PAYLOAD,
  ipv6Bytes,
  pcapGlobalHeader,
  pcapRecord,
  udpFrame,
  type CaptureMetadata,
} from "./pcap.ts";

export const CAPTURE_IDLE_MS = 30_000;
export const CAPTURE_BUFFER_PACKETS = 1024;
export const CLIENT_PORT_FIRST = 10001;
export const CLIENT_PORT_LAST = 65000;
const KEY_PATTERN = /^\d+\/\d+\/[0-9a-f]{12}-[0-9a-f]{16}\.pcap$/;

/** Hands a finished capture to the platform; resolves true when the local copy may be deleted. */
export interface CaptureUploader {
  upload(capture: AgentCaptureFile, gzipPath: string): Promise<boolean>;
}

export interface CaptureOptions {
  dir: string;
  idleMs?: number;
  bufferPackets?: number;
  log: Logger;
  /** Called after a file is finished (before any upload). */
  onReady?: (capture: AgentCaptureFile) => void;
  uploader?: CaptureUploader;
  now?: () => number;
}

export interface CaptureTarget {
  instanceId: string;
  containerId: string;
  serverIp: string;
  serverPort: number;
  flag: string | null;
  spec: CaptureSpec;
}

/** A now-micros clock with sub-millisecond resolution. */
function nowMicros(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/** One open pcap.gz file. */
class CaptureFile {
  readonly key: string;
  readonly createdAt: number;
  packets = 0;
  dropped = 0;
  private readonly gzip: Gzip;
  private readonly out: WriteStream;
  private readonly queue: Uint8Array[] = [];
  private blocked = false;
  private readonly finished: Promise<void>;
  private readonly bufferPackets: number;

  readonly partPath: string;

  constructor(partPath: string, key: string, createdAt: number, bufferPackets: number) {
    this.partPath = partPath;
    this.key = key;
    this.createdAt = createdAt;
    this.bufferPackets = bufferPackets;
    this.gzip = createGzip();
    this.out = createWriteStream(partPath);
    this.finished = new Promise((resolve, reject) => {
      this.out.on("close", resolve);
      this.out.on("error", reject);
      this.gzip.on("error", reject);
    });
    this.gzip.pipe(this.out);
    this.gzip.write(pcapGlobalHeader());
  }

  /** Queues one record; false when the buffer is full and the packet was dropped. */
  push(record: Uint8Array): boolean {
    if (this.queue.length >= this.bufferPackets) {
      this.dropped += 1;
      return false;
    }
    this.queue.push(record);
    this.packets += 1;
    this.pump();
    return true;
  }

  private pump() {
    while (!this.blocked && this.queue.length > 0) {
      if (!this.gzip.write(this.queue.shift()!)) {
        this.blocked = true;
        this.gzip.once("drain", () => {
          this.blocked = false;
          this.pump();
        });
      }
    }
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      const flush = () => {
        if (this.queue.length > 0) {
          this.gzip.once("drain", flush);
          this.pump();
          return;
        }
        this.gzip.end(resolve);
      };
      flush();
    });
    await this.finished;
  }
}

interface Connection {
  id: string;
  clientIp: Uint8Array;
  clientPort: number;
}

/** The capture state of one container. */
class ContainerCapture {
  private file: CaptureFile | null = null;
  private closing: Promise<void> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | null = null;
  private nextPort = CLIENT_PORT_FIRST;
  private readonly live = new Map<string, Connection>();
  /** Connection ids that already named a file. */
  private readonly fileIds = new Set<string>();
  private readonly serverIp: Uint8Array;
  private closed = false;

  private readonly manager: CaptureManager;
  readonly target: CaptureTarget;

  constructor(manager: CaptureManager, target: CaptureTarget) {
    this.manager = manager;
    this.target = target;
    this.serverIp = ipv6Bytes(target.serverIp);
  }

  open(connectionId: string, clientAddress: string): CaptureConnection {
    const used = new Set([...this.live.values()].map((c) => c.clientPort));
    let port = this.nextPort;
    for (let i = 0; i <= CLIENT_PORT_LAST - CLIENT_PORT_FIRST && used.has(port); i++) {
      port = port >= CLIENT_PORT_LAST ? CLIENT_PORT_FIRST : port + 1;
    }
    this.nextPort = port >= CLIENT_PORT_LAST ? CLIENT_PORT_FIRST : port + 1;
    let clientIp: Uint8Array;
    try {
      clientIp = ipv6Bytes(clientAddress);
    } catch {
      clientIp = ipv6Bytes("::1");
    }
    const connection: Connection = { id: connectionId, clientIp, clientPort: port };
    this.live.set(connectionId, connection);
    return {
      clientPort: port,
      toServer: (bytes) => this.record(connection, bytes, true),
      toClient: (bytes) => this.record(connection, bytes, false),
      close: () => {
        this.live.delete(connectionId);
      },
    };
  }

  private record(connection: Connection, bytes: Uint8Array, toServer: boolean) {
    if (this.closed || bytes.length === 0) return;
    if (!this.file) this.file = this.startFile(connection);
    for (let offset = 0; offset < bytes.length; offset += MAX_UDP_PAYLOAD) {
      const payload = bytes.subarray(offset, offset + MAX_UDP_PAYLOAD);
      const frame = toServer
        ? udpFrame({ srcIp: connection.clientIp, srcPort: connection.clientPort, dstIp: this.serverIp, dstPort: this.target.serverPort, payload })
        : udpFrame({ srcIp: this.serverIp, srcPort: this.target.serverPort, dstIp: connection.clientIp, dstPort: connection.clientPort, payload });
      this.file.push(pcapRecord(frame, nowMicros()));
    }
    this.armIdle();
  }

  private startFile(first: Connection): CaptureFile {
    const { spec, containerId } = this.target;
    // A connection that outlived its file's idle close continues in a new file under a new id, so keys stay unique.
    if (this.fileIds.has(first.id)) first.id = randomBytes(8).toString("hex");
    this.fileIds.add(first.id);
    const key = `${spec.challengeId}/${spec.participationId}/${containerId.slice(0, 12)}-${first.id}.pcap`;
    const file = this.manager.newFile(key);
    const metadata: CaptureMetadata = {
      Challenge: spec.challengeTitle,
      ChallengeId: spec.challengeId,
      Team: spec.teamName,
      TeamId: spec.teamId,
      ContainerId: containerId,
      Flag: this.target.flag,
    };
    const payload = new TextEncoder().encode(JSON.stringify(metadata));
    file.push(
      pcapRecord(
        udpFrame({ srcIp: METADATA_SOURCE_IP, srcPort: METADATA_SOURCE_PORT, dstIp: first.clientIp, dstPort: first.clientPort, payload }),
        nowMicros(),
      ),
    );
    return file;
  }

  private armIdle() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      void this.closeFile();
    }, this.manager.idleMs);
    this.idleTimer.unref();
  }

  /** Finishes the open file, if any; later packets start a new one. */
  closeFile(): Promise<void> {
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    const file = this.file;
    this.file = null;
    if (file) this.closing = this.closing.then(() => this.manager.finish(file, this.target));
    return this.closing;
  }

  /** Container destroyed or agent stopping: finish the file and record nothing more. */
  async shutdown(): Promise<void> {
    this.closed = true;
    await this.closeFile();
  }
}

export interface CaptureConnection {
  clientPort: number;
  toServer(bytes: Uint8Array): void;
  toClient(bytes: Uint8Array): void;
  close(): void;
}

export class CaptureManager {
  readonly dir: string;
  readonly idleMs: number;
  private readonly bufferPackets: number;
  private readonly log: Logger;
  private readonly onReady?: (capture: AgentCaptureFile) => void;
  private readonly uploader?: CaptureUploader;
  private readonly now: () => number;
  private readonly sessions = new Map<string, ContainerCapture>();
  private readonly pending = new Set<Promise<void>>();

  constructor(options: CaptureOptions) {
    this.dir = options.dir;
    this.idleMs = options.idleMs ?? CAPTURE_IDLE_MS;
    this.bufferPackets = options.bufferPackets ?? CAPTURE_BUFFER_PACKETS;
    this.log = options.log;
    this.onReady = options.onReady;
    this.uploader = options.uploader;
    this.now = options.now ?? Date.now;
  }

  /** A capture handle for a new proxied connection of a captured container. */
  open(target: CaptureTarget, clientAddress: string): { connectionId: string; connection: CaptureConnection } {
    let session = this.sessions.get(target.instanceId);
    if (!session) {
      session = new ContainerCapture(this, target);
      this.sessions.set(target.instanceId, session);
    }
    const connectionId = randomBytes(8).toString("hex");
    return { connectionId, connection: session.open(connectionId, clientAddress) };
  }

  /** Finishes the container's file (container destroyed). */
  async release(instanceId: string): Promise<void> {
    const session = this.sessions.get(instanceId);
    if (!session) return;
    this.sessions.delete(instanceId);
    await session.shutdown();
  }

  /** Finishes every open file (agent shutdown). */
  async closeAll(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((s) => s.shutdown()));
    await Promise.all([...this.pending]);
  }

  /** Finishes open files without ending the sessions (tests, and an idle sweep). */
  async flush(instanceId: string): Promise<void> {
    await this.sessions.get(instanceId)?.closeFile();
  }

  /** @internal */
  newFile(key: string): CaptureFile {
    const path = this.pathOf(key);
    mkdirSync(dirname(path), { recursive: true });
    return new CaptureFile(`${path}.gz.part`, key, this.now(), this.bufferPackets);
  }

  /** @internal */
  finish(file: CaptureFile, target: CaptureTarget): Promise<void> {
    const task = (async () => {
      try {
        await file.close();
        const path = this.pathOf(file.key);
        await rename(file.partPath, `${path}.gz`);
        const size = (await stat(`${path}.gz`)).size;
        const capture: AgentCaptureFile = {
          key: file.key,
          instanceId: target.instanceId,
          challengeId: target.spec.challengeId,
          participationId: target.spec.participationId,
          size,
          packets: file.packets,
          dropped: file.dropped,
          createdAt: file.createdAt,
        };
        await writeFile(`${path}.json`, JSON.stringify(capture));
        this.log.info("capture.closed", { key: file.key, instanceId: target.instanceId, packets: file.packets, dropped: file.dropped, size });
        this.onReady?.(capture);
        if (this.uploader && (await this.uploader.upload(capture, `${path}.gz`))) await this.remove(file.key);
      } catch (error) {
        this.log.error("capture.failed", { key: file.key, error: String(error) });
      }
    })();
    this.pending.add(task);
    void task.finally(() => this.pending.delete(task));
    return task;
  }

  pathOf(key: string): string {
    return join(this.dir, ...key.split("/"));
  }

  static validKey(key: string): boolean {
    return KEY_PATTERN.test(key);
  }

  /** Finished files waiting for the platform. */
  async list(): Promise<AgentCaptureFile[]> {
    const out: AgentCaptureFile[] = [];
    const walk = async (folder: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(folder, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const full = join(folder, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.name.endsWith(".json")) {
          try {
            const capture = JSON.parse(await readFile(full, "utf8")) as AgentCaptureFile;
            if (relative(this.dir, full).split(sep).join("/") === `${capture.key}.json`) out.push(capture);
          } catch {
            // A sidecar being written: picked up next time.
          }
        }
      }
    };
    await walk(this.dir);
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }

  async read(key: string): Promise<Buffer | null> {
    if (!CaptureManager.validKey(key)) return null;
    try {
      await stat(`${this.pathOf(key)}.json`);
      return await readFile(`${this.pathOf(key)}.gz`);
    } catch {
      return null;
    }
  }

  /** Deletes a finished file; false when there is none. */
  async remove(key: string): Promise<boolean> {
    if (!CaptureManager.validKey(key)) return false;
    const path = this.pathOf(key);
    try {
      await stat(`${path}.json`);
    } catch {
      return false;
    }
    await rm(`${path}.json`, { force: true });
    await rm(`${path}.gz`, { force: true });
    return true;
  }

  get pendingCount(): number {
    return this.pending.size;
  }
}
