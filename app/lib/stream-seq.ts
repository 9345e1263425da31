import type { ServerMessage } from "~/core/protocol";

/**
 * What a client does with each frame of a hub stream (rules.md §11): `hello` and `pong` are the stream's
 * own; a `hello` after an earlier connection, or a channel number past the next one, means messages may
 * have been missed, so the client refetches what it shows (`resync`). One tracker per socket owner, kept
 * across its reconnects.
 */
export function streamSeqTracker(): (message: ServerMessage) => { resync: boolean; deliver: boolean } {
  let lastSeq: number | null = null;
  let connectedBefore = false;
  return (message) => {
    if (message.type === "hello") {
      const resync = connectedBefore;
      connectedBefore = true;
      lastSeq = message.seq;
      return { resync, deliver: false };
    }
    if (message.type === "pong") return { resync: false, deliver: false };
    const resync = lastSeq !== null && message.seq > lastSeq + 1;
    lastSeq = Math.max(lastSeq ?? 0, message.seq);
    return { resync, deliver: true };
  };
}
