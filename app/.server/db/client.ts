import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Db = ReturnType<typeof makeDb>;

function makeDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

/**
 * One drizzle client per D1 binding object, reused by every request of the isolate: building one walks
 * the whole schema (≈ 0.3 ms), which was most of the cost of a cached API answer (BENCHMARKS.md). The
 * client keeps no per-request state.
 */
const clients = new WeakMap<D1Database, Db>();

/** A drizzle client over the D1 binding (memoised per binding). */
export function createDb(d1: D1Database): Db {
  let db = clients.get(d1);
  if (!db) {
    db = makeDb(d1);
    clients.set(d1, db);
  }
  return db;
}

export { schema };
