import type { Hono } from "hono";
import { z } from "zod";
import type { CurrentUser } from "~/.server/auth/current-user";
import { AppError, badRequest } from "~/core/errors";
import { bodyKindOf, type UploadRule } from "~/core/http/body-limit";
import { cleanJsonInput, describeIssue, fieldLabel, firstIssue, issueField, pathField } from "~/core/validation";
import { hasErrorKey } from "~/core/i18n/translator";
import { holdUndeclaredBody, refuseDeclaredOversize } from "./body-limit";
import type { ApiContext, ApiEnv } from "./context";
import { requireAuth } from "./guard";
import { runIdempotent } from "./idempotency";

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
  /** The multipart field that carries the file(s): `file` unless given (`files` for several). */
  fileField?: "file" | "files";
  /**
   * The file rule of a multipart route, which sets its body cap (app/core/http/body-limit.ts): one image
   * unless given. Other bodies are capped at 64 KB, or 4 MB on Admin and internal routes.
   */
  upload?: UploadRule;
  /**
   * Who may call it as api.md names it, when narrower than `auth` (checked by the service): e.g.
   * "Captain", "Player"; shown as the OpenAPI document's `x-auth`.
   */
  access?: string;
  /** A call between the platform's own parts (the container agent's callbacks): not in the OpenAPI document. */
  internal?: true;
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
  const first = firstIssue(result.error.issues);
  const message = first ? describeIssue(first, c.get("t"), hasErrorKey, value) : c.get("t")("validation.invalid", { field: "" });
  throw new AppError(400, "validation.failed", { message }, undefined, first ? issueField(first) : null);
}

/** Strict: bytes that are not UTF-8 are refused, not stored as U+FFFD in place of what was meant. */
const utf8 = new TextDecoder("utf-8", { fatal: true });

async function readJson(c: ApiContext): Promise<unknown> {
  let text: string;
  try {
    text = utf8.decode(await c.req.arrayBuffer());
  } catch {
    throw badRequest("validation.malformed_utf8");
  }
  if (text.trim() === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest("validation.malformed_json");
  }
  const cleaned = cleanJsonInput(parsed);
  if ("value" in cleaned) return cleaned.value;
  if ("tooDeep" in cleaned) throw badRequest("validation.too_deep");
  const t = c.get("t");
  // About one field: named in X-Error-Field too, so a form shows it at that field.
  throw new AppError(400, "validation.failed", { message: t("validation.bad_characters", { field: fieldLabel(cleaned.badPath, t) }) }, undefined, pathField(cleaned.badPath));
}

/**
 * Registers a route: guard → parse (zod) → handler. Handlers call one service and respond. A signed-in
 * user's POST with an `Idempotency-Key` runs its handler once per key (workers/api/idempotency.ts).
 */
export function defineRoute<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
  app: Hono<ApiEnv>,
  spec: RouteSpec<B, Q>,
  handler: (c: ApiContext, input: HandlerInput<Infer<B>, Infer<Q>>) => Response | Promise<Response>,
): void {
  routeTable.push(spec as RouteSpec<z.ZodType | undefined, z.ZodType | undefined>);
  const bodyKind = bodyKindOf(spec);
  app.on(spec.method, spec.path.toLowerCase(), async (c) => {
    // An oversized declared body is refused before the guard; a counted one only after it.
    refuseDeclaredOversize(c, bodyKind);
    const user = await requireAuth(c, spec.auth);
    await holdUndeclaredBody(c, bodyKind);
    const body = spec.body ? parseWith(c, spec.body, await readJson(c)) : undefined;
    // An empty parameter (`?count=`) is an absent one: it takes the default instead of reading as 0.
    const query = spec.query ? parseWith(c, spec.query, Object.fromEntries(Object.entries(c.req.query()).filter(([, v]) => v.trim() !== ""))) : undefined;
    return runIdempotent(c, user, async () => handler(c, { body: body as Infer<B>, query: query as Infer<Q>, user }));
  });
}

const FILE_HASH = { type: "string", pattern: "^[0-9a-f]{64}$" };

/**
 * A path parameter's type (api.md §1): users and container instances are UUIDs, posts 8-character ids,
 * files their SHA-256, a participation's status and a capture's file name are names; every other id is
 * an integer.
 */
function pathParamSchema(path: string, name: string): Record<string, unknown> {
  if (name === "userid" || name === "iid" || (name === "id" && path.startsWith("/admin/users/"))) return { type: "string", format: "uuid" };
  if (name === "id" && /^\/(edit\/)?posts\//.test(path)) return { type: "string", pattern: "^[0-9a-z]{8}$" };
  if (name === "hash") return FILE_HASH;
  if (name === "status") return { type: "string", enum: ["Accepted", "Rejected", "Suspended", "Pending"] };
  if (name === "file") return { type: "string" };
  return { type: "integer", minimum: 1 };
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
    if (r.internal) continue;
    const path = `/api${r.path.replace(/:([A-Za-z]+)/g, "{$1}")}`;
    const params = [...r.path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: pathParamSchema(r.path, m[1] ?? ""),
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
      "x-auth": r.access ?? r.auth,
      parameters: [...params, ...queryParams],
      responses: {
        "200": { description: "Success" },
        default: { description: "Error", content: { "application/json": { schema: errorBody } } },
      },
    };
    if (r.body) {
      op.requestBody = {
        // A body the schema accepts when absent (`{divisionId?}` of a participation's status) is optional.
        required: !r.body.safeParse(undefined).success,
        content: { "application/json": { schema: z.toJSONSchema(r.body, { io: "input", unrepresentable: "any" }) } },
      };
    } else if (r.rawBody === "multipart") {
      const field = r.fileField ?? "file";
      const binary = { type: "string", format: "binary" };
      op.requestBody = {
        required: true,
        content: {
          "multipart/form-data": {
            schema: { type: "object", properties: { [field]: field === "files" ? { type: "array", items: binary } : binary }, required: [field] },
          },
        },
      };
    }
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = op;
  }
  // The one file route outside /api (workers/app.ts).
  paths["/assets/{hash}/{name}"] = {
    get: {
      summary: "Download a stored file; `name` is the download name only (7-day cache, ETag = hash)",
      tags: ["Assets"],
      security: [],
      "x-auth": "Public",
      parameters: [
        { name: "hash", in: "path", required: true, schema: FILE_HASH },
        { name: "name", in: "path", required: true, schema: { type: "string" } },
      ],
      responses: { "200": { description: "The file" }, default: { description: "Error", content: { "application/json": { schema: errorBody } } } },
    },
  };
  return {
    openapi: "3.1.0",
    info: { title: "Flagstaff API", version: "1.0.0", description: "JSON API of the Flagstaff CTF platform." },
    components: { securitySchemes: { session: { type: "apiKey", in: "cookie", name: "flagstaff_session" } } },
    paths,
  };
}
