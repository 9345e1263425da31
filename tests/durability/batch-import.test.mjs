// A batch import of users hashes one password per row (scrypt, ≈ 0.1–0.2 s of the runtime's one thread
// each). The real `npm start` server must keep answering other requests between the rows: before the
// hashes yielded, a request sent during a 30-row import was answered only after the whole import (6 s).
// Needs the built app (FLAGSTAFF_BUILD_DIR or build/).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ADMIN, Client, freePort, startServer, stopServer } from "./server.mjs";

const ROWS = 30;
// Mail off whatever the shell has: the second test checks what the pages say without it.
const NO_MAIL = { FLAGSTAFF_SMTP_HOST: "", FLAGSTAFF_SMTP_SENDER: "" };

const dataDir = mkdtempSync(join(tmpdir(), "flagstaff-batch-"));
let server = null;

afterAll(async () => {
  if (server) await stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a batch import of users on the npm start server", () => {
  it("leaves the server answering other requests between its rows", { timeout: 120_000 }, async () => {
    server = await startServer({ dataDir, port: await freePort(), env: NO_MAIL });
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

  it("has the login and register pages say up front what a server without mail, or with registration closed, cannot do", { timeout: 60_000 }, async () => {
    server ??= await startServer({ dataDir, port: await freePort(), env: NO_MAIL });
    const admin = new Client(server.base);
    await admin.ok("/api/account/login", { method: "POST", body: ADMIN });
    const en = JSON.parse(readFileSync(new URL("../../app/locales/en-US/common.json", import.meta.url), "utf8"));
    const page = async (path) => {
      const r = await fetch(`${server.base}${path}`);
      expect(r.status).toBe(200);
      return r.text();
    };
    // No SMTP settings here: no "Forgot password?" link to a recovery that can only fail.
    let login = await page("/account/login");
    expect(login).not.toContain('href="/account/recovery"');
    expect(login).toContain(en.login.forgotNoMail);
    expect(login).toContain('href="/account/register"');
    expect(await page("/account/register")).not.toContain(en.register.closedTitle);

    await admin.ok("/api/admin/config", { method: "PUT", body: { accountPolicy: { allowRegister: false } } });
    // Read again until the runtime's settings cache (≤ 5 s) has the change.
    for (let tries = 0; tries < 40 && (await page("/account/login")).includes('href="/account/register"'); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    login = await page("/account/login");
    expect(login).not.toContain('href="/account/register"');
    const register = await page("/account/register");
    expect(register).toContain(en.register.closedTitle);
    expect(register).toContain(en.register.closed);
  });
});

