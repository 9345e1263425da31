// Whether this start is to make the first admin, asked before the data folder is touched: the admin's
// settings (FLAGSTAFF_ADMIN_USER / FLAGSTAFF_ADMIN_PASSWORD) are held to the rules only then, and a refused
// value must stop the start before a database is created or migrated (README "Settings are checked first").
import { readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * Whether the data folder holds a D1 database (wrangler's `--persist-to` layout: a `.sqlite` file beside
 * Miniflare's `metadata.sqlite` under `v3/d1`). A folder without one makes its first admin in this start.
 */
export function hasDatabase(dataDir) {
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    return entries.some((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith(".sqlite") && entry.name !== "metadata.sqlite",
    );
  };
  return walk(join(dataDir, "v3", "d1"));
}

/**
 * Whether an account of the database has the Admin role (a D1 binding or Miniflare's proxy of one), read
 * before its migrations run: a database without the users table yet has no admin.
 */
export async function hasAdminAccount(db) {
  const table = await db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'users'").first();
  if (!table) return false;
  return (await db.prepare("SELECT 1 AS found FROM users WHERE role = 'Admin' LIMIT 1").first()) !== null;
}
