// D1 migrations applied the way `wrangler d1 migrations apply` does it: top-level *.sql files of the
// migrations folder in numeric order, bookkept in `d1_migrations (id, name, applied_at)`, each migration
// plus its bookkeeping row sent as one batch (one transaction), already applied names skipped.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const MIGRATIONS_TABLE = "d1_migrations";

/** Lists `*.sql` files of `dir` ordered by their leading number, then by name (as wrangler does). */
export function listMigrationFiles(dir) {
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".sql"))
    .map((entry) => entry.name);
  const leadingNumber = (name) => Number.parseInt(name.split("_")[0], 10);
  return names.sort((a, b) => {
    const na = leadingNumber(a);
    const nb = leadingNumber(b);
    if (na !== nb) {
      if (Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
      if (Number.isFinite(na)) return -1;
      if (Number.isFinite(nb)) return 1;
    }
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

export function readMigrations(dir) {
  return listMigrationFiles(dir).map((name) => ({
    name,
    queries: splitSqlStatements(readFileSync(join(dir, name), "utf8")),
  }));
}

// Token classes and transition table of SQLite's sqlite3_complete(): a `;` ends a statement unless it is
// inside CREATE [TEMP] TRIGGER … BEGIN … END.
const SEMI = 0, WS = 1, OTHER = 2, EXPLAIN = 3, CREATE = 4, TEMP = 5, TRIGGER = 6, END = 7;
const START_STATE = 1;
const TRANSITIONS = [
  /* 0 INVALID */ [1, 0, 2, 3, 4, 2, 2, 2],
  /* 1 START   */ [1, 1, 2, 3, 4, 2, 2, 2],
  /* 2 NORMAL  */ [1, 2, 2, 2, 2, 2, 2, 2],
  /* 3 EXPLAIN */ [1, 3, 3, 2, 4, 2, 2, 2],
  /* 4 CREATE  */ [1, 4, 2, 2, 2, 4, 5, 2],
  /* 5 TRIGGER */ [6, 5, 5, 5, 5, 5, 5, 5],
  /* 6 SEMI    */ [6, 6, 5, 5, 5, 5, 5, 7],
  /* 7 END     */ [1, 7, 5, 5, 5, 5, 5, 5],
];
const KEYWORDS = new Map([
  ["explain", EXPLAIN],
  ["create", CREATE],
  ["temp", TEMP],
  ["temporary", TEMP],
  ["trigger", TRIGGER],
  ["end", END],
]);
const QUOTE_ENDS = { "'": "'", '"': '"', "`": "`", "[": "]" };

/** Splits an SQL file into statements (without trailing `;`), dropping empty and comment-only ones. */
export function splitSqlStatements(source) {
  // D1 runs each batch in a transaction itself; wrangler drops one explicit transaction the same way.
  const sql = source.replace("BEGIN TRANSACTION;", "").replace("COMMIT;", "");
  const statements = [];
  let state = 0;
  let start = 0;
  let useful = false;
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i];
    let token;
    let next = i + 1;
    if (ch === ";") {
      token = SEMI;
    } else if (/\s/.test(ch)) {
      token = WS;
    } else if (ch === "-" && sql[i + 1] === "-") {
      const eol = sql.indexOf("\n", i);
      next = eol === -1 ? sql.length : eol + 1;
      token = WS;
    } else if (ch === "/" && sql[i + 1] === "*") {
      const close = sql.indexOf("*/", i + 2);
      next = close === -1 ? sql.length : close + 2;
      token = WS;
    } else if (ch in QUOTE_ENDS) {
      const end = QUOTE_ENDS[ch];
      let j = i + 1;
      for (;;) {
        const at = sql.indexOf(end, j);
        if (at === -1) {
          j = sql.length;
          break;
        }
        if (end !== "]" && sql[at + 1] === end) {
          j = at + 2;
          continue;
        }
        j = at + 1;
        break;
      }
      next = j;
      token = OTHER;
    } else if (/[A-Za-z_]/.test(ch)) {
      let j = i + 1;
      while (j < sql.length && /[A-Za-z0-9_$]/.test(sql[j])) j++;
      next = j;
      token = KEYWORDS.get(sql.slice(i, j).toLowerCase()) ?? OTHER;
    } else {
      token = OTHER;
    }
    if (token !== WS && token !== SEMI) useful = true;
    state = TRANSITIONS[state][token];
    if (token === SEMI && state === START_STATE) {
      const statement = sql.slice(start, i).trim();
      if (useful && statement.length > 0) statements.push(statement);
      start = i + 1;
      useful = false;
    }
    i = next;
  }
  const rest = sql.slice(start).trim();
  if (useful && rest.length > 0) statements.push(rest);
  return statements;
}

const quoteIdentifier = (name) => `"${name.replace(/"/g, '""')}"`;

/**
 * Applies the migrations of `dir` not yet recorded in `d1_migrations` to a D1 database (a binding or
 * Miniflare's `getD1Database()` proxy). Returns the names it applied.
 */
export async function applyMigrations(db, dir, table = MIGRATIONS_TABLE) {
  const quoted = quoteIdentifier(table);
  await db
    .prepare(
      `CREATE TABLE IF NOT EXISTS ${quoted}(
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT UNIQUE,
    applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`,
    )
    .run();
  const { results } = await db.prepare(`SELECT name FROM ${quoted}`).all();
  const applied = new Set(results.map((row) => row.name));
  const migrations = readMigrations(dir);
  // A data folder a newer release has migrated: this release would run on tables it does not know,
  // writing rows without the newer columns' values. Refused before anything is written.
  const known = new Set(migrations.map((migration) => migration.name));
  const newer = [...applied].filter((name) => !known.has(name));
  if (newer.length > 0) {
    throw new Error(
      `the database was migrated by a newer release of Flagstaff (${newer.join(", ")}, unknown to this one): start that release or a later one, or restore a backup made before the upgrade`,
    );
  }
  const done = [];
  for (const migration of migrations) {
    if (applied.has(migration.name)) continue;
    const statements = migration.queries.map((query) => db.prepare(query));
    statements.push(db.prepare(`INSERT INTO ${quoted} (name) VALUES (?)`).bind(migration.name));
    try {
      await db.batch(statements);
    } catch (error) {
      throw new Error(`D1 migration ${migration.name} failed: ${error?.message ?? error}`, { cause: error });
    }
    done.push(migration.name);
  }
  return done;
}
