import { afterEach, describe, expect, it, vi } from "vitest";
import { markPageReads, pageReadsSince } from "./page-reads";
import { noteServerTime } from "./server-clock";

const headers = (serverTime: number) => ({ get: (name: string) => (name === "X-Server-Time" ? String(serverTime) : null) });

describe("pageReadsSince", () => {
  afterEach(() => {
    noteServerTime(headers(Date.now()), Date.now(), Date.now());
    vi.useRealTimers();
  });

  it("is the start of the latest loading, on the server's clock, less the clock margin", () => {
    vi.useFakeTimers();
    vi.setSystemTime(100_000);
    markPageReads();
    vi.setSystemTime(105_000);
    expect(pageReadsSince()).toBe(98_000);
    // The server's clock is a minute ahead of this browser's: the same moment, counted on it.
    noteServerTime(headers(165_000), 105_000, 105_000);
    expect(pageReadsSince()).toBe(158_000);
  });
});
