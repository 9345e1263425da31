import type { z } from "zod";

type Def = { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; element?: z.ZodType; in?: z.ZodType; out?: z.ZodType; options?: z.ZodType[]; left?: z.ZodType; right?: z.ZodType };
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Every object key of a schema, at any depth (through optional, nullable, default, arrays, pipes, unions). */
export function keysOf(schema: z.ZodType, out = new Set<string>(), seen = new Set<z.ZodType>()): Set<string> {
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
