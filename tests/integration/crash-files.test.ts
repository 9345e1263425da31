import { eq, sql } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "~/.server/db/client";
import { attachments, challenges, files } from "~/.server/db/schema";
import { deleteChallenge } from "~/.server/services/challenges";
import { addFlags } from "~/.server/services/flags";
import { deleteGame } from "~/.server/services/games";
import type { ChallengeEditDetail } from "~/core/schemas/challenge";
import { newAdmin } from "./content-helpers";
import { createGame } from "./game-helpers";
import { type Client, db, unique } from "./helpers";

/**
 * The runtime dying in the middle of a change that adds or drops file references (a SIGKILL, a crash): every
 * database call after the first `survive` ones fails, as they would once the process is gone. Whatever was
 * stored by then must leave each file's reference count equal to what holds it, and no attachment row that no
 * flag or challenge holds (api.md §8: "a blob is removed when nothing refers to it").
 */
function dyingD1(real: D1Database, survive: number): D1Database {
  let calls = 0;
  const tick = () => {
    calls += 1;
    if (calls > survive) throw new Error("the runtime died");
  };
  const unwrap = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== "function") return value;
        if (key === "bind") return (...args: unknown[]) => wrap((value as (...a: unknown[]) => D1PreparedStatement).apply(target, args));
        if (key === "run" || key === "all" || key === "first" || key === "raw") {
          return async (...args: unknown[]) => {
            tick();
            return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          };
        }
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
    unwrap.set(proxy, statement);
    return proxy;
  };
  return new Proxy(real, {
    get(target, key) {
      if (key === "prepare") return (query: string) => wrap(target.prepare(query));
      if (key === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          tick();
          return target.batch(statements.map((s) => unwrap.get(s) ?? s));
        };
      }
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const bucket = (env as unknown as { FILES: R2Bucket }).FILES;

async function uploadFile(admin: Client): Promise<string> {
  const form = new FormData();
  form.append("files", new File([new TextEncoder().encode(unique("bytes"))], "f.txt", { type: "application/octet-stream" }));
  const r = await admin.json<{ hash: string }[]>("/api/assets", { method: "POST", raw: form });
  expect(r.status).toBe(200);
  return r.body[0]!.hash;
}

async function dynamicChallenge(admin: Client, gameId: number): Promise<ChallengeEditDetail> {
  const r = await admin.json<ChallengeEditDetail>(`/api/edit/games/${gameId}/challenges`, { method: "POST", body: { title: unique("c"), category: "Misc", type: "DynamicAttachment" } });
  expect(r.status).toBe(200);
  return r.body;
}

/** The file's stored count against what holds it: the upload's own reference and its attachment rows. */
async function referencesOf(hash: string) {
  const row = await db().select({ n: files.referenceCount }).from(files).where(eq(files.hash, hash)).get();
  const held = await db().select({ n: sql<number>`count(*)` }).from(attachments).where(eq(attachments.fileHash, hash)).get();
  const orphans = await db()
    .select({ n: sql<number>`count(*)` })
    .from(attachments)
    .where(sql`${attachments.fileHash} = ${hash} and not exists (select 1 from flags f where f.attachment_id = ${attachments.id}) and not exists (select 1 from challenges c where c.attachment_id = ${attachments.id})`)
    .get();
  return { stored: row?.n ?? 0, expected: 1 + (held?.n ?? 0), orphans: orphans?.n ?? 0 };
}

describe("a runtime dying in the middle of a change to file references", () => {
  it("adding flags in bulk: all of them with their attachments and references, or nothing", { timeout: 120_000 }, async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    const hash = await uploadFile(admin);
    const challenge = await dynamicChallenge(admin, game.id);
    const row = (await db().select().from(challenges).where(eq(challenges.id, challenge.id)).get())!;
    const input = Array.from({ length: 30 }, (_, i) => ({ flag: `flag{${unique("k")}-${i}}`, attachmentType: "Local" as const, fileHash: hash }));
    for (let survive = 0; survive <= 12; survive++) {
      const dying = createDb(dyingD1(env.DB, survive));
      await addFlags({ db: dying, bucket }, row, input.map((f) => ({ ...f, flag: `${f.flag}-${survive}` }))).catch(() => undefined);
      const refs = await referencesOf(hash);
      expect(refs, `died after ${survive} calls`).toEqual({ stored: refs.expected, expected: refs.expected, orphans: 0 });
    }
  });

  it("deleting a challenge or a game: its attachments and their references go together", { timeout: 120_000 }, async () => {
    const { client: admin } = await newAdmin();
    const hash = await uploadFile(admin);
    for (const what of ["challenge", "game"] as const) {
      for (let survive = 0; survive <= 10; survive++) {
        const game = await createGame(admin);
        const challenge = await dynamicChallenge(admin, game.id);
        const row = (await db().select().from(challenges).where(eq(challenges.id, challenge.id)).get())!;
        const input = Array.from({ length: 12 }, (_, i) => ({ flag: `flag{${unique("d")}-${i}}`, attachmentType: "Local" as const, fileHash: hash }));
        await addFlags({ db: db(), bucket }, row, input);
        const dying = createDb(dyingD1(env.DB, survive));
        const act = what === "game" ? deleteGame({ db: dying, bucket }, game.id) : deleteChallenge({ db: dying, bucket }, game.id, challenge.id);
        await act.catch(() => undefined);
        const refs = await referencesOf(hash);
        expect(refs, `${what}: died after ${survive} calls`).toEqual({ stored: refs.expected, expected: refs.expected, orphans: 0 });
      }
    }
  });
});
