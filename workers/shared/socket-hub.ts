import { DurableObject } from "cloudflare:workers";
import { type Channel, CLOSE_ACCESS_ENDED, HUB_HEADERS, type PayloadOf, relayCloseAll, relayCloseSession, relayCloseUser, relayFrame, relayFrames, type ServerMessageType, safeCloseCode } from "~/core/protocol";

/** What a hibernating socket remembers about its owner (kept with serializeAttachment). */
export interface SocketIdentity {
  userId: string | null;
  /** The hash of the session that opened it (null for a visitor): signing out closes it. Absent on older sockets. */
  session?: string | null;
  channel: Channel;
  /**
   * The team whose messages (verdicts) it gets. Its runtime tag is fixed when it opens; the room may drop
   * the team later (the team's participation is no longer Accepted), never set another.
   */
  teamId: number | null;
  /** May read the game's scoreboard (hidden games: monitors and admins); absent on older sockets. */
  boardReader?: boolean;
  /** Opened by a monitor or an admin (who see hidden games by their role); absent on older sockets. */
  staff?: boolean;
  /** The `npm start` socket relay's feed of the channel: gets every message of it, routed (core/protocol relayFrame). */
  relay?: boolean;
}

const SEQ_KEY = "seq";
/** When each channel's last message for all was sent, stored with its number (the `hello` says it). */
const LAST_AT_KEY = "lastAt";
/** Sequence numbers reach storage at most this often (one write for every channel that moved). */
const SEQ_WRITE_MS = 250;
/**
 * Added to a stored number when an instance first reads it: numbers published in the last SEQ_WRITE_MS
 * before a crash or a reset may not be stored, and a client holding one of them must see a gap (and
 * refetch), never an old number again.
 */
const SEQ_RESTART_GAP = 100_000;

/** The runtime tags of a socket: its channel, and its team when it has one; a relay feed only its own. */
function tagsOf(identity: SocketIdentity): string[] {
  if (identity.relay) return [`r:${identity.channel}`];
  return identity.teamId === null ? [`c:${identity.channel}`] : [`c:${identity.channel}`, `t:${identity.teamId}`];
}

/** One message to publish: to every socket of a channel, or to one team's sockets on it. */
export interface OutgoingMessage {
  channel: Channel;
  type: ServerMessageType;
  data: unknown;
  teamId?: number | undefined;
  /**
   * Only for sockets that may read the game's board (a hidden game's deltas). Such a message reaches only
   * part of the channel, so like a team message it carries the current number without advancing it: the
   * others must not see a gap (its readers check their own continuity: a board delta's version).
   */
  boardReadersOnly?: boolean | undefined;
}

/**
 * Base of the hub Durable Objects: accepts hibernating WebSockets authenticated by the Worker, answers
 * pings, and publishes numbered messages to a channel (or one team). Each channel has its own `seq`
 * (it survives hibernation); a channel-wide message advances it, a message to one team carries the
 * current value without advancing it, so a client sees a gap only when it missed a message meant for all.
 */
