import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Password hashing: scrypt (memory-hard) with OWASP's N=2^14, r=8, p=5 (16 MiB per lane), run natively by
 * workerd's node:crypto. See DECISIONS.md for the measured cost. Format: `scrypt$N$r$p$salt$hash` (base64).
 */
const PARAMS = { N: 16384, r: 8, p: 5 } as const;
const KEY_LENGTH = 32;
const MAX_MEM = 64 * 1024 * 1024;

/**
 * scrypt runs on the runtime's one thread (≈ 0.1–0.2 s). The timer turn after it lets requests that
 * arrived meanwhile in before the caller goes on: without it a batch import of users, one hash per row
 * with D1 calls between, held every other request of the server until its last row (measured: 30 rows,
 * a request sent during them answered after 6 s; with it ≈ 0.3 s; tests/durability/batch-import).
 */
async function derive(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  const key = await new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N, r, p, maxmem: MAX_MEM }, (err, derived) =>
      err ? reject(err) : resolve(derived),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  return key;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS.N, PARAMS.r, PARAMS.p);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, saltB64, keyB64] = stored.split("$");
  if (kind !== "scrypt" || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, "base64");
  const actual = await derive(password, Buffer.from(saltB64, "base64"), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a random password, verified against when the user does not exist so timing reveals nothing. */
let decoyHash: Promise<string> | null = null;
export function getDecoyHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(18).toString("base64"));
  return decoyHash;
}

const LOWER = "abcdefghijkmnopqrstuvwxyz";
const UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ";
const DIGITS = "23456789";
const SYMBOLS = "!@#$%^&*-_=+?";

function pick(alphabet: string, byte: number): string {
  return alphabet[byte % alphabet.length] as string;
}

/** A random password meeting the policy (lower, upper, digit and a symbol), 16 characters by default. */
export function generatePassword(length = 16): string {
  const bytes = randomBytes(length * 2);
  const all = LOWER + UPPER + DIGITS + SYMBOLS;
  const chars = [pick(LOWER, bytes[0]!), pick(UPPER, bytes[1]!), pick(DIGITS, bytes[2]!), pick(SYMBOLS, bytes[3]!)];
  for (let i = 4; i < length; i++) chars.push(pick(all, bytes[i]!));
  // Fisher–Yates with the remaining random bytes.
  for (let i = chars.length - 1; i > 0; i--) {
    const j = bytes[length + i]! % (i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join("");
}
