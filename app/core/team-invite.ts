/**
 * Team invite codes (api.md §3): `{name}:{teamId}:{token}` with a 32 lower-case hex token. The name is
 * informative only and may itself contain colons, so a code is read from its end.
 */
const INVITE_TAIL = /:(\d{1,15}):([0-9a-f]{32})$/;

export interface ParsedInviteCode {
  teamId: number;
  token: string;
}

export function formatInviteCode(name: string, teamId: number, token: string): string {
  return `${name}:${teamId}:${token}`;
}

/** The team id and token of a well-formed code, or null when the code does not end with `:{digits}:{32 hex}`. */
export function parseInviteCode(code: string): ParsedInviteCode | null {
  const match = INVITE_TAIL.exec(code.trim());
  if (!match) return null;
  const teamId = Number(match[1]);
  if (!Number.isSafeInteger(teamId) || teamId <= 0) return null;
  return { teamId, token: match[2]! };
}

/** A fresh invite token: 16 random bytes as 32 lower-case hex. */
export function generateInviteToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