export abstract class SocketHub extends DurableObject<Env> {
  private seqs = new Map<Channel, number>();
  private lastAts = new Map<Channel, number>();
  private unsavedSeqs = new Set<Channel>();
  private seqWriteTimer: ReturnType<typeof setTimeout> | null = null;
  /** Identities read back from the sockets' attachments, so a push to 1,000 sockets deserializes nothing. */
  private identities = new WeakMap<WebSocket, SocketIdentity | null>();
  /** Open sockets per tag, filled from the runtime's list on first use in this instance, then kept here. */
  private sockets = new Map<string, Set<WebSocket>>();

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
      session: request.headers.get(HUB_HEADERS.session),
      channel,
      teamId: teamHeader ? Number(teamHeader) : null,
      boardReader: request.headers.get(HUB_HEADERS.boardReader) === "1",
      staff: request.headers.get(HUB_HEADERS.staff) === "1",
      relay: request.headers.get(HUB_HEADERS.relay) === "1",
    };
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    const tags = tagsOf(identity);
    this.ctx.acceptWebSocket(server, tags);
    server.serializeAttachment(identity);
    this.identities.set(server, identity);
    for (const tag of tags) this.sockets.get(tag)?.add(server);
    // A relay feed's hello gives the channel's number; the relay greets each of its sockets with it.
    const seq = await this.currentSeq(channel);
    server.send(JSON.stringify({ type: "hello", seq, data: { channel, lastAt: this.lastAts.get(channel) ?? 0 } }));
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (message !== "ping") return;
    const identity = this.identityOf(ws);
    ws.send(JSON.stringify({ type: "pong", seq: identity ? await this.currentSeq(identity.channel) : 0, data: null }));
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.forget(ws);
    try {
      ws.close(safeCloseCode(code), reason);
    } catch {
      // Already closed by the peer.
    }
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    this.forget(ws);
    try {
      ws.close(1011, "error");
    } catch {
      // Already closed.
    }
  }

  private socketsOf(tag: string): Set<WebSocket> {
    let set = this.sockets.get(tag);
    if (!set) {
      set = new Set(this.ctx.getWebSockets(tag));
      this.sockets.set(tag, set);
    }
    return set;
  }

  private forget(ws: WebSocket): void {
    const identity = this.identityOf(ws);
    if (!identity) return;
    for (const tag of tagsOf(identity)) this.sockets.get(tag)?.delete(ws);
  }

  private identityOf(ws: WebSocket): SocketIdentity | null {
    let identity = this.identities.get(ws);
    if (identity === undefined) {
      identity = ws.deserializeAttachment() as SocketIdentity | null;
      this.identities.set(ws, identity);
    }
    return identity;
  }

  private async currentSeq(channel: Channel): Promise<number> {
    let seq = this.seqs.get(channel);
    if (seq === undefined) {
      const stored = await this.ctx.storage.get<number>([`${SEQ_KEY}:${channel}`, `${LAST_AT_KEY}:${channel}`]);
      const storedSeq = stored.get(`${SEQ_KEY}:${channel}`);
      // Another caller may have read it meanwhile.
      seq = this.seqs.get(channel) ?? (storedSeq === undefined ? 0 : storedSeq + SEQ_RESTART_GAP);
      this.seqs.set(channel, seq);
      // Exact after hibernation (a hibernating object has stored both); a crash may lose the last
      // SEQ_WRITE_MS of it, as of the numbers — but then every open page reconnects and refetches anyway.
      if (!this.lastAts.has(channel)) this.lastAts.set(channel, stored.get(`${LAST_AT_KEY}:${channel}`) ?? 0);
    }
    return seq;
  }

  /**
   * Stores the channels' numbers within SEQ_WRITE_MS, one write for all. Not held by the output gate:
   * holding every reply of the object until a number is on disk delayed each flag verdict by a storage
   * round trip (BENCHMARKS.md); the restart gap covers numbers lost in a crash. A pending timer keeps the
   * object from hibernating, so a hibernating object has stored its numbers.
   */
  private saveSeqs(channels: Iterable<Channel>): void {
    for (const channel of channels) this.unsavedSeqs.add(channel);
    this.seqWriteTimer ??= setTimeout(() => {
      this.seqWriteTimer = null;
      const entries: Record<string, number> = {};
      for (const channel of this.unsavedSeqs) {
        entries[`${SEQ_KEY}:${channel}`] = this.seqs.get(channel)!;
        entries[`${LAST_AT_KEY}:${channel}`] = this.lastAts.get(channel) ?? 0;
      }
      this.unsavedSeqs.clear();
      this.ctx.storage.put(entries, { allowUnconfirmed: true }).catch((err: unknown) => console.error("socket hub: sequence numbers not stored", err));
    }, SEQ_WRITE_MS);
  }

  /** Sends one message to every socket of a channel (or of one team on it). Returns how many got it. */
  async publish<T extends ServerMessageType>(channel: Channel, type: T, data: PayloadOf<T>, teamId?: number): Promise<number> {
    return this.publishMany([{ channel, type, data, teamId }]);
  }

  /**
   * Sends several messages in order with one storage write for the sequence numbers, and one send per
   * relay feed. Returns how many frames were sent in all.
   */
  protected async publishMany(messages: OutgoingMessage[]): Promise<number> {
    if (messages.length === 0) return 0;
    const touched = new Set<Channel>();
    const relayed = new Map<WebSocket, string[]>();
    let sent = 0;
    for (const m of messages) {
      let seq = this.seqs.get(m.channel) ?? (await this.currentSeq(m.channel));
      if (m.teamId === undefined) {
        // A hidden game's board delta reaches only its readers and takes no number, but a reader whose
        // board was read before it needs to know: it counts for the greeting's `lastAt`.
        this.lastAts.set(m.channel, Date.now());
        touched.add(m.channel);
        if (!m.boardReadersOnly) {
          seq += 1;
          this.seqs.set(m.channel, seq);
        }
      }
      const sockets = this.socketsOf(m.teamId === undefined ? `c:${m.channel}` : `t:${m.teamId}`);
      const relays = this.socketsOf(`r:${m.channel}`);
      if (sockets.size === 0 && relays.size === 0) continue;
      const frame = JSON.stringify({ type: m.type, seq, data: m.data });
      for (const ws of sockets) {
        const identity = this.identityOf(ws);
        if (identity?.channel !== m.channel) continue;
        if (m.teamId !== undefined && identity.teamId !== m.teamId) {
          // Its team was dropped (reviseSockets) after this set was read from the runtime's tags.
          sockets.delete(ws);
          continue;
        }
        if (m.boardReadersOnly && !identity.boardReader) continue;
        if (this.sendTo(ws, frame)) sent++;
      }
      if (relays.size > 0) {
        const routed = relayFrame({ seq, teamId: m.teamId ?? null, boardReadersOnly: m.boardReadersOnly === true }, frame);
        for (const ws of relays) {
          const list = relayed.get(ws);
          if (list) list.push(routed);
          else relayed.set(ws, [routed]);
        }
      }
    }
    for (const [ws, list] of relayed) if (this.sendTo(ws, relayFrames(list))) sent += list.length;
    if (touched.size > 0) this.saveSeqs(touched);
    return sent;
  }

  private sendTo(ws: WebSocket, frame: string): boolean {
    try {
      ws.send(frame);
      return true;
    } catch {
      // Closed meanwhile: its close event may not have come yet.
      this.forget(ws);
      return false;
    }
  }

  /**
   * Closes users' sockets on the given channels (their role changed, they were banned or deleted, their
   * sessions revoked): a socket is authorised when it opens. Close code 4403: the page does not reconnect
   * (core/protocol FINAL_CLOSE_CODES); a reload is refused or let in by the Worker's check of the new role.
   * Returns how many were closed.
   */
  async disconnectUser(userIds: string | readonly string[], channels: readonly Channel[]): Promise<number> {
    const users = new Set(typeof userIds === "string" ? [userIds] : userIds);
    const mine = channels.filter((channel) => this.allowedChannels.includes(channel));
    const owned = mine.flatMap((channel) => this.ctx.getWebSockets(`c:${channel}`)).filter((ws) => users.has(this.identityOf(ws)?.userId ?? ""));
    // The `npm start` relay holds its sockets itself: it closes the user's on this order.
    for (const channel of mine) for (const feed of this.socketsOf(`r:${channel}`)) for (const userId of users) this.sendTo(feed, relayCloseUser(userId, CLOSE_ACCESS_ENDED));
    return this.closeSockets(owned, CLOSE_ACCESS_ENDED, "access changed");
  }

  /** Closes every socket one session opened, on every channel (signed out). Close code 4403. Returns how many were closed. */
  async disconnectSession(session: string): Promise<number> {
    const owned = this.ctx.getWebSockets().filter((ws) => {
      const identity = this.identityOf(ws);
      return identity !== null && !identity.relay && identity.session === session;
    });
    for (const channel of this.allowedChannels) for (const feed of this.socketsOf(`r:${channel}`)) this.sendTo(feed, relayCloseSession(session, CLOSE_ACCESS_ENDED));
    return this.closeSockets(owned, CLOSE_ACCESS_ENDED, "signed out");
  }

  /** Whether any socket listens on a channel, directly or through a relay feed. */
  protected hasListeners(channel: Channel): boolean {
    return this.ctx.getWebSockets(`c:${channel}`).length > 0 || this.ctx.getWebSockets(`r:${channel}`).length > 0;
  }

  /**
   * Checks a channel's open sockets again (what their holders may receive changed): `revise` gives a
   * socket's identity from now on — the same object to leave it as it is — or null to close it (4403).
   * A socket's team may only be dropped (its runtime tag stays; publish skips it). The relay's feeds of
   * the channel get `relayOrder` and apply the same rule to their sockets. Returns how many were closed.
   */
  protected reviseSockets(channel: Channel, revise: (identity: SocketIdentity) => SocketIdentity | null, relayOrder: string | null): number {
    const closing: WebSocket[] = [];
    for (const ws of this.ctx.getWebSockets(`c:${channel}`)) {
      const identity = this.identityOf(ws);
      if (!identity) continue;
      const next = revise(identity);
      if (next === identity) continue;
      if (next === null) {
        closing.push(ws);
        continue;
      }
      if (identity.teamId !== null && next.teamId !== identity.teamId) this.sockets.get(`t:${identity.teamId}`)?.delete(ws);
      try {
        ws.serializeAttachment(next);
      } catch {
        // Closed meanwhile.
      }
      this.identities.set(ws, next);
    }
    if (relayOrder !== null) for (const feed of this.socketsOf(`r:${channel}`)) this.sendTo(feed, relayOrder);
    return this.closeSockets(closing, CLOSE_ACCESS_ENDED, "access changed");
  }

  /**
   * Closes every socket (the game was deleted): open pages stop receiving, and their reconnects are refused
   * (404). The `npm start` relay's feeds are told first, so the relay closes its sockets with the same code
   * (a lost feed alone would close them with 1012, and the pages would try again). Returns how many were closed.
   */
  async closeAll(code: number, reason: string): Promise<number> {
    const sockets = this.ctx.getWebSockets();
    for (const ws of sockets) if (this.identityOf(ws)?.relay) this.sendTo(ws, relayCloseAll(code, reason));
    return this.closeSockets(sockets, code, reason);
  }

  private closeSockets(sockets: WebSocket[], code: number, reason: string): number {
    let closed = 0;
    for (const ws of sockets) {
      this.forget(ws);
      try {
        ws.close(code, reason);
        closed++;
      } catch {
        // Closed meanwhile.
      }
    }
    return closed;
  }

  /** Number of open sockets per channel (for monitoring and tests). */
  async connectionCount(channel: Channel): Promise<number> {
    return this.ctx.getWebSockets(`c:${channel}`).length;
  }
}
