// A batch import of users hashes one password per row (scrypt, ≈ 0.1–0.2 s of the runtime's one thread
// each). The real `npm start` server must keep answering other requests between the rows: before the
// hashes yielded, a request sent during a 30-row import was answered only after the whole import (6 s).
// Needs the built app (FLAGSTAFF_BUILD_DIR or build/).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ADMIN, Client, freePort, startServer, stopServer } from "./server.mjs";

const ROWS = 30;

const dataDir = mkdtempSync(join(tmpdir(), "flagstaff-batch-"));
let server = null;

afterAll(async () => {
  if (server) await stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a batch import of users on the npm start server", () => {
  it("leaves the server answering other requests between its rows", { timeout: 120_000 }, async () => {
    server = await startServer({ dataDir, port: await freePort() });
    const admin = new Client(server.base);
    await admin.ok("/api/account/login", { method: "POST", body: ADMIN });
    const stamp = Date.now().toString(36);
    const rows = Array.from({ length: ROWS }, (_, i) => ({ userName: `imp${stamp}${i}`, password: "Passw0rd!x", email: `imp${stamp}${i}@example.com` }));

    const started = performance.now();
    let importedAt = 0;
    const imported = admin.ok("/api/admin/users", { method: "POST", body: rows }).then((results) => {
      importedAt = performance.now() - started;
      return results;
    });
    // Requests that need the runtime (public config, a page of games), sent while the import runs.
    const answeredAt = [];
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const path of ["/api/config", "/api/game?count=1&skip=0", "/api/config"]) {
      const r = await fetch(`${server.base}${path}`);
      expect(r.status).toBe(200);
      await r.text();
      answeredAt.push(performance.now() - started);
    }

    const results = await imported;
    expect(results.map((r) => r.result)).toEqual(rows.map(() => "created"));
    // Every other request was answered while the import was still running.
    expect(importedAt).toBeGreaterThan(0);
    for (const at of answeredAt) expect(at, `answered at ${Math.round(at)} ms, import done at ${Math.round(importedAt)} ms`).toBeLessThan(importedAt);
  });
});
