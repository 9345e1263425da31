/**
 * Masks secrets in text bound for the platform log (rules.md §11: log records never contain passwords,
 * flags, tokens or session ids). Log messages are composed by code; this is the last line of defence
 * against a value that slipped into one.
 */

export const REDACTED = "[redacted]";

/** Field names whose values are secret wherever they appear as `name=value`, `name: value` or JSON. */
const SECRET_FIELDS = [
  "password",
  "passwd",
  "pwd",
  "oldpassword",
  "newpassword",
  "secret",
  "token",
  "rtoken",
  "teamtoken",
  "accesstoken",
  "refreshtoken",
  "apikey",
  "api_key",
  "privatekey",
  "private_key",
  "authorization",
  "cookie",
  "session",
  "sessionid",
  "session_id",
  "flagstaff_session",
  "flag",
  "answer",
  "invitecode",
  "invite_code",
];

const fieldAlternation = SECRET_FIELDS.map((f) => f.replace(/_/g, "[_-]?")).join("|");

/** `"password": "x"` (JSON, quoted value). */
const JSON_FIELD = new RegExp(`("(?:${fieldAlternation})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, "gi");
/** `password=x`, `password: x`, `token=x&…` (unquoted value up to a separator). */
const PLAIN_FIELD = new RegExp(`(\\b(?:${fieldAlternation})\\b\\s*[=:]\\s*)(?!\\[redacted\\])("[^"]*"|'[^']*'|[^\\s,;&"'}]+)`, "gi");
/** `Bearer abc…`, `Basic abc…`. */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
/** `flag{…}`, `CTF{…}`, `abc_ctf{…}`: a word glued to a brace group. */
const FLAG_LIKE = /\b[A-Za-z][A-Za-z0-9_]{0,31}\{[^{}\s]{1,200}\}/g;
/** Long opaque runs (base64, base64url, hex); judged by `maskLongToken`. */
const LONG_TOKEN = /[A-Za-z0-9_+/=-]{32,}/g;
/** A piece of a long run that is a token: 20+ token characters mixing letters and digits. */
const TOKEN_PIECE = /[A-Za-z0-9_+=-]{20,}/g;
/** JWT-like `header.payload.signature`. */
const JWT_LIKE = /\b[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g;
/** User ids are UUIDs: identifiers, not secrets. */
const UUID_ANY = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Keeps UUIDs and paths made of short words (`/api/admin/users/{uuid}`); masks anything token-like. */
function maskLongToken(match: string): string {
  const rest = match.replace(UUID_ANY, " ");
  const pieces = rest.match(TOKEN_PIECE) ?? [];
  return pieces.some((p) => /[A-Za-z]/.test(p) && /[0-9]/.test(p)) ? REDACTED : match;
}

/** Returns `text` with every secret-looking part replaced by `[redacted]`. Pure and idempotent. */
export function redactSecrets(text: string): string {
  return text
    .replace(JSON_FIELD, `$1"${REDACTED}"`)
    .replace(PLAIN_FIELD, `$1${REDACTED}`)
    .replace(AUTH_SCHEME, `$1 ${REDACTED}`)
    .replace(JWT_LIKE, REDACTED)
    .replace(FLAG_LIKE, REDACTED)
    .replace(LONG_TOKEN, maskLongToken);
}

/** `redactSecrets` for optional values, also capping the length (log columns are for short text). */
export function redactField(value: string | null | undefined, max = 4000): string | null {
  if (value == null) return null;
  const clean = redactSecrets(value);
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/**
 * A log message's parameters (app/core/log-messages.ts) with `redactSecrets` applied to every string in
 * them, however deep, each capped like a field: the reader's text is made from these, so they are masked
 * as the stored English text is.
 */
export function redactParams<T>(value: T, max = 1000): T {
  if (typeof value === "string") return redactField(value, max) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactParams(v, max)) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactParams(v, max)])) as T;
  return value;
}
