import { describe, expect, it } from "vitest";
import type { ServerMessage } from "~/core/protocol";
import { streamSeqTracker } from "./stream-seq";

const frame = (type: string, seq: number) => ({ type, seq, data: null }) as unknown as ServerMessage;

describe("stream seq tracker", () => {
  it("delivers messages in sequence, team messages carrying the current number, without a resync", () => {
    const track = streamSeqTracker();
    expect(track(frame("hello", 4))).toEqual({ resync: false, deliver: false });
    expect(track(frame("notice", 5))).toEqual({ resync: false, deliver: true });
    expect(track(frame("verdict", 5))).toEqual({ resync: false, deliver: true });
    expect(track(frame("pong", 5))).toEqual({ resync: false, deliver: false });
    expect(track(frame("notice", 6))).toEqual({ resync: false, deliver: true });
  });

  it("asks for a resync on a gap and on a hello after a reconnect", () => {
    const track = streamSeqTracker();
    track(frame("hello", 1));
    expect(track(frame("log", 3))).toEqual({ resync: true, deliver: true });
    expect(track(frame("log", 4))).toEqual({ resync: false, deliver: true });
    expect(track(frame("hello", 9))).toEqual({ resync: true, deliver: false });
    expect(track(frame("log", 10))).toEqual({ resync: false, deliver: true });
  });
});
