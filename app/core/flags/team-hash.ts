/** Team hash derivation of rules.md §6 (lower-case hex SHA-256 throughout). */

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** gameSalt: shown to admins as `teamHashSalt`. The stored private key string must never change. */
export function computeGameSalt(privateKey: string): Promise<string> {
  return sha256Hex(`Flagstaff@${privateKey}@PK`);
}

export async function computeTeamHash(gameSalt: string, challengeId: number, teamToken: string): Promise<string> {
  const challengeSalt = await sha256Hex(`${gameSalt}::${challengeId}`);
  return (await sha256Hex(`${challengeSalt}::${teamToken}`)).slice(12, 24);
}
