import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyMigrations, listMigrationFiles, splitSqlStatements } from "./d1-migrations.mjs";

describe("splitSqlStatements", () => {
  it.each([
    ["one statement without semicolon", "SELECT 1", ["SELECT 1"]],
    ["drizzle breakpoints", "CREATE TABLE a (x);--> statement-breakpoint\nCREATE INDEX i ON a (x);", ["CREATE TABLE a (x)", "--> statement-breakpoint\nCREATE INDEX i ON a (x)"]],
    ["semicolons inside quotes", "INSERT INTO t VALUES ('a;b', \"c;d\", `e;f`, [g;h]); SELECT 2;", ["INSERT INTO t VALUES ('a;b', \"c;d\", `e;f`, [g;h])", "SELECT 2"]],
    ["doubled quotes", "INSERT INTO t VALUES ('it''s; fine'); SELECT 3", ["INSERT INTO t VALUES ('it''s; fine')", "SELECT 3"]],
    ["comments with semicolons", "-- a; b\nSELECT 1; /* c; d */ SELECT 2;", ["-- a; b\nSELECT 1", "/* c; d */ SELECT 2"]],
    ["comment-only tail", "SELECT 1;\n-- the end\n", ["SELECT 1"]],
    ["explicit transaction dropped", "BEGIN TRANSACTION;\nSELECT 1;\nCOMMIT;", ["SELECT 1"]],
    [
      "trigger body kept whole",
      "CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN\n  INSERT INTO log VALUES (1);\n  UPDATE c SET n = n + 1;\nEND;\nSELECT 1;",
      ["CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN\n  INSERT INTO log VALUES (1);\n  UPDATE c SET n = n + 1;\nEND", "SELECT 1"],
    ],
    ["a column named end is not a trigger end", "CREATE TABLE t (start INT, end INT); SELECT 1;", ["CREATE TABLE t (start INT, end INT)", "SELECT 1"]],
  ])("%s", (_name, sql, expected) => {
    expect(splitSqlStatements(sql)).toEqual(expected);
  });
});

describe("migrations folder", () => {
  let dir;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("orders files by their leading number and ignores other files", () => {
    dir = mkdtempSync(join(tmpdir(), "flagstaff-migrations-"));
    for (const name of ["0010_later.sql", "0002_second.sql", "0001_first.sql", "notes.md", "0003_x.sql.bak"]) {
      writeFileSync(join(dir, name), "SELECT 1;");
    }
    expect(listMigrationFiles(dir)).toEqual(["0001_first.sql", "0002_second.sql", "0010_later.sql"]);
  });

  it("applies each pending migration as one batch with its bookkeeping row, skipping applied ones", async () => {
    dir = mkdtempSync(join(tmpdir(), "flagstaff-migrations-"));
    writeFileSync(join(dir, "0000_init.sql"), "CREATE TABLE a (x);\nCREATE TABLE b (y);");
    writeFileSync(join(dir, "0001_more.sql"), "INSERT INTO a VALUES (1);");
    const batches = [];
    const applied = ["0000_init.sql"];
    const db = {
      prepare(sql) {
        const statement = {
          sql,
          params: [],
          bind: (...params) => ({ ...statement, params }),
          run: async () => ({}),
          all: async () => ({ results: applied.map((name) => ({ name })) }),
        };
        return statement;
      },
      batch: async (statements) => {
        batches.push(statements.map(({ sql, params }) => ({ sql, params })));
      },
    };
    expect(await applyMigrations(db, dir)).toEqual(["0001_more.sql"]);
    expect(batches).toEqual([
      [
        { sql: "INSERT INTO a VALUES (1)", params: [] },
        { sql: 'INSERT INTO "d1_migrations" (name) VALUES (?)', params: ["0001_more.sql"] },
      ],
    ]);
  });

  it("refuses a database a newer release migrated, before writing anything", async () => {
    dir = mkdtempSync(join(tmpdir(), "flagstaff-migrations-"));
    writeFileSync(join(dir, "0000_init.sql"), "CREATE TABLE a (x);");
    writeFileSync(join(dir, "0001_more.sql"), "INSERT INTO a VALUES (1);");
    const batches = [];
    const db = {
      prepare: (sql) => ({ sql, bind: () => ({ sql }), run: async () => ({}), all: async () => ({ results: [{ name: "0000_init.sql" }, { name: "0002_newer.sql" }] }) }),
      batch: async (statements) => void batches.push(statements),
    };
    await expect(applyMigrations(db, dir)).rejects.toThrow(/migrated by a newer release of Flagstaff \(0002_newer\.sql, unknown to this one\)/);
    expect(batches).toEqual([]);
  });
});
