import { describe, expect, it } from "vitest";
import {
  decodeBase64,
  encodeBase64,
  generateTeamTokenKeys,
  parsePublicKey,
  parseTeamToken,
  signTeamToken,
  teamTokenMessage,
  verifyTeamToken,
} from "./team-token";

async function verify(token: string, publicKey: string) {
  const parsed = parseTeamToken(token);
  const key = parsePublicKey(publicKey);
  if (!parsed || !key) return "malformed";
  return (await verifyTeamToken(parsed, key)) ? "valid" : "invalid";
}

describe("team tokens", () => {
  it("signs the documented message", () => {
    expect(teamTokenMessage(12)).toBe("FLAGSTAFF_TEAM_12");
  });

  it("verifies a token under the signing game's key only", async () => {
    const a = await generateTeamTokenKeys();
    const b = await generateTeamTokenKeys();
    const token = await signTeamToken(a.privateKey, 7);
    expect(token).toMatch(/^7:[A-Za-z0-9+/]{86}==$/);
    expect(await verify(token, a.publicKey)).toBe("valid");
    expect(await verify(token, b.publicKey)).toBe("invalid");
    // The signature covers the team id.
    expect(await verify(token.replace(/^7:/, "8:"), a.publicKey)).toBe("invalid");
  });

  it("accepts a 32-byte seed as the private key", async () => {
    const keys = await generateTeamTokenKeys();
    const seed = encodeBase64(decodeBase64(keys.privateKey)!.slice(16));
    const token = await signTeamToken(seed, 3);
    expect(await verify(token, keys.publicKey)).toBe("valid");
  });

  it.each([
    ["no colon", "7abc"],
    ["non-numeric id", `x:${"A".repeat(86)}==`],
    ["short signature", "7:AAAA"],
    ["not base64", `7:${"*".repeat(88)}`],
  ])("refuses a token with %s", (_label, token) => {
    expect(parseTeamToken(token)).toBeNull();
  });

  it("refuses public keys that are not 32 bytes of base64", () => {
    expect(parsePublicKey("AAAA")).toBeNull();
    expect(parsePublicKey("not base64!")).toBeNull();
    expect(parsePublicKey(encodeBase64(new Uint8Array(32)))).not.toBeNull();
  });

  it("proves nothing under a key of small order, whatever the signature", async () => {
    const hex = (h: string) => Uint8Array.from(h.match(/../g)!, (b) => parseInt(b, 16));
    const keys = [
      new Uint8Array(32),
      hex("0100000000000000000000000000000000000000000000000000000000000000"),
      hex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85"),
      hex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa"),
      hex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
    ];
    const zeroSignature = `7:${encodeBase64(new Uint8Array(64))}`;
    // The identity's encoding with a signature R = identity, S = 0 verifies any message in a lax verifier.
    const identitySignature = `7:${encodeBase64(Uint8Array.from({ length: 64 }, (_, i) => (i === 0 ? 1 : 0)))}`;
    for (const key of keys) {
      for (const token of [zeroSignature, identitySignature]) expect(await verify(token, encodeBase64(key))).toBe("invalid");
    }
  });
});
