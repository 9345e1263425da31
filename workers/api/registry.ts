import type { Hono } from "hono";
import { z } from "zod";
import type { CurrentUser } from "~/.server/auth/current-user";
import { badRequest } from "~/core/errors";
import { describeIssue } from "~/core/validation";
import { hasErrorKey } from "~/core/i18n/translator";
import type { ApiContext, ApiEnv } from "./context";
import { requireAuth } from "./guard";

import type { AuthLevel } from "~/core/permissions";
export type { AuthLevel };
export type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface RouteSpec<B extends z.ZodType | undefined, Q extends z.ZodType | undefined> {
  method: Method;
  /** Path below /api in Hono form, e.g. `/account/login`, `/team/:id`. */
  path: string;
  auth: AuthLevel;
  summary: string;
  tag: string;
  body?: B;
  query?: Q;
  /** Raw body (multipart/binary); no JSON parsing. */
  rawBody?: "multipart";
}

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

export interface HandlerInput<B, Q> {
  body: B;
  query: Q;
  /** The signed-in user (null only for Public routes). */
  user: CurrentUser | null;
}

/** Every registered route, for the OpenAPI document and the route-list tests. */
export const routeTable: RouteSpec<z.ZodType | undefined, z.ZodType | undefined>[] = [];

function parseWith<S extends z.ZodType>(c: ApiContext, schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const message = first ? describeIssue(first, c.get("t"), hasErrorKey, value) : c.get("t")("validation.invalid", { field: "" });
  throw badRequest("validation.failed", { message });
}

async function readJson(c: ApiContext): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("validation.malformed_json");
  }
}

/**
 * Registers a route: guard → parse (zod) → handler. Handlers call one service and respond.
 */
export function defineRoute<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
  app: Hono<ApiEnv>,
  spec: RouteSpec<B, Q>,
  handler: (c: ApiContext, input: HandlerInput<Infer<B>, Infer<Q>>) => Response | Promise<Response>,
): void {
  routeTable.push(spec as RouteSpec<z.ZodType | undefined, z.ZodType | undefined>);
  app.on(spec.method, spec.path.toLowerCase(), async (c) => {
    const user = await requireAuth(c, spec.auth);
    const body = spec.body ? parseWith(c, spec.body, await readJson(c)) : undefined;
    const query = spec.query ? parseWith(c, spec.query, c.req.query()) : undefined;
    return handler(c, { body: body as Infer<B>, query: query as Infer<Q>, user });
  });
}

/** The OpenAPI 3.1 document of every registered route, built from the same zod schemas. */
export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorBody = {
    type: "object",
    properties: { title: { type: "string" }, status: { type: "integer" } },
    required: ["title", "status"],
  };
  for (const r of routeTable) {
    const path = `/api${r.path.replace(/:([A-Za-z]+)/g, "{$1}")}`;
    const params = [...r.path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const queryParams = r.query
      ? Object.entries(
          (z.toJSONSchema(r.query, { io: "input", unrepresentable: "any" }) as { properties?: Record<string, unknown> })
            .properties ?? {},
        ).map(([name, schema]) => ({ name, in: "query", required: false, schema }))
      : [];
    const op: Record<string, unknown> = {
      summary: r.summary,
      tags: [r.tag],
      security: r.auth === "Public" ? [] : [{ session: [] }],
      "x-auth": r.auth,
      parameters: [...params, ...queryParams],
      responses: {
        "200": { description: "Success" },
        default: { description: "Error", content: { "application/json": { schema: errorBody } } },
      },
    };
    if (r.body) {
      op.requestBody = {
        required: true,
        content: { "application/json": { schema: z.toJSONSchema(r.body, { io: "input", unrepresentable: "any" }) } },
      };
    } else if (r.rawBody === "multipart") {
      op.requestBody = {
        required: true,
        content: { "multipart/form-data": { schema: { type: "object", properties: { file: { type: "string", format: "binary" } } } } },
      };
    }
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = op;
  }
  return {
    openapi: "3.1.0",
    info: { title: "Flagstaff API", version: "1.0.0", description: "JSON API of the Flagstaff CTF platform." },
    components: { securitySchemes: { session: { type: "apiKey", in: "cookie", name: "flagstaff_session" } } },
    paths,
  };
}
