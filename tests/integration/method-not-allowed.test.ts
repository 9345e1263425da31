import { describe, expect, it } from "vitest";
import "../../workers/api";
import { routeTable } from "../../workers/api/registry";
import { Client, newUser } from "./helpers";
import type { ErrorBody } from "./game-helpers";

/** A concrete address for a route pattern: the method is refused before any lookup, so the values do not matter. */
const concrete = (path: string) => `/api${path.replace(/:hash/gi, "a".repeat(64)).replace(/:[A-Za-z]+/g, "1")}`;

const TITLES = {
  "en-US": "This address does not accept this request method",
  "ja-JP": "このアドレスはこのリクエストメソッドを受け付けません",
  "zh-CN": "这个地址不接受此请求方法",
} as const;

describe("a known API address called with a method it has no route for", () => {
  it("answers 405 with Allow listing the address's methods, in the {title, status} shape", async () => {
    const c = new Client();
    for (const [method, path, allow] of [
      ["PATCH", "/api/game", "GET, HEAD, OPTIONS"],
      ["DELETE", "/api/config", "GET, HEAD, OPTIONS"],
      ["POST", "/api/account/profile", "GET, HEAD, OPTIONS"],
      ["GET", "/api/account/login", "POST, OPTIONS"],
      ["PUT", "/api/account/logout", "POST, OPTIONS"],
      ["POST", "/api/team/1", "GET, HEAD, PUT, DELETE, OPTIONS"],
      ["PATCH", "/api/admin/users/00000000-0000-4000-8000-000000000000", "GET, HEAD, PUT, DELETE, OPTIONS"],
      ["DELETE", "/api/openapi.json", "GET, HEAD, OPTIONS"],
      // Paths are case-insensitive for the methods as for the routes.
      ["DELETE", "/API/Config", "GET, HEAD, OPTIONS"],
    ] as const) {
      const r = await c.json<ErrorBody>(path, { method });
      expect(r.status, `${method} ${path}`).toBe(405);
      expect(r.res.headers.get("allow"), `${method} ${path}`).toBe(allow);
      expect(r.body).toEqual({ title: TITLES["en-US"], status: 405 });
    }
  });

  it("lists in Allow exactly the methods every registered address has", async () => {
    // Each route's address, with the methods of every pattern that matches it (`/admin/teams/search` is also `/admin/teams/:id`).
    const pattern = (path: string) => new RegExp(`^/api${path.toLowerCase().replace(/:[a-z]+/g, "[^/]+")}$`);
    const byPath = new Map<string, Set<string>>();
    for (const r of routeTable) byPath.set(concrete(r.path), new Set());
    for (const [path, methods] of byPath) for (const r of routeTable) if (pattern(r.path).test(path.toLowerCase())) methods.add(r.method);
    const c = new Client();
    for (const [path, methods] of byPath) {
      const missing = ["GET", "POST", "PUT", "DELETE", "PATCH"].find((m) => !methods.has(m))!;
      const r = await c.json<ErrorBody>(path, { method: missing });
      expect(r.status, `${missing} ${path}`).toBe(405);
      const allow = (r.res.headers.get("allow") ?? "").split(", ");
      const expected = ["GET", "POST", "PUT", "DELETE"].filter((m) => methods.has(m));
      expect(allow.filter((m) => m !== "HEAD" && m !== "OPTIONS"), path).toEqual(expected);
      expect(allow.includes("HEAD"), path).toBe(methods.has("GET"));
      expect(allow.at(-1), path).toBe("OPTIONS");
    }
  });

  it("titles the 405 in the request's language", async () => {
    for (const lang of ["en-US", "ja-JP", "zh-CN"] as const) {
      const r = await new Client({ lang }).json<ErrorBody>("/api/game", { method: "PATCH" });
      expect(r.status, lang).toBe(405);
      expect(r.body, lang).toEqual({ title: TITLES[lang], status: 405 });
    }
  });

  it("answers OPTIONS with 204 and Allow, and HEAD from the GET route", async () => {
    const c = new Client();
    const options = await c.fetch("/api/config", { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await options.text()).toBe("");
    const head = await c.fetch("/api/config", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toContain("application/json");
    expect(await head.text()).toBe("");
    // HEAD of an address without GET is refused like any other missing method.
    const headLogin = await c.fetch("/api/account/login", { method: "HEAD" });
    expect(headLogin.status).toBe(405);
    expect(headLogin.headers.get("allow")).toBe("POST, OPTIONS");
    await headLogin.arrayBuffer();
  });

  it("still answers 404 for an address without routes, whatever the method", async () => {
    const { client } = await newUser();
    for (const method of ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      for (const path of ["/api/nothing-here", "/api/game/1/nothing", "/api/config/", "/api"]) {
        const r = await client.fetch(path, { method });
        expect(r.status, `${method} ${path}`).toBe(404);
        expect(r.headers.get("allow"), `${method} ${path}`).toBeNull();
        if (method !== "HEAD") expect(await r.json(), `${method} ${path}`).toEqual({ title: "There is nothing at this address", status: 404 });
      }
    }
  });

  it("leaves the routes themselves as they were", async () => {
    const { client } = await newUser();
    expect((await client.json("/api/account/profile")).status).toBe(200);
    expect((await client.json("/api/config")).status).toBe(200);
  });
});
