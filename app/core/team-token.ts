/**
 * Team tokens (api.md §13): `{teamId}:{base64 Ed25519 signature of "FLAGSTAFF_TEAM_{teamId}"}`, signed
 * with the game's private key. Keys are base64: the public key is 32 raw bytes; the private key is either
 * the 32-byte seed or its PKCS#8 form (48 bytes).
 */
const PKCS8_ED25519_PREFIX = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];
const ED25519 = { name: "Ed25519" } as const;

export const teamTokenMessage = (teamId: number) => `FLAGSTAFF_TEAM_${teamId}`;

export function decodeBase64(value: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) return null;
  try {
    const binary = atob(value);
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export interface ParsedTeamToken {
  teamId: number;
  signature: Uint8Array<ArrayBuffer>;
}

/** The team id and 64-byte signature of a well-formed token, else null. */
export function parseTeamToken(token: string): ParsedTeamToken | null {
  const match = /^(\d{1,15}):([A-Za-z0-9+/=]+)$/.exec(token.trim());
  if (!match) return null;
  const teamId = Number(match[1]);
  const signature = decodeBase64(match[2]!);
  if (!Number.isSafeInteger(teamId) || teamId <= 0 || !signature || signature.length !== 64) return null;
  return { teamId, signature };
}

/** The 32 raw bytes of a base64 public key, else null. */
export function parsePublicKey(publicKey: string): Uint8Array<ArrayBuffer> | null {
  const bytes = decodeBase64(publicKey.trim());
  return bytes && bytes.length === 32 ? bytes : null;
}

function toPkcs8(privateKey: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  if (privateKey.length === 48) return privateKey;
  if (privateKey.length !== 32) throw new Error("An Ed25519 private key must be a 32-byte seed or 48-byte PKCS#8");
  const out = new Uint8Array(48);
  out.set(PKCS8_ED25519_PREFIX, 0);
  out.set(privateKey, 16);
  return out;
}

/** Signs the team token of `teamId` with a base64 private key. */
export async function signTeamToken(privateKeyBase64: string, teamId: number): Promise<string> {
  const raw = decodeBase64(privateKeyBase64);
  if (!raw) throw new Error("The private key is not base64");
  const key = await crypto.subtle.importKey("pkcs8", toPkcs8(raw), ED25519, false, ["sign"]);
  const signature = await crypto.subtle.sign(ED25519, key, new TextEncoder().encode(teamTokenMessage(teamId)));
  return `${teamId}:${encodeBase64(new Uint8Array(signature))}`;
}

/**
 * The encodings of Ed25519's points of small order (the identity, orders 2, 4 and 8, and the non-canonical
 * spellings p and p + 1 of 0 and 1), compared with the sign bit cleared — the blocklist libsodium keeps.
 * Under such a key a zero signature verifies every message, so it proves nothing.
 */
const SMALL_ORDER_KEYS = [
  "0000000000000000000000000000000000000000000000000000000000000000",
  "0100000000000000000000000000000000000000000000000000000000000000",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
];

function isSmallOrderKey(publicKey: Uint8Array): boolean {
  const hex = Array.from(publicKey, (b, i) => (i === 31 ? b & 0x7f : b).toString(16).padStart(2, "0")).join("");
  return SMALL_ORDER_KEYS.includes(hex);
}

/** True when the token's signature verifies under the public key (both already well-formed). */
export async function verifyTeamToken(token: ParsedTeamToken, publicKey: Uint8Array<ArrayBuffer>): Promise<boolean> {
  if (isSmallOrderKey(publicKey)) return false;
  try {
    const key = await crypto.subtle.importKey("raw", publicKey, ED25519, false, ["verify"]);
    return await crypto.subtle.verify(ED25519, key, token.signature, new TextEncoder().encode(teamTokenMessage(token.teamId)));
  } catch {
    // A 32-byte string that is not a valid curve point cannot verify anything.
    return false;
  }
}

/** A fresh key pair as base64 (public: 32 raw bytes; private: PKCS#8). */
export async function generateTeamTokenKeys(): Promise<{ publicKey: string; privateKey: string }> {
  const pair = (await crypto.subtle.generateKey(ED25519, true, ["sign", "verify"])) as CryptoKeyPair;
  const pub = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const priv = new Uint8Array((await crypto.subtle.exportKey("pkcs8", pair.privateKey)) as ArrayBuffer);
  return { publicKey: encodeBase64(pub), privateKey: encodeBase64(priv) };
}
