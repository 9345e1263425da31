import { DurableObject } from "cloudflare:workers";
import { type Channel, HUB_HEADERS, type PayloadOf, type ServerMessageType, safeCloseCode } from "~/core/protocol";

/** What a hibernating socket remembers about its owner (kept with serializeAttachment). */
export interface SocketIdentity {
  userId: string | null;
  channel: Channel;
  teamId: number | null;
}

const SEQ_KEY = "seq";

/**
 * Base of the hub Durable Objects: accepts hibernating WebSockets authenticated by the Worker, answers
 * pings, and publishes numbered messages to a channel (or one team). `seq` survives hibernation.
 */
export abstract class SocketHub extends DurableObject<Env> {
  private seq: number | null = null;

  protected abstract allowedChannels: readonly Channel[];

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    const channel = request.headers.get(HUB_HEADERS.channel) as Channel | null;
    if (!channel || !this.allowedChannels.includes(channel)) return new Response("Unknown channel", { status: 400 });
    const teamHeader = request.headers.get(HUB_HEADERS.teamId);
    const identity: SocketIdentity = {
      userId: request.headers.get(HUB_HEADERS.userId),
      channel,
      teamId: teamHeader ? Number(teamHeader) : null,
    };
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    const tags = [`c:${channel}`];
    if (identity.teamId !== null) tags.push(`t:${identity.teamId}`);
    this.ctx.acceptWebSocket(server, tags);
    server.serializeAttachment(identity);
    server.send(JSON.stringify({ type: "hello", seq: await this.currentSeq(), data: { channel } }));
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (message === "ping") ws.send(JSON.stringify({ type: "pong", seq: await this.currentSeq(), data: null }));
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(safeCloseCode(code), reason);
    } catch {
      // Already closed by the peer.
    }
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    try {
      ws.close(1011, "error");
    } catch {
      // Already closed.
    }
  }

  private async currentSeq(): Promise<number> {
    this.seq ??= (await this.ctx.storage.get<number>(SEQ_KEY)) ?? 0;
    return this.seq;
  }

  /** Sends one message to every socket of a channel (or of one team on it). Returns how many got it. */
  async publish<T extends ServerMessageType>(channel: Channel, type: T, data: PayloadOf<T>, teamId?: number): Promise<number> {
    const seq = (await this.currentSeq()) + 1;
    this.seq = seq;
    await this.ctx.storage.put(SEQ_KEY, seq);
    const frame = JSON.stringify({ type, seq, data });
    let sent = 0;
    const sockets = teamId === undefined ? this.ctx.getWebSockets(`c:${channel}`) : this.ctx.getWebSockets(`t:${teamId}`);
    for (const ws of sockets) {
      const identity = ws.deserializeAttachment() as SocketIdentity | null;
      if (identity?.channel !== channel) continue;
      try {
        ws.send(frame);
        sent++;
      } catch {
        // A socket closing concurrently; it is dropped by the runtime.
      }
    }
    return sent;
  }

  /** Number of open sockets per channel (for monitoring and tests). */
  async connectionCount(channel: Channel): Promise<number> {
    return this.ctx.getWebSockets(`c:${channel}`).length;
  }
}
