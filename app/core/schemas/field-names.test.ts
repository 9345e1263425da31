import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { keysOf } from "../../../tests/support/schema-keys";
import enErrors from "../../locales/en-US/errors.json";
import jaErrors from "../../locales/ja-JP/errors.json";
import zhErrors from "../../locales/zh-CN/errors.json";
import * as account from "./account";
import * as challenge from "./challenge";
import * as config from "./config";
import * as game from "./game";
import * as post from "./post";
import * as team from "./team";

const isSchema = (value: unknown): value is z.ZodType => typeof value === "object" && value !== null && "_zod" in value && "safeParse" in value;
const schemas = Object.entries({ account, challenge, config, game, post, team }).flatMap(([module, exports]) =>
  Object.entries(exports)
    .filter(([, value]) => isSchema(value))
    .map(([name, value]) => [`${module}.${name}`, value as z.ZodType] as const),
);

describe("field names in validation messages", () => {
  it("finds the request schemas", () => {
    expect(schemas.length).toBeGreaterThan(20);
  });

  it.each([
    ["en-US", enErrors.fields],
    ["ja-JP", jaErrors.fields],
    ["zh-CN", zhErrors.fields],
  ] as const)("every field a request schema checks has a name in %s", (_, fields) => {
    const missing = schemas.flatMap(([name, schema]) => [...keysOf(schema)].filter((key) => !(key in fields)).map((key) => `${name}: ${key}`));
    expect(missing).toEqual([]);
  });
});
