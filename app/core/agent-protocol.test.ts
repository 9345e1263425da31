import { describe, expect, it } from "vitest";
import {
  AGENT_HEADER_NONCE,
  AGENT_HEADER_SIGNATURE,
  AGENT_HEADER_TIMESTAMP,
  NonceCache,
  canonicalRequest,
  sha256Hex,
  signPathWithQuery,
  signRequest,
  splitQuerySignature,
  verifyRequest,
} from "./agent-protocol";

const SECRET = "test-secret-0123456789";
const NOW = 1_800_000_000_000;

async function verify(
  headers: Record<string, string>,
  { method = "POST", target = "/containers", body = '{"a":1}', now = NOW, nonces = new NonceCache(), secret = SECRET } = {},
) {
  return verifyRequest(secret, { method, target, headers, body }, { nonces, now });
}

describe("agent request signing", () => {
  it("builds the documented canonical string", async () => {
    expect(await sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(canonicalRequest("post", "/containers?x=1", 5, "n", "h")).toBe("POST\n/containers?x=1\n5\nn\nh");
  });

  it("accepts a correctly signed request once", async () => {
    const headers = await signRequest(SECRET, { method: "POST", path: "/containers", body: '{"a":1}', now: NOW });
    expect(headers[AGENT_HEADER_SIGNATURE]).toMatch(/^[0-9a-f]{64}$/);
    expect(headers[AGENT_HEADER_NONCE]).toMatch(/^[0-9a-f]{32}$/);
    const nonces = new NonceCache();
    expect(await verify(headers, { nonces })).toMatchObject({ ok: true, timestamp: NOW });
    expect(await verify(headers, { nonces, now: NOW + 1000 })).toEqual({ ok: false, reason: "replayed" });
  });

  it("also reads a Fetch Headers object", async () => {
    const headers = await signRequest(SECRET, { method: "GET", path: "/health", now: NOW });
    const result = await verifyRequest(
      SECRET,
      { method: "GET", target: "/health", headers: new Headers(headers) },
      { nonces: new NonceCache(), now: NOW },
    );
    expect(result.ok).toBe(true);
  });

  it("refuses a changed body, path, method or secret as forged", async () => {
    const headers = await signRequest(SECRET, { method: "POST", path: "/containers", body: '{"a":1}', now: NOW });
    expect(await verify(headers, { body: '{"a":2}' })).toEqual({ ok: false, reason: "forged" });
    expect(await verify(headers, { target: "/containers/x" })).toEqual({ ok: false, reason: "forged" });
    expect(await verify(headers, { method: "DELETE" })).toEqual({ ok: false, reason: "forged" });
    expect(await verify(headers, { secret: "another-secret" })).toEqual({ ok: false, reason: "forged" });
    const flipped = headers[AGENT_HEADER_SIGNATURE]!.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    expect(await verify({ ...headers, [AGENT_HEADER_SIGNATURE]: flipped })).toEqual({ ok: false, reason: "forged" });
  });

  it("refuses timestamps outside ±60 s", async () => {
    const old = await signRequest(SECRET, { method: "POST", path: "/containers", body: '{"a":1}', now: NOW - 60_001 });
    expect(await verify(old)).toEqual({ ok: false, reason: "expired" });
    const future = await signRequest(SECRET, { method: "POST", path: "/containers", body: '{"a":1}', now: NOW + 60_001 });
    expect(await verify(future)).toEqual({ ok: false, reason: "expired" });
    const edge = await signRequest(SECRET, { method: "POST", path: "/containers", body: '{"a":1}', now: NOW - 60_000 });
    expect((await verify(edge)).ok).toBe(true);
  });

  it("refuses missing and malformed signatures", async () => {
    expect(await verify({})).toEqual({ ok: false, reason: "missing" });
    const headers = await signRequest(SECRET, { method: "POST", path: "/containers", body: '{"a":1}', now: NOW });
    expect(await verify({ ...headers, [AGENT_HEADER_TIMESTAMP]: "soon" })).toEqual({ ok: false, reason: "malformed" });
    expect(await verify({ ...headers, [AGENT_HEADER_NONCE]: "short" })).toEqual({ ok: false, reason: "malformed" });
    expect(await verify({ ...headers, [AGENT_HEADER_SIGNATURE]: "XYZ" })).toEqual({ ok: false, reason: "malformed" });
  });

  it("does not spend a nonce on a forged request", async () => {
    const nonces = new NonceCache();
    const headers = await signRequest(SECRET, { method: "POST", path: "/containers", body: '{"a":1}', now: NOW });
    expect(await verify(headers, { nonces, body: "tampered" })).toEqual({ ok: false, reason: "forged" });
    expect((await verify(headers, { nonces })).ok).toBe(true);
  });
});

describe("query-signed URLs", () => {
  it("signs the path and keeps the other query parameters", async () => {
    const signed = await signPathWithQuery(SECRET, { method: "GET", path: "/proxy/abc?client=10.0.0.1", now: NOW });
    expect(signed).toMatch(/^\/proxy\/abc\?client=10\.0\.0\.1&fs_ts=\d+&fs_nonce=[0-9a-f]{32}&fs_sig=[0-9a-f]{64}$/);
    expect(splitQuerySignature(signed).path).toBe("/proxy/abc?client=10.0.0.1");
    const nonces = new NonceCache();
    const ok = await verifyRequest(SECRET, { method: "GET", target: signed, headers: {} }, { nonces, now: NOW });
    expect(ok.ok).toBe(true);
    const again = await verifyRequest(SECRET, { method: "GET", target: signed, headers: {} }, { nonces, now: NOW });
    expect(again).toEqual({ ok: false, reason: "replayed" });
    const moved = signed.replace("/proxy/abc", "/proxy/abd");
    expect(await verifyRequest(SECRET, { method: "GET", target: moved, headers: {} }, { nonces, now: NOW })).toEqual({
      ok: false,
      reason: "forged",
    });
  });

  it("signs a path without a query", async () => {
    const signed = await signPathWithQuery(SECRET, { method: "GET", path: "/proxy/abc", now: NOW });
    expect(splitQuerySignature(signed).path).toBe("/proxy/abc");
    expect(
      (await verifyRequest(SECRET, { method: "GET", target: signed, headers: {} }, { nonces: new NonceCache(), now: NOW })).ok,
    ).toBe(true);
  });

  it("refuses a broken escape in a signature parameter as malformed instead of throwing", async () => {
    for (const target of ["/proxy/abc?fs_ts=%&fs_nonce=a&fs_sig=b", "/proxy/abc?fs_ts=1&fs_nonce=%E0%A4%A&fs_sig=b", "/health?fs_ts=1&fs_nonce=a&fs_sig=%zz"]) {
      expect(splitQuerySignature(target).path, target).toBe(target.split("?")[0]);
      expect(await verifyRequest(SECRET, { method: "GET", target, headers: {} }, { nonces: new NonceCache(), now: NOW }), target).toEqual({
        ok: false,
        reason: "malformed",
      });
    }
  });
});

describe("NonceCache", () => {
  it("forgets nonces after twice the window and caps its size", () => {
    const cache = new NonceCache(1000, 2);
    expect(cache.remember("a", 0)).toBe(true);
    expect(cache.remember("a", 1999)).toBe(false);
    expect(cache.remember("b", 10)).toBe(true);
    expect(cache.remember("c", 20)).toBe(false);
    expect(cache.remember("a", 2000)).toBe(true);
    expect(cache.size).toBe(2);
  });
});
