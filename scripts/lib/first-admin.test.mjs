import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hasAdminAccount, hasDatabase } from "./first-admin.mjs";

describe("hasDatabase", () => {
  let dir;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("finds the D1 file of wrangler's --persist-to layout, and nothing in a folder without one", () => {
    dir = mkdtempSync(join(tmpdir(), "flagstaff-first-admin-"));
    expect(hasDatabase(join(dir, "missing"))).toBe(false);
    expect(hasDatabase(dir)).toBe(false);
    const objects = join(dir, "v3", "d1", "miniflare-D1DatabaseObject");
    mkdirSync(objects, { recursive: true });
    mkdirSync(join(dir, "v3", "do", "flagstaff-GameRoom"), { recursive: true });
    writeFileSync(join(dir, "v3", "do", "flagstaff-GameRoom", "a.sqlite"), "");
    writeFileSync(join(objects, "metadata.sqlite"), "");
    writeFileSync(join(objects, "metadata.sqlite-wal"), "");
    expect(hasDatabase(dir)).toBe(false);
    writeFileSync(join(objects, "998e4ec67d453e8c.sqlite"), "");
    expect(hasDatabase(dir)).toBe(true);
  });

  it("answers false for a data folder path that is a file", () => {
    dir = mkdtempSync(join(tmpdir(), "flagstaff-first-admin-"));
    writeFileSync(join(dir, "file"), "");
    expect(hasDatabase(join(dir, "file"))).toBe(false);
  });
});

describe("hasAdminAccount", () => {
  /** A D1 stand-in answering `first()` from the tables it is given. */
  const d1 = (tables) => ({
    prepare: (sql) => ({
      first: async () => {
        if (sql.includes("sqlite_master")) return "users" in tables ? { found: 1 } : null;
        if (!("users" in tables)) throw new Error("D1_ERROR: no such table: users");
        return tables.users.some((user) => user.role === "Admin") ? { found: 1 } : null;
      },
    }),
  });

  it.each([
    ["a database before its first migration", {}, false],
    ["users without an admin", { users: [{ role: "User" }, { role: "Monitor" }] }, false],
    ["an admin among the users", { users: [{ role: "User" }, { role: "Admin" }] }, true],
  ])("%s", async (_name, tables, expected) => {
    expect(await hasAdminAccount(d1(tables))).toBe(expected);
  });
});
