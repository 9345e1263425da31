import { flagsEqual, matchesAny } from "../flags/match";

/**
 * Judging of one submission from cached flags (rules.md §7), pure. The game room calls it in id order.
 */

export interface ChallengeFlagCache {
  /** DynamicAttachment and DynamicContainer: each team has its own flag. */
  dynamic: boolean;
  /** Static types: every accepted flag. */
  staticFlags: string[];
  /** participation id → the team's own flag (dynamic types; null until assigned). A key = an instance exists. */
  instances: Map<number, string | null>;
  /** Dynamic types: flag → owning participation (cheat check). */
  owners: Map<string, number>;
}

export type Judgement =
  | { status: "Accepted" }
  | { status: "WrongAnswer" }
  | { status: "NotFound" }
  | { status: "CheatDetected"; ownerParticipationId: number };

export function emptyFlagCache(dynamic: boolean): ChallengeFlagCache {
  return { dynamic, staticFlags: [], instances: new Map(), owners: new Map() };
}

/** Sets a team's instance (and, for dynamic types, its own flag). */
export function setInstance(cache: ChallengeFlagCache, participationId: number, flag: string | null): void {
  const previous = cache.instances.get(participationId);
  if (previous && cache.owners.get(previous) === participationId) cache.owners.delete(previous);
  cache.instances.set(participationId, flag);
  if (cache.dynamic && flag) cache.owners.set(flag, participationId);
}

export function judge(cache: ChallengeFlagCache, participationId: number, answer: string): Judgement {
  if (!cache.instances.has(participationId)) return { status: "NotFound" };
  if (cache.dynamic) {
    const own = cache.instances.get(participationId) ?? null;
    if (own !== null && flagsEqual(answer, own)) return { status: "Accepted" };
  } else if (matchesAny(answer, cache.staticFlags)) {
    return { status: "Accepted" };
  }
  // Cheat check: another team's own flag of the same challenge (never for static flags).
  if (cache.dynamic) {
    const owner = cache.owners.get(answer.trim());
    if (owner !== undefined && owner !== participationId) return { status: "CheatDetected", ownerParticipationId: owner };
  }
  return { status: "WrongAnswer" };
}

/** What a player sees: CheatDetected is shown as WrongAnswer. */
export function playerStatus<S extends string>(status: S): Exclude<S, "CheatDetected"> | "WrongAnswer" {
  return (status === "CheatDetected" ? "WrongAnswer" : status) as Exclude<S, "CheatDetected"> | "WrongAnswer";
}
