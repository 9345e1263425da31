import { describe, expect, it } from "vitest";
import enErrors from "~/locales/en-US/errors.json";
import jaErrors from "~/locales/ja-JP/errors.json";
import zhErrors from "~/locales/zh-CN/errors.json";
import "../../workers/api";
import { routeTable } from "../../workers/api/registry";
import { keysOf } from "../support/schema-keys";

// A validation message names its field ("Token is required"): every key a route's body or query checks
// needs a name in each language, or the message shows the key as written in code ("rToken has the wrong
// type"). The unit test of app/core/schemas covers the shared schemas; this one every registered route,
// including the schemas written beside their handlers.
describe("field names of every route's body and query", () => {
  it.each([
    ["en-US", enErrors.fields],
    ["ja-JP", jaErrors.fields],
    ["zh-CN", zhErrors.fields],
  ] as const)("every checked key has a name in %s", (_, fields) => {
    expect(routeTable.filter((route) => route.body || route.query).length).toBeGreaterThan(40);
    const missing = new Set<string>();
    for (const route of routeTable) {
      for (const schema of [route.body, route.query]) {
        if (!schema) continue;
        for (const key of keysOf(schema)) if (!(key in fields)) missing.add(`${route.method} ${route.path}: ${key}`);
      }
    }
    expect([...missing]).toEqual([]);
  });
});
