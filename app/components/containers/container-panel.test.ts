import { describe, expect, it } from "vitest";
import { canExtend, proxyAddress } from "./container-panel";

describe("container panel helpers", () => {
  it("opens the extension only inside the renewal window before expiry", () => {
    const now = 1_000_000;
    expect(canExtend(now + 10 * 60_000, now, 10)).toBe(true);
    expect(canExtend(now + 10 * 60_000 + 1, now, 10)).toBe(false);
    expect(canExtend(now + 60_000, now, 10)).toBe(true);
  });

  it("builds the WebSocket proxy address of an entry", () => {
    expect(proxyAddress("https://ctf.example.org", "abc")).toBe("wss://ctf.example.org/api/proxy/abc");
    expect(proxyAddress("http://127.0.0.1:8787", "abc", true)).toBe("ws://127.0.0.1:8787/api/proxy/noinst/abc");
  });
});
