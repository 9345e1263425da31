/// <reference types="@cloudflare/vitest-plugin/types" />
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

// Proves the harness itself: the built worker with its real bindings, migrated D1 and R2.
describe("workerd test runtime", () => {
  it("has the D1 migrations applied", async () => {
    const row = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?")
      .bind("users")
      .first<{ name: string }>();
    expect(row?.name).toBe("users");
    const applied = await env.DB.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>();
    expect(applied.results.map((migration) => migration.name)).toEqual(expect.arrayContaining(["0000_init.sql", "0001_submissions_without_user_index.sql"]));
    // Dropped by 0001 (a random page write per stored submission; DECISIONS.md, eighth session).
    const index = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'submissions_user_idx'").first();
    expect(index).toBeNull();
  });

  it("round-trips an object through R2", async () => {
    const key = `runtime-test/${crypto.randomUUID()}`;
    const body = new Uint8Array([0, 1, 2, 253, 254, 255]);
    await env.FILES.put(key, body, { httpMetadata: { contentType: "application/octet-stream" } });
    const object = await env.FILES.get(key);
    expect(object).not.toBeNull();
    expect(object?.httpMetadata?.contentType).toBe("application/octet-stream");
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(body);
    await env.FILES.delete(key);
    expect(await env.FILES.head(key)).toBeNull();
  });

  it("serves GET /api/config from the worker entry", async () => {
    const response = await exports.default.fetch("http://example.com/api/config");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const body = await response.json<{ title: unknown }>();
    expect(typeof body.title).toBe("string");
  });
});
