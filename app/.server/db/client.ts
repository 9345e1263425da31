import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Db = ReturnType<typeof createDb>;

/** A drizzle client over the D1 binding; cheap to create per request. */
export function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export { schema };
