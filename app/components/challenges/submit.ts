import { api } from "~/lib/api";

/**
 * POST game/{id}/challenges/{cid}: stores the flag and resolves with the submission id; the verdict
 * follows separately (status call or the game's socket).
 */
export function submitFlag(gameId: number, challengeId: number, flag: string): Promise<number> {
  return api<number>(`/api/game/${gameId}/challenges/${challengeId}`, { method: "POST", body: { flag } });
}
