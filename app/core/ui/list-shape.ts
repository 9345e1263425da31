import type { ArrayResponse } from "../schemas/team";

/**
 * A check that a value has the shape a page reads: an API answer before it is painted, a stored copy before
 * it is used (app/lib/list-cache.ts). A list of another shape (a broken answer, an API changed since it
 * was stored) is refused instead of failing in the page's rendering.
 */
export type Shape<T> = (value: unknown) => value is T;

/** The field types a shape can name. */
export type FieldType = "string" | "number" | "boolean" | "array";

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const hasType = (value: unknown, type: FieldType) => (type === "array" ? Array.isArray(value) : typeof value === type);

/** A record whose named fields have these types (the fields a page keys, sorts or maps its rows by). */
export function recordWith<T>(fields: Readonly<Record<string, FieldType>>): Shape<T> {
  const entries = Object.entries(fields);
  return (value): value is T => isRecord(value) && entries.every(([name, type]) => hasType(value[name], type));
}

/** An array whose every item has the item's shape. */
export function arrayOf<T>(item: Shape<T>): Shape<T[]> {
  return (value): value is T[] => Array.isArray(value) && value.every((entry) => item(entry));
}

/** A page of a list (ArrayResponse, api.md §4): `data` items of the item's shape, `length` and `total`. */
export function arrayResponseOf<T>(item: Shape<T>): Shape<ArrayResponse<T>> {
  const items = arrayOf(item);
  return (value): value is ArrayResponse<T> => isRecord(value) && items(value.data) && typeof value.length === "number" && typeof value.total === "number";
}
