import { describe, expect, it } from "vitest";
import { bodyCodingFor, gzipBytes } from "./encoding";

describe("bodyCodingFor", () => {
  it.each([
    [undefined, "identity"],
    [null, "identity"],
    ["", "identity"],
    ["gzip", "gzip"],
    ["gzip, deflate, br, zstd", "gzip"],
    ["br;q=1.0, gzip;q=0.8, *;q=0.1", "gzip"],
    ["GZIP", "gzip"],
    ["*", "gzip"],
    ["deflate, br", "identity"],
    ["gzip;q=0", "identity"],
    ["identity", "identity"],
    ["identity;q=1, gzip;q=0.5", "identity"],
    ["x-gzip", "identity"],
    ["gzip;q=nonsense", "identity"],
  ] as const)("Accept-Encoding %j → %s", (header, coding) => {
    expect(bodyCodingFor(header)).toBe(coding);
  });
});

describe("gzipBytes", () => {
  it("makes a gzip member that inflates back to the same bytes, smaller for repetitive JSON", async () => {
    const json = new TextEncoder().encode(JSON.stringify({ items: Array.from({ length: 500 }, (_, i) => ({ rank: i + 1, name: `team ${i}`, score: 1000 - i })) }));
    const gz = await gzipBytes(json);
    expect([gz[0], gz[1]]).toEqual([0x1f, 0x8b]);
    expect(gz.length).toBeLessThan(json.length / 4);
    const back = new Uint8Array(await new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
    expect(back).toEqual(json);
  });
});
