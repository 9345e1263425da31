/**
 * The id an address names (`/games/12`, `/api/game/12`): a plain decimal number without sign, spaces or
 * leading zeros, of at most 15 digits (every such number is a safe integer). Anything else — `0x1`, `01`,
 * `+1`, ` 1`, `1e3`, `0` — names no object, so the API and the pages answer 404 alike instead of reading
 * it as another id.
 */
const PATH_ID = /^[1-9]\d{0,14}$/;

/** The id of a path segment, or null when it is not one. */
export function parsePathId(raw: string | null | undefined): number | null {
  return raw != null && PATH_ID.test(raw) ? Number(raw) : null;
}
