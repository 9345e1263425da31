/**
 * WebSocket ⇄ TCP relay to a container's service (rules.md §9): binary frames of at most 4 KiB each way,
 * at most 32 connections per container, each cut after 30 minutes, bytes logged at close, and traffic
 * recorded into the container's capture when it has one.
 */
import { connect, type Socket } from "node:net";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { PROXY_CHUNK_BYTES, PROXY_MAX_CONNECTIONS, PROXY_MAX_CONNECTION_MS } from "../../app/core/agent-protocol.ts";
import type { CaptureConnection, CaptureManager } from "./capture.ts";
import type { Instance } from "./containers.ts";
import type { Logger } from "./log.ts";

export interface ProxyOptions {
  log: Logger;
  capture: CaptureManager;
  maxConnections?: number;
  maxConnectionMs?: number;
  chunkBytes?: number;
  connectTimeoutMs?: number;
}

/** Pause reading from the container while this much is queued towards the WebSocket. */
const HIGH_WATER = 1024 * 1024;
const LOW_WATER = 256 * 1024;

interface Live {
  ws: WebSocket;
  tcp: Socket;
}

function* chunks(data: Buffer, size: number): Generator<Buffer> {
  for (let offset = 0; offset < data.length; offset += size) yield data.subarray(offset, offset + size);
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

export function rejectUpgrade(socket: Duplex, status: number, reason: string, message: string) {
  const body = JSON.stringify({ error: reason, message });
  socket.end(
    `HTTP/1.1 ${status} ${reason === "proxy.connect_failed" ? "I'm a Teapot" : "Refused"}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export class ProxyManager {
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 16 * 1024 * 1024 });
  private readonly live = new Map<string, Set<Live>>();
  private readonly reserved = new Map<string, number>();
  private readonly options: Required<Omit<ProxyOptions, "log" | "capture">> & Pick<ProxyOptions, "log" | "capture">;

  constructor(options: ProxyOptions) {
    this.options = {
      log: options.log,
      capture: options.capture,
      maxConnections: options.maxConnections ?? PROXY_MAX_CONNECTIONS,
      maxConnectionMs: options.maxConnectionMs ?? PROXY_MAX_CONNECTION_MS,
      chunkBytes: options.chunkBytes ?? PROXY_CHUNK_BYTES,
      connectTimeoutMs: options.connectTimeoutMs ?? 5000,
    };
  }

  /** The limits in force (rules.md §9 unless overridden). */
  get limits() {
    return { maxConnections: this.options.maxConnections, maxConnectionMs: this.options.maxConnectionMs, chunkBytes: this.options.chunkBytes };
  }

  connections(instanceId: string): number {
    return (this.live.get(instanceId)?.size ?? 0) + (this.reserved.get(instanceId) ?? 0);
  }

  get total(): number {
    let sum = 0;
    for (const set of this.live.values()) sum += set.size;
    return sum;
  }

  /** Opens the TCP side, then completes the WebSocket upgrade; refuses with 400 or 418 otherwise. */
  handle(instance: Instance, request: IncomingMessage, socket: Duplex, head: Buffer, clientAddress: string): void {
    const { instanceId } = instance;
    if (this.connections(instanceId) >= this.options.maxConnections) {
      rejectUpgrade(socket, 400, "proxy.too_many_connections", `at most ${this.options.maxConnections} connections per container`);
      return;
    }
    this.reserved.set(instanceId, (this.reserved.get(instanceId) ?? 0) + 1);
    const unreserve = () => {
      const left = (this.reserved.get(instanceId) ?? 1) - 1;
      if (left <= 0) this.reserved.delete(instanceId);
      else this.reserved.set(instanceId, left);
    };
    const tcp = connect({ host: instance.ip, port: instance.port });
    tcp.setNoDelay(true);
    const timer = setTimeout(() => tcp.destroy(new Error("connect timed out")), this.options.connectTimeoutMs);
    const failed = (error: Error) => {
      clearTimeout(timer);
      unreserve();
      rejectUpgrade(socket, 418, "proxy.connect_failed", `cannot connect to the container: ${error.message}`);
    };
    tcp.once("error", failed);
    socket.once("error", () => tcp.destroy());
    tcp.once("connect", () => {
      clearTimeout(timer);
      tcp.off("error", failed);
      if (socket.destroyed) {
        unreserve();
        tcp.destroy();
        return;
      }
      this.wss.handleUpgrade(request, socket, head, (ws) => {
        unreserve();
        this.relay(instance, ws, tcp, clientAddress);
      });
    });
  }

  private relay(instance: Instance, ws: WebSocket, tcp: Socket, clientAddress: string) {
    const { instanceId } = instance;
    const entry: Live = { ws, tcp };
    let set = this.live.get(instanceId);
    if (!set) {
      set = new Set();
      this.live.set(instanceId, set);
    }
    set.add(entry);
    let capture: CaptureConnection | null = null;
    let connectionId = "";
    if (instance.capture) {
      const opened = this.options.capture.open(
        { instanceId, containerId: instance.containerId, serverIp: instance.ip, serverPort: instance.port, flag: instance.flag, spec: instance.capture },
        clientAddress,
      );
      capture = opened.connection;
      connectionId = opened.connectionId;
    }
    const startedAt = Date.now();
    let sent = 0; // to the container
    let received = 0; // from the container
    let queued = 0;
    let closed = false;
    const chunkBytes = this.options.chunkBytes;

    const close = (why: string) => {
      if (closed) return;
      closed = true;
      clearTimeout(cap);
      set.delete(entry);
      if (set.size === 0) this.live.delete(instanceId);
      capture?.close();
      if (why === "client closed") {
        // Let bytes already written reach the container, then let go.
        tcp.end();
        setTimeout(() => tcp.destroy(), 5000).unref();
      } else {
        tcp.destroy();
      }
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) {
        ws.close(why === "time limit" ? 1008 : 1000, why);
        // A peer that never answers the close frame is cut off.
        setTimeout(() => ws.terminate(), 5000).unref();
      }
      this.options.log.info("proxy.closed", {
        instanceId,
        connectionId: connectionId || undefined,
        client: clientAddress,
        sent,
        received,
        durationMs: Date.now() - startedAt,
        reason: why,
      });
    };
    const cap = setTimeout(() => close("time limit"), this.options.maxConnectionMs);
    cap.unref();

    ws.on("message", (data) => {
      const buffer = toBuffer(data);
      let writable = true;
      for (const chunk of chunks(buffer, chunkBytes)) {
        sent += chunk.length;
        capture?.toServer(chunk);
        writable = tcp.write(chunk);
      }
      if (!writable) {
        ws.pause();
        tcp.once("drain", () => ws.resume());
      }
    });
    tcp.on("data", (data: Buffer) => {
      for (const chunk of chunks(data, chunkBytes)) {
        received += chunk.length;
        capture?.toClient(chunk);
        queued += chunk.length;
        ws.send(chunk, { binary: true }, () => {
          queued -= chunk.length;
          if (queued <= LOW_WATER && tcp.isPaused()) tcp.resume();
        });
      }
      if (queued > HIGH_WATER) tcp.pause();
    });
    ws.on("close", () => close("client closed"));
    ws.on("error", () => close("client error"));
    tcp.on("end", () => close("container closed"));
    tcp.on("close", () => close("container closed"));
    tcp.on("error", () => close("container error"));
  }

  /** Closes every connection to the container (destroyed). */
  closeAll(instanceId: string): void {
    for (const { ws, tcp } of this.live.get(instanceId) ?? []) {
      tcp.destroy();
      ws.terminate();
    }
  }

  shutdown(): void {
    for (const id of [...this.live.keys()]) this.closeAll(id);
    this.wss.close();
  }
}
