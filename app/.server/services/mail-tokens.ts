import { eq } from "drizzle-orm";
import { secretEquals } from "~/core/secret-equal";
import type { Db } from "../db/client";
import { configEntries } from "../db/schema";

/** Mail tokens (verify, reset, change email) live 3 hours. */
export const MAIL_TOKEN_TTL_MS = 3 * 60 * 60 * 1000;
export type TokenPurpose = "verify" | "reset" | "changeEmail";

const SECRET_KEY = "mailTokenSecret";
let secretCache: string | null = null;
const enc = new TextEncoder();

const toHex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** The HMAC secret, generated once and kept in the config table (the first writer wins a race). */
async function getSecret(db: Db): Promise<string> {
  if (secretCache) return secretCache;
  const fresh = toHex(crypto.getRandomValues(new Uint8Array(32)).buffer);
  await db.insert(configEntries).values({ key: SECRET_KEY, value: fresh, updatedAt: Date.now() }).onConflictDoNothing().run();
  const row = await db.select({ value: configEntries.value }).from(configEntries).where(eq(configEntries.key, SECRET_KEY)).get();
  secretCache = row!.value;
  return secretCache;
}

async function sign(secret: string, payload: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return toHex(await crypto.subtle.sign("HMAC", key, enc.encode(payload)));
}

export interface TokenSubject {
  userId: string;
  securityStamp: string;
  /** The address the link was sent to (binds change-email tokens to the new address). */
  email: string;
}

const payload = (purpose: TokenPurpose, s: TokenSubject, expiry: number) =>
  [s.userId, purpose, s.securityStamp, s.email.toLowerCase(), expiry].join("|");

/**
 * A token `{expiry}.{hmac}` over userId|purpose|securityStamp|email|expiry. It is single-use because every
 * successful use rotates the security stamp, which also voids it after a password change or a ban.
 */
export async function createMailToken(db: Db, purpose: TokenPurpose, subject: TokenSubject, now: number): Promise<string> {
  const expiry = now + MAIL_TOKEN_TTL_MS;
  return `${expiry}.${await sign(await getSecret(db), payload(purpose, subject, expiry))}`;
}

/** True when the token was made for this purpose, user, stamp and address and has not expired. */
export async function checkMailToken(db: Db, purpose: TokenPurpose, subject: TokenSubject, token: string, now: number): Promise<boolean> {
  const m = /^(\d{1,16})\.([0-9a-f]{64})$/.exec(token);
  if (!m) return false;
  const expiry = Number(m[1]);
  if (!(expiry > now) || expiry - now > MAIL_TOKEN_TTL_MS) return false;
  const expected = await sign(await getSecret(db), payload(purpose, subject, expiry));
  return secretEquals(expected, m[2]);
}

/** URL-safe base64 of a UTF-8 string (links carry token and email this way). */
export function encodeLinkValue(value: string): string {
  let bin = "";
  for (const b of enc.encode(value)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decodes standard or URL-safe base64; null when malformed. */
export function decodeLinkValue(value: string): string | null {
  try {
    const b64 = value.replace(/-/g, "+").replace(/_/g, "/");
    const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)));
  } catch {
    return null;
  }
}
