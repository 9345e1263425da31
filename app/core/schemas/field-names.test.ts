import { describe, expect, it } from "vitest";
import type { z } from "zod";
import enErrors from "../../locales/en-US/errors.json";
import jaErrors from "../../locales/ja-JP/errors.json";
import zhErrors from "../../locales/zh-CN/errors.json";
import * as account from "./account";
import * as challenge from "./challenge";
import * as config from "./config";
import * as game from "./game";
import * as post from "./post";
import * as team from "./team";

type Def = { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; element?: z.ZodType; in?: z.ZodType; out?: z.ZodType; options?: z.ZodType[]; left?: z.ZodType; right?: z.ZodType };
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Every object key of a schema, at any depth (through optional, nullable, default, arrays, pipes, unions). */
function keysOf(schema: z.ZodType, out = new Set<string>(), seen = new Set<z.ZodType>()): Set<string> {
  if (seen.has(schema)) return out;
  seen.add(schema);
  const def = defOf(schema);
  if (def.shape) {
    for (const [key, value] of Object.entries(def.shape)) {
      out.add(key);
      keysOf(value, out, seen);
    }
  }
  for (const inner of [def.innerType, def.element, def.in, def.out, def.left, def.right, ...(def.options ?? [])]) if (inner) keysOf(inner, out, seen);
  return out;
}

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
