import { env, exports } from "cloudflare:workers";
import { createDb, type Db } from "~/.server/db/client";

export const BASE = "http://flagstaff.test";
let counter = 0;

/** A unique suffix so tests never collide, whatever the storage isolation. */
export function unique(prefix = "u"): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36).slice(-5)}${counter}`;
}

/** A minimal API client with a cookie jar, as a browser on the same origin would be. */
export class Client {
  cookie: string | null = null;

  constructor(
    readonly opts: { lang?: string; ip?: string } = {},
  ) {}

  /** `encodeResponseBody: "manual"` reads a compressed body as sent (not inflated by the runtime). */
  async fetch(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; raw?: BodyInit; encodeResponseBody?: "manual" } = {}) {
    const headers: Record<string, string> = { ...init.headers };
    if (this.opts.lang) headers["accept-language"] = this.opts.lang;
    if (this.opts.ip) headers["cf-connecting-ip"] = this.opts.ip;
    if (this.cookie) headers.cookie = this.cookie;
    let body: BodyInit | undefined = init.raw;
    if (init.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.body);
    }
    const res = await exports.default.fetch(`${BASE}${path}`, { method: init.method ?? "GET", headers, body, ...(init.encodeResponseBody ? { encodeResponseBody: init.encodeResponseBody } : {}) });
    const setCookie = res.headers.get("set-cookie");
    if (setCookie) {
      const pair = setCookie.split(";")[0] ?? "";
      this.cookie = pair.endsWith("=") ? null : pair;
    }
    return res;
  }

  async json<T = unknown>(path: string, init: Parameters<Client["fetch"]>[1] = {}): Promise<{ status: number; body: T; res: Response }> {
    const res = await this.fetch(path, init);
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T, res };
  }
}

export const PASSWORD = "Passw0rd!";

/** Registers (and signs in) a fresh user; returns the client and the user name. */
export async function newUser(opts: { lang?: string; ip?: string } = {}) {
  const client = new Client(opts);
  const userName = unique();
  const r = await client.json<{ data: string }>("/api/account/register", {
    method: "POST",
    body: { userName, password: PASSWORD, email: `${userName}@example.com` },
  });
  if (r.status !== 200 || r.body.data !== "LoggedIn") throw new Error(`register failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { client, userName };
}

export const db = () => createDb(env.DB);

/**
 * The database of a service call with another writer's save landing right after the call's `n`-th single-row
 * read (its check of a version or a status): what the check cannot see, the write itself must refuse.
 */
export function landingAfterRead(n: number, save: () => Promise<unknown>): Db {
  const real = db();
  let reads = 0;
  const chain = (target: object): object =>
    new Proxy(target, {
      get(t, key, receiver) {
        const value = Reflect.get(t, key, receiver) as unknown;
        if (typeof value !== "function") return value;
        if (key === "get") {
          return async (...args: unknown[]) => {
            const row = await (value as (...a: unknown[]) => Promise<unknown>).apply(t, args);
            if (++reads === n) await save();
            return row;
          };
        }
        return (...args: unknown[]) => {
          const out = (value as (...a: unknown[]) => unknown).apply(t, args);
          return out !== null && typeof out === "object" && !(out instanceof Promise) ? chain(out) : out;
        };
      },
    });
  return new Proxy(real, {
    get(t, key, receiver) {
      const value = Reflect.get(t, key, receiver) as unknown;
      if (key === "select" && typeof value === "function") return (...args: unknown[]) => chain((value as (...a: unknown[]) => object).apply(t, args));
      return value;
    },
  });
}
